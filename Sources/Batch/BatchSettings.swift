import HTTPClient
import ExportParsers
import HealthDays

/// What a batch does with every account: how to read its export, then what to do with the days.
public struct BatchSettings: Sendable {
    /// What to do with an account's days once they are read.
    public enum Action: Sendable {
        /// Nothing: the account's totals are only summarised.
        case summarize
        /// Count the requests a post would make; the server is neither read nor written, and no
        /// token is read.
        case dryRun(sendAll: Bool)
        /// Read the server's days and count what a post would write, overwrite, leave or keep.
        case plan(Upload)
        /// Post the days.
        case post(Upload)
    }

    /// Where and how to reach the server, and what to send, for `plan` and `post`.
    public struct Upload: Sendable {
        /// The checked API URL.
        public var apiURL: String
        /// A private CA's certificate file; nil for the system's CA store.
        public var caCertificateFile: String?
        /// Further attempts after a request that failed for a reason worth retrying.
        public var retries: Int
        public var timeoutSeconds: Int
        /// Send every day, not only those in the server's window.
        public var sendAll: Bool
        /// Leave the days the server already has as they are.
        public var keepExisting: Bool
        /// The proxy https requests tunnel through; nil for none.
        public var proxy: HTTPProxy? = nil

        public init(apiURL: String, caCertificateFile: String?, retries: Int, timeoutSeconds: Int, sendAll: Bool,
                    keepExisting: Bool) {
            self.apiURL = apiURL
            self.caCertificateFile = caCertificateFile
            self.retries = retries
            self.timeoutSeconds = timeoutSeconds
            self.sendAll = sendAll
            self.keepExisting = keepExisting
        }
    }

    /// Skip invalid step records (and count them) or fail the account on the first.
    public var invalidRecords: InvalidRecordPolicy
    /// Apple Health parse threads per export; nil for the importer's default.
    public var parseWorkers: Int?
    /// Bytes of Apple XML per piece; nil for the default.
    public var pieceSize: Int?
    public var action: Action
    /// Sources left out of every account before the day rule (`--exclude-source`); each account's
    /// manifest row may add more.
    public var excludedSources: [SourcePattern] = []
    /// `--exclude-manual`: records typed in by hand are left out for every account.
    public var excludeManual = false
    /// Hand libxml2 every record of an Apple export (`--strict-xml`, `ImportOptions.strictXML`).
    public var strictXML = false

    public init(invalidRecords: InvalidRecordPolicy = .fail, parseWorkers: Int? = nil, pieceSize: Int? = nil,
                action: Action = .summarize) {
        self.invalidRecords = invalidRecords
        self.parseWorkers = parseWorkers
        self.pieceSize = pieceSize
        self.action = action
    }

    /// How the importer reads each export. Kept as separate values rather than an `ImportOptions`,
    /// whose progress callback could not be shared between threads.
    public var importOptions: ImportOptions {
        ImportOptions(invalidRecords: invalidRecords, parseWorkers: parseWorkers, pieceSize: pieceSize,
                      strictXML: strictXML)
    }
}

extension BatchSettings.Action {
    /// Whether the days go on to the uploader's checks (dry run, plan or post).
    var sendsDays: Bool {
        if case .summarize = self { return false }
        return true
    }

    /// The server's settings when it is read or written (plan, post).
    var upload: BatchSettings.Upload? {
        switch self {
        case .plan(let upload), .post(let upload): return upload
        case .summarize, .dryRun: return nil
        }
    }

    /// Whether every day is sent, not only those in the server's window.
    var sendsAll: Bool {
        switch self {
        case .summarize: return false
        case .dryRun(let sendAll): return sendAll
        case .plan(let upload), .post(let upload): return upload.sendAll
        }
    }

    /// Whether the server's days are read to count what a post would do, and nothing is written.
    var readsServer: Bool {
        if case .plan = self { return true }
        return false
    }
}
