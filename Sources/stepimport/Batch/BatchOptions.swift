import HTTPClient
import BackendUpload
import Batch
import Foundation
import HealthDays

/// What `stepimport batch` was asked to do.
struct BatchOptions {
    /// `--skip-invalid`, `--quiet` and `--no-progress`, as for one export; `--output` (`output`)
    /// and its `--format` (`format`, json, csv or sqlite once checked).
    var read = ReadOptions()
    /// `--post` and its options; nil to print each account's totals summary only.
    var post: PostOptions?
    /// Accounts processed at once (`--jobs`).
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// `--journal`; nil for the default (`journalPath`).
    var journal: String?
    /// `--redo`: ignore what the journal says is done.
    var redo = false
    var shard = BatchShard.all
    /// `--report`: the whole batch's report as JSON.
    var reportFile: String?

    /// The largest `--jobs`: every job holds one export's working set (about 40 MB).
    static let maxJobs = 64

    /// What the library's batch does with each account. `apiURL` is the checked URL, nil when the
    /// server is not needed (no --post, or --dry-run). With several jobs, the jobs already keep
    /// the cores busy: each Apple export gets one parse worker beside its reader thread, which
    /// still selects records (a quarter of the CPU of libxml2's whole parse, in the same memory).
    func settings(apiURL: String?, proxy: HTTPProxy? = nil, tuning: Tuning) -> BatchSettings {
        var settings = BatchSettings(invalidRecords: read.skipInvalid ? .skip : .fail,
                                     parseWorkers: tuning.parseWorkers ?? (jobs > 1 ? 1 : nil), pieceSize: tuning.pieceSize)
        settings.excludedSources = read.excludedSources
        settings.excludeManual = read.excludeManual
        settings.strictXML = read.strictXML
        if let post {
            if let apiURL, !post.dryRun {
                var upload = BatchSettings.Upload(apiURL: apiURL, caCertificateFile: post.caCertificateFile,
                                                  retries: post.retries, timeoutSeconds: post.timeoutSeconds,
                                                  sendAll: post.sendAll, keepExisting: post.keepExisting)
                upload.proxy = proxy
                settings.action = post.plan ? .plan(upload) : .post(upload)
            } else {
                settings.action = .dryRun(sendAll: post.sendAll)
            }
        }
        return settings
    }

    /// Whether the server is read or written (`--post`, `--plan`), so every account needs its token.
    var needsTokens: Bool {
        guard let post else { return false }
        return !post.dryRun
    }

    /// Whether this run posts for real.
    var posts: Bool {
        guard let post else { return false }
        return !post.plan && !post.dryRun
    }

    /// Whether this run keeps a journal: it posts for real, or writes days (`--output`).
    var keepsJournal: Bool {
        posts || read.output != nil
    }

    /// Where the journal is: `--journal`; else, for a post, beside the manifest; else beside the
    /// output (so that writing the same manifest elsewhere starts afresh).
    func journalPath(manifest: String) -> String {
        if let journal { return journal }
        if !posts, let output = read.output {
            return BatchJournal.defaultPath(forOutput: output, isFolder: read.format != .sqlite, shard: shard)
        }
        return BatchJournal.defaultPath(forManifest: manifest, shard: shard)
    }
}
