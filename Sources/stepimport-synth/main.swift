// stepimport-synth: generators of synthetic health exports for samples, tests
// and benchmarks. This file only dispatches to a subcommand and exits with its
// status; each subcommand reads its arguments against its own table.
import CommandLineKit
import Foundation

func run(_ arguments: [String]) -> Int32 {
    let request: ProgramRequest
    do {
        request = try Program.synth.parse(arguments)
    } catch {
        return Subcommand.usageFailure(error)
    }
    switch request {
    case .help(let command):
        print(Program.synth.helpPage(for: command), terminator: "")
        return 0
    case .version:
        print(Program.synth.versionLine)
        return 0
    case .run(let command, let rest):
        switch command {
        case AppleCommand.table.name: return AppleCommand.run(rest)
        case HealthConnectDatabaseCommand.table.name: return HealthConnectDatabaseCommand.run(rest)
        case HealthConnectJSONCommand.table.name: return HealthConnectJSONCommand.run(rest)
        default: return Subcommand.usageFailure(UsageError(.unknownSubcommand(command), command: nil))
        }
    }
}

exit(run(Array(CommandLine.arguments.dropFirst())))
