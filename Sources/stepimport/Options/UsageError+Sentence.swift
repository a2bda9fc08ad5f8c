import CommandLineKit

extension UsageError {
    /// The sentence stepimport prints after `Error: `; a missing subcommand names the ones there are.
    var sentence: String {
        guard case .missingSubcommand(let available) = problem, let last = available.last else { return message }
        let names = available.count > 1 ? available.dropLast().joined(separator: ", ") + " or " + last : last
        return "missing subcommand (\(names))"
    }
}
