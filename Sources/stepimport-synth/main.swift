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
    case .topic(let topic):
        print(Program.synth.topicPage(topic) ?? "", terminator: "")
        return 0
    case .version:
        print(Program.synth.versionLine)
        return 0
    case .run(let command, let rest):
        guard let subcommand = Program.synthSubcommands.first(where: { $0.table.name == command }) else {
            return Subcommand.usageFailure(UsageError(.unknownSubcommand(command), command: nil))
        }
        return subcommand.run(rest)
    }
}

exit(run(Array(CommandLine.arguments.dropFirst())))
