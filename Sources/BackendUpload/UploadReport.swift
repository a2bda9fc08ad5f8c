import HealthDays
import Foundation

/// What a `--post` run did, for stderr and for `--report FILE` (JSON).
public struct UploadReport: Codable, Sendable, Equatable {
    /// A day that was not sent, and why.
    public struct HeldDay: Codable, Sendable, Equatable {
        public let date: String
        public let steps: Int
        public let reason: String
    }

    /// One request that was sent.
    public struct Batch: Codable, Sendable, Equatable {
        public let first: String
        public let last: String
        public let days: Int
        /// The `days` count of the server's 201; nil when the batch was never answered.
        public var written: Int?
        public var attempts: Int
    }

    /// How a run ended; its raw value is the report's `outcome`.
    public enum Outcome: String, Codable, Sendable, Equatable {
        /// Every day meant to be written was.
        case complete
        /// The server wrote fewer days than were sent.
        case incomplete
        /// An error stopped the run.
        case failed
        /// Ctrl-C stopped it between requests.
        case interrupted
        /// `--dry-run`: the batches were shown, nothing sent.
        case dryRun = "dry-run"
        /// `--plan`: the server was read and each day's action shown, nothing sent.
        case plan
        /// The export has days, none inside the server's window: nothing was (or, with
        /// `--send-all`, could be) written.
        case nothingInWindow = "nothing-in-window"
    }

    public var outcome = Outcome.complete
    /// The error that stopped the run, if one did, in the caller's words (see `failure`).
    public var error: String?
    /// The error that stopped the run, as the uploader recorded it; not part of the JSON.
    public var failure: UploadError?
    /// Days with steps that the export gave.
    public var daysParsed = 0
    /// Days meant to be sent after the checks.
    public var daysToSend = 0
    /// Days in the requests the server answered.
    public var daysSent = 0
    /// The sum of the `days` counts of the server's answers.
    public var daysWritten = 0
    public var heldInvalid: [HeldDay] = []
    public var heldTooOld = 0
    public var heldInFuture = 0
    public var heldKeptExisting = 0
    /// Days sent with `--send-all` that are older than the server's window, which it skips.
    public var sentOutsideWindow = 0
    public var batches: [Batch] = []
    /// Batches that needed more than one attempt.
    public var batchesRetried: Int { batches.filter { $0.attempts > 1 }.count }
    /// The server's window: the days it keeps (with `--send-all`, older days are sent and skipped).
    public var windowFrom: String?
    public var windowTo: String?

    enum CodingKeys: String, CodingKey {
        case outcome, error, daysParsed, daysToSend, daysSent, daysWritten, heldInvalid, heldTooOld, heldInFuture
        case heldKeptExisting, sentOutsideWindow, batches, batchesRetried, windowFrom, windowTo
    }

    public init() {}

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        outcome = try container.decode(Outcome.self, forKey: .outcome)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        daysParsed = try container.decode(Int.self, forKey: .daysParsed)
        daysToSend = try container.decode(Int.self, forKey: .daysToSend)
        daysSent = try container.decode(Int.self, forKey: .daysSent)
        daysWritten = try container.decode(Int.self, forKey: .daysWritten)
        heldInvalid = try container.decode([HeldDay].self, forKey: .heldInvalid)
        heldTooOld = try container.decode(Int.self, forKey: .heldTooOld)
        heldInFuture = try container.decode(Int.self, forKey: .heldInFuture)
        heldKeptExisting = try container.decode(Int.self, forKey: .heldKeptExisting)
        sentOutsideWindow = try container.decodeIfPresent(Int.self, forKey: .sentOutsideWindow) ?? 0
        batches = try container.decode([Batch].self, forKey: .batches)
        windowFrom = try container.decodeIfPresent(String.self, forKey: .windowFrom)
        windowTo = try container.decodeIfPresent(String.self, forKey: .windowTo)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outcome, forKey: .outcome)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encode(daysParsed, forKey: .daysParsed)
        try container.encode(daysToSend, forKey: .daysToSend)
        try container.encode(daysSent, forKey: .daysSent)
        try container.encode(daysWritten, forKey: .daysWritten)
        try container.encode(heldInvalid, forKey: .heldInvalid)
        try container.encode(heldTooOld, forKey: .heldTooOld)
        try container.encode(heldInFuture, forKey: .heldInFuture)
        try container.encode(heldKeptExisting, forKey: .heldKeptExisting)
        try container.encode(sentOutsideWindow, forKey: .sentOutsideWindow)
        try container.encode(batches, forKey: .batches)
        try container.encode(batchesRetried, forKey: .batchesRetried)
        try container.encodeIfPresent(windowFrom, forKey: .windowFrom)
        try container.encodeIfPresent(windowTo, forKey: .windowTo)
    }

    /// Fills in what the plan decided before any request.
    public mutating func record(_ plan: UploadPlan, parsed: Int) {
        daysParsed = parsed
        daysToSend = plan.daysToSend.count
        heldInvalid = plan.held { if case .invalid = $0 { return true } else { return false } }.map {
            HeldDay(date: $0.day.date.description, steps: $0.day.steps, reason: $0.reason.description)
        }
        heldTooOld = plan.held { $0 == .tooOld }.count
        heldInFuture = plan.held { $0 == .inFuture }.count
        heldKeptExisting = plan.held { if case .keptExisting = $0 { return true } else { return false } }.count
        sentOutsideWindow = plan.daysSentOutsideWindow
        windowFrom = plan.serverWindow.lowerBound.description
        windowTo = plan.serverWindow.upperBound.description
        batches = plan.batches.map {
            Batch(first: $0.first!.date.description, last: $0.last!.date.description, days: $0.count, written: nil, attempts: 0)
        }
    }

    /// The report as pretty-printed JSON.
    public var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}
