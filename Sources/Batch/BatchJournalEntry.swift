import HealthDays
import Foundation
import StreamingText

/// One account's outcome, as one line of the batch journal.
///
/// The line is JSON with its keys in a fixed order:
/// `{"account":"a","status":"done","at":"2026-03-10T08:00:00Z","daysParsed":1,"daysSent":1,"daysWritten":1,"skipped":0}`,
/// plus `"output":"..."` where its days were written (`batch --output`) and `"error":"..."` when
/// the account failed. `at` is ISO 8601 in UTC, to the second.
public struct BatchJournalEntry: Codable, Equatable, Sendable {
    public enum Status: String, Codable, Equatable, Sendable {
        /// Every day meant for the server was written: a re-run skips the account.
        case done
        /// No day lay inside the server's window, so nothing was written: a re-run skips the
        /// account too (its days only grow older; `--redo` takes it again).
        case nothingInWindow = "nothing-in-window"
        /// The account stopped short: a re-run tries it again.
        case failed
    }

    /// The account's label in the manifest.
    public let account: String
    public let status: Status
    /// When the account finished.
    public let at: Date
    /// Days with steps the export gave.
    public let daysParsed: Int
    /// Days in the requests the server answered.
    public let daysSent: Int
    /// Days the server said it wrote.
    public let daysWritten: Int
    /// Days not sent (outside the server's window, invalid, or kept as they were).
    public let skipped: Int
    /// Where the account's days were written (`batch --output`); nil when they were not. A run
    /// with `--output` counts an account done only when its days went where it writes them.
    public let output: String?
    /// Why the account failed; never a token.
    public let error: String?

    public init(account: String, status: Status, at: Date, daysParsed: Int = 0, daysSent: Int = 0,
                daysWritten: Int = 0, skipped: Int = 0, output: String? = nil, error: String? = nil) {
        self.account = account
        self.status = status
        // The journal keeps whole seconds; rounding here makes an entry equal to itself read back.
        self.at = Date(timeIntervalSince1970: (at.timeIntervalSince1970).rounded(.down))
        self.daysParsed = daysParsed
        self.daysSent = daysSent
        self.daysWritten = daysWritten
        self.skipped = skipped
        self.output = output
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case account, status, at, daysParsed, daysSent, daysWritten, skipped, output, error
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .at)
        guard let at = try? Date(text, strategy: .iso8601) else {
            throw DecodingError.dataCorruptedError(forKey: .at, in: container,
                                                   debugDescription: "\(text) is not an ISO 8601 time")
        }
        self.init(account: try container.decode(String.self, forKey: .account),
                  status: try container.decode(Status.self, forKey: .status),
                  at: at,
                  daysParsed: try container.decode(Int.self, forKey: .daysParsed),
                  daysSent: try container.decode(Int.self, forKey: .daysSent),
                  daysWritten: try container.decode(Int.self, forKey: .daysWritten),
                  skipped: try container.decode(Int.self, forKey: .skipped),
                  output: try container.decodeIfPresent(String.self, forKey: .output),
                  error: try container.decodeIfPresent(String.self, forKey: .error))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account, forKey: .account)
        try container.encode(status, forKey: .status)
        try container.encode(at.formatted(.iso8601), forKey: .at)
        try container.encode(daysParsed, forKey: .daysParsed)
        try container.encode(daysSent, forKey: .daysSent)
        try container.encode(daysWritten, forKey: .daysWritten)
        try container.encode(skipped, forKey: .skipped)
        try container.encodeIfPresent(output, forKey: .output)
        try container.encodeIfPresent(error, forKey: .error)
    }

    /// The journal line, newline included, keys in the documented order.
    public var jsonLine: String {
        var line = "{\"account\":\(JSONString.literal(account)),\"status\":\"\(status.rawValue)\","
            + "\"at\":\"\(at.formatted(.iso8601))\",\"daysParsed\":\(daysParsed),\"daysSent\":\(daysSent),"
            + "\"daysWritten\":\(daysWritten),\"skipped\":\(skipped)"
        if let output {
            line += ",\"output\":\(JSONString.literal(output))"
        }
        if let error {
            line += ",\"error\":\(JSONString.literal(error))"
        }
        return line + "}\n"
    }
}

extension BatchJournalEntry.Status {
    /// Whether a re-run skips the account (without `--redo`).
    public var isFinal: Bool {
        switch self {
        case .done, .nothingInWindow: return true
        case .failed: return false
        }
    }
}
