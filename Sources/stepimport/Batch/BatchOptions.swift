import BackendUpload
import Batch
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
