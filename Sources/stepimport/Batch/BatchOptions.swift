import BackendUpload
import Foundation
import HealthDays

/// What `stepimport batch` was asked to do.
struct BatchOptions {
    /// `--skip-invalid`, `--quiet` and `--no-progress`, as for one export.
    var read = ReadOptions()
    /// `--post` and its options; nil to print each account's totals summary only.
    var post: PostOptions?
    /// Accounts processed at once (`--jobs`).
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// `--journal`; nil for the default beside the manifest.
    var journal: String?
    /// `--redo`: ignore what the journal says is done.
    var redo = false
    var shard = BatchShard.all
    /// `--report`: the whole batch's report as JSON.
    var reportFile: String?

    /// The largest `--jobs`: every job holds one export's working set (about 40 MB).
    static let maxJobs = 64

    /// Whether this run posts for real, and so keeps a journal.
    var keepsJournal: Bool {
        guard let post else { return false }
        return !post.plan && !post.dryRun
    }
}

extension Invocation {
    static func parseBatch(_ arguments: [String]) throws(UsageError) -> Invocation {
        var options = BatchOptions()
        var post = PostSettings()
        var journalOnly: [String] = []
        var paths: [String] = []
        var scanner = OptionScanner(arguments: arguments, command: "batch")

        while let item = try scanner.next() {
            guard case .option(let name) = item else {
                if case .positional(let path) = item { paths.append(path) }
                continue
            }
            if try post.parse(name, &scanner) { continue }
            if try options.read.parseShared(name, &scanner) { continue }
            switch name {
            case "-h", "--help":
                return .help(command: "batch")
            case "--jobs", "-j":
                let text = try scanner.value()
                guard let jobs = Int(text), (1...BatchOptions.maxJobs).contains(jobs) else {
                    throw scanner.fail("--jobs needs a whole number from 1 to \(BatchOptions.maxJobs), got '\(text)'")
                }
                options.jobs = jobs
            case "--journal":
                options.journal = try scanner.value()
                journalOnly.append(name)
            case "--redo":
                try scanner.noValue()
                options.redo = true
                journalOnly.append(name)
            case "--shard":
                let text = try scanner.value()
                do {
                    options.shard = try BatchShard(parsing: text)
                } catch {
                    throw scanner.fail(error.description)
                }
            case "--report":
                options.reportFile = try scanner.value()
            case "--token-file":
                throw scanner.fail("each account's token comes from the manifest (its token_file or token_env column), not from --token-file")
            case "--tz", "--since", "--until", "--format", "--by-source", "--input-format":
                throw scanner.fail("\(name) is not a batch option: the manifest gives each account its zone (tz) and kind; "
                    + "to look at one account's days, run stepimport apple or hc on its file")
            default:
                throw scanner.fail("unknown option '\(name)'")
            }
        }
        options.post = try post.checked(scanner)
        if let first = journalOnly.first, !options.keepsJournal {
            throw scanner.fail("\(first) goes with --post (the journal records what was posted; --plan and --dry-run post nothing)")
        }
        guard let manifest = paths.first else {
            throw scanner.fail("missing the manifest (a CSV file with the columns account, file, kind, token_file or token_env, tz)")
        }
        guard paths.count == 1 else {
            throw scanner.fail("one manifest at a time; got \(paths.count): \(paths.joined(separator: " "))")
        }
        if manifest == "-" {
            throw scanner.fail("the manifest must be a file: the exports and token files it names are found beside it")
        }
        return .batch(manifest: manifest, options: options)
    }
}
