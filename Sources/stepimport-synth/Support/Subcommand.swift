/// What a subcommand's arguments ask for.
enum SubcommandRequest<Options> {
    case help
    case run(Options)
}

/// Runs one subcommand the same way for all: help on stdout, usage errors with the usage line,
/// and each failure mapped to its exit status.
enum Subcommand {
    static func run<Options>(_ name: String, usage: String, help: String,
                             parse: () throws(SynthError) -> SubcommandRequest<Options>,
                             generate: (Options) throws(SynthError) -> Void) -> Int32 {
        do {
            switch try parse() {
            case .help:
                print(help, terminator: "")
            case .run(let options):
                try generate(options)
            }
            return 0
        } catch {
            printError(error.message)
            if case .usage = error {
                printError("Usage: \(usage)\n  See 'stepimport-synth \(name) --help' for more information.", prefixed: false)
            }
            return error.exitStatus
        }
    }
}
