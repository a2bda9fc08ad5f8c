import DisplayText

/// Why a batch could not start or keep its journal, in words a user can act on. Never holds a token.
public enum BatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The manifest could not be read at all (missing, a folder, unreadable).
    case unreadableManifest(path: String, reason: String)
    /// The manifest was read but is not usable: every problem found, in line order.
    case invalidManifest(path: String, problems: [ManifestProblem])
    /// A `--shard` value that is not `K/N` with 1 <= K <= N.
    case invalidShard(String)
    /// The journal could not be opened, read, repaired or appended to.
    case journal(path: String, reason: String)
    /// Another batch holds the journal's lock: it is running now.
    case journalInUse(path: String)

    /// The message, with control characters escaped in every part that came from outside (paths,
    /// the system's reasons, the manifest's values); the list of problems keeps its line breaks.
    public var description: String {
        switch self {
        case .unreadableManifest(let path, let reason):
            return "manifest \(path): \(reason)".escapingControlCharacters()
        case .invalidManifest(let path, let problems):
            let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
            return "manifest \(path.escapingControlCharacters()): \(count), nothing was done; fix them and run again:\n"
                + problems.map { "  \($0)" }.joined(separator: "\n")
        case .invalidShard(let message):
            return message.escapingControlCharacters()
        case .journal(let path, let reason):
            return "journal \(path): \(reason)".escapingControlCharacters()
        case .journalInUse(let path):
            return "journal \(path.escapingControlCharacters()): another stepimport batch is using it; wait for that one "
                + "to finish, or give each run its own --journal"
        }
    }
}
