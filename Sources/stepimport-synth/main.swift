// stepimport-synth: generators of synthetic health exports for samples, tests
// and benchmarks. This file only dispatches to a subcommand and exits with its
// status; each subcommand parses its own options.
import Foundation

let topLevelUsage = "stepimport-synth <subcommand> [options]"

let topLevelHelp = """
    OVERVIEW: Generate deterministic synthetic health exports for tests and benchmarks.

    USAGE: \(topLevelUsage)

    OPTIONS:
      -h, --help              Show help information.

    SUBCOMMANDS:
      apple                   Apple Health export (export.xml or export.zip).
      hc-db                   Health Connect's own export database (.db or Health Connect.zip).
      hc-json                 JSON dumps of Health Connect step records in apps' shapes.

      See 'stepimport-synth help <subcommand>' for detailed help.

    EXIT STATUS:
      0 success, 64 usage error, 73 cannot create the output, 74 write error.

    EXAMPLES:
      stepimport-synth apple --out samples/export.zip --days 45 --start 2024-03-15
      stepimport-synth apple --out /tmp/bench.xml --size 1G
      stepimport-synth hc-db --out "samples/Health Connect.zip" --days 60
      stepimport-synth hc-json --shape react-native --out /tmp/steps.json --days 30

    """

func usageFailure(_ message: String) -> Int32 {
    printError(message)
    printError("Usage: \(topLevelUsage)\n  See 'stepimport-synth --help' for more information.", prefixed: false)
    return SynthError.usage(message).exitStatus
}

let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case nil:
    status = usageFailure("missing subcommand")
case "-h", "--help":
    print(topLevelHelp, terminator: "")
    status = 0
case "help":
    switch arguments.dropFirst().first {
    case nil:
        print(topLevelHelp, terminator: "")
        status = 0
    case "apple":
        status = AppleCommand.run(["--help"])
    case "hc-db":
        status = HealthConnectDatabaseCommand.run(["--help"])
    case "hc-json":
        status = HealthConnectJSONCommand.run(["--help"])
    case let other?:
        status = usageFailure("unknown subcommand '\(other)'")
    }
case "apple":
    status = AppleCommand.run(Array(arguments.dropFirst()))
case "hc-db":
    status = HealthConnectDatabaseCommand.run(Array(arguments.dropFirst()))
case "hc-json":
    status = HealthConnectJSONCommand.run(Array(arguments.dropFirst()))
case let other?:
    status = usageFailure(other.hasPrefix("-") ? "unknown option '\(other)'" : "unknown subcommand '\(other)'")
}
exit(status)
