import CommandLineKit

/// Runs one subcommand the same way for all: its arguments read against its table, help on
/// stdout, usage errors with the usage line, and each failure mapped to its exit status.
enum Subcommand {
    static func run<Options>(_ command: Command<Options>, _ arguments: [String], startingFrom options: Options,
                             generate: (Options) throws(SynthError) -> Void) -> Int32 {
        let request: CommandRequest<Options>
        do {
            request = try command.parse(arguments, into: options)
        } catch {
            return usageFailure(error)
        }
        switch request {
        case .help:
            print(Program.synth.helpPage(for: command.name), terminator: "")
            return 0
        case .run(let options):
            do {
                try generate(options)
                return 0
            } catch {
                printError(error.message)
                return error.exitStatus
            }
        }
    }

    /// Prints a usage error, the usage line of its command (or of the program) and where to find
    /// help; returns the usage exit status.
    static func usageFailure(_ error: UsageError) -> Int32 {
        let program = Program.synth
        printError(error.message)
        printError("Usage: \(program.usageLine(for: error.command))\n  See '\(program.helpCommand(for: error.command))' for more information.",
                   prefixed: false)
        return SynthError.usage(error.message).exitStatus
    }
}
