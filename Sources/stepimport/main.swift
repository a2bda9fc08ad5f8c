import CommandLineKit
import ExportInput
import ExportParsers
import Foundation
import HealthDays
import HTTPClient
import Platform

/// Parses the command line, runs the subcommand and maps its outcome to an exit status.
func run() -> ExitStatus {
    // A signal never leaves a temporary copy behind (a database copied out of a zip has a name).
    // `--post` and `batch` later take over Ctrl-C to stop at a safe point; a second one exits 130.
    TemporaryCleanup.install([
        .init(signal: SIGINT, status: ExitStatus.interrupted.rawValue,
              message: "\nstepimport: interrupted (SIGINT); temporary files removed\n"),
        .init(signal: SIGTERM, status: ExitStatus.terminated.rawValue,
              message: "\nstepimport: terminated (SIGTERM); temporary files removed\n"),
        .init(signal: SIGHUP, status: ExitStatus.hungUp.rawValue,
              message: "\nstepimport: hung up (SIGHUP); temporary files removed\n"),
    ])
    let tuning = Tuning(environment: ProcessInfo.processInfo.environment)
    // Set before any zip is opened, on any thread.
    ZipInflater.processDefault = tuning.inflater ?? .isal
    // Before `--version` or any client loads libcurl, which happens once.
    HTTPClient.libraryPath = tuning.libcurlPath
    // Before any thread is started, so that every one inherits it: the reader, the parse workers
    // and the consumer wake each other for every piece, and would otherwise preempt each other.
    if tuning.batchScheduling { ThroughputScheduling.useForThisThread() }
    let arguments = Array(CommandLine.arguments.dropFirst())
    let invocation: Invocation
    do {
        invocation = try Invocation.parse(arguments)
    } catch {
        Diagnostics.current(color: ColorChoice.given(in: arguments)).error(error.words(arguments: arguments))
        return .usage
    }
    let diagnostics = Diagnostics.current(color: invocation.color)
    switch invocation {
    case .help(let command):
        try? StandardStreams.writeOutput(Invocation.program.laidOut(width: helpWidth()).helpPage(for: command))
        return .success
    case .topic(let topic):
        try? StandardStreams.writeOutput(Invocation.program.laidOut(width: helpWidth()).topicPage(topic) ?? "")
        return .success
    case .version:
        try? StandardStreams.writeOutput(VersionText.text)
        return .success
    case .completions(let shell):
        try? StandardStreams.writeOutput(Invocation.program.completionScript(for: shell))
        return .success
    case .manual:
        try? StandardStreams.writeOutput(Invocation.program.manPage(date: HelpText.releaseDate))
        return .success
    case .read(let family, let path, let options):
        return read(ReadCommand(choice: .family(family, forcing: options.inputFormat), path: path, options: options,
                                diagnostics: diagnostics))
    case .batch(let manifest, let options):
        return BatchCommand(manifestPath: manifest, options: options, diagnostics: diagnostics).run()
    case .inspect(let path, let request):
        do {
            try InspectCommand(path: path, request: request, diagnostics: diagnostics).run()
            return .success
        } catch {
            diagnostics.error(error.description)
            return ExitStatus(for: error)
        }
    }
}

/// The width of help pages: standard output's columns (`TerminalDisplay`), within the pages' widths.
func helpWidth() -> Int {
    HelpLayout.pageWidth(forTerminalColumns: TerminalDisplay.columns(for: .output, environment: ProcessInfo.processInfo.environment))
}

func read(_ command: ReadCommand) -> ExitStatus {
    do {
        try command.run()
        return .success
    } catch {
        command.diagnostics.error(error.description)
        return ExitStatus(for: error)
    }
}

exit(run().rawValue)
