import StreamingText

/// One CSV of a Samsung Health "Download personal data" export, told by its first line, never by
/// its name (people rename them: `Step Daily Trend.csv`).
///
/// Every such CSV starts with a metadata line, `<type>,<version>,<n>`
/// (`com.samsung.shealth.step_daily_trend,6307003,6`), in UTF-8 with a byte-order mark, or in
/// UTF-16 (either byte order, with or without a mark), which others report. docs/samsung.md.
public struct SamsungHealthFile: Equatable, Sendable {
    /// What a file holds, for the reader: which steps, if any.
    public enum Kind: Equatable, Sendable {
        /// `step_daily_trend`: a day total per source, the combined one (-2) among them.
        case dayTrend
        /// `tracker.pedometer_step_count`: one-minute bins per device.
        case minuteBins
        /// `tracker.pedometer_day_summary`, `activity.day_summary`: the same days' steps again,
        /// never read (they would be added to the others).
        case sameStepsAgain
        /// Any other type (heart rate, sleep, exercise, weight, ...): no steps read from it.
        case other
    }

    /// How the text is written.
    public enum Encoding: Equatable, Sendable {
        case utf8
        case utf16(UTF16Transcoder.ByteOrder)
    }

    /// The type as the metadata line names it, without `com.samsung.shealth.` or
    /// `com.samsung.health.` (`step_daily_trend`, `tracker.pedometer_step_count`).
    public let type: String
    public let kind: Kind
    public let encoding: Encoding

    /// The file whose first bytes are `head`, or nil when its first line is not a Samsung Health
    /// metadata line (the whole line must be within `head`).
    public init?(head: [UInt8]) {
        if let order = UTF16Transcoder.byteOrder(of: head) {
            var text: [UInt8] = []
            let transcoder = UTF16Transcoder(byteOrder: order)
            head.withUnsafeBytes { bytes in
                transcoder.feed(bytes) { text.append(contentsOf: $0) }
            }
            guard let type = Self.metadataType(text) else { return nil }
            self.init(type: type, encoding: .utf16(order))
        } else {
            guard let type = Self.metadataType(head) else { return nil }
            self.init(type: type, encoding: .utf8)
        }
    }

    init(type: String, encoding: Encoding) {
        self.type = type
        self.encoding = encoding
        switch type {
        case "step_daily_trend": kind = .dayTrend
        case "tracker.pedometer_step_count": kind = .minuteBins
        case "tracker.pedometer_day_summary", "activity.day_summary": kind = .sameStepsAgain
        default: kind = .other
        }
    }

    /// The two prefixes of a type in the metadata line (and of some column names).
    static let typePrefixes: [[UInt8]] = [Array("com.samsung.shealth.".utf8), Array("com.samsung.health.".utf8)]

    /// The type a UTF-8 first line names, after a byte-order mark: a prefix, a type of lower-case
    /// letters, digits, `_` and `.`, then two whole numbers, each after a comma, then (as a
    /// spreadsheet pads a line to the widest row) only commas and spaces to the line's end.
    static func metadataType(_ text: [UInt8]) -> String? {
        var bytes = text[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let prefix = typePrefixes.first(where: { bytes.starts(with: $0) }) else { return nil }
        bytes = bytes.dropFirst(prefix.count)
        let type = bytes.prefix { isTypeByte($0) }
        guard !type.isEmpty, type.last != UInt8(ascii: ".") else { return nil }
        bytes = bytes.dropFirst(type.count)
        for _ in 0..<2 {
            guard bytes.first == UInt8(ascii: ",") else { return nil }
            let digits = bytes.dropFirst().prefix { $0 >= 0x30 && $0 <= 0x39 }
            guard !digits.isEmpty else { return nil }
            bytes = bytes.dropFirst(1 + digits.count)
        }
        let rest = bytes.prefix { $0 == UInt8(ascii: ",") || $0 == 0x20 }
        bytes = bytes.dropFirst(rest.count)
        guard let end = bytes.first, end == 0x0A || end == 0x0D else { return nil }
        return String(decoding: type, as: UTF8.self)
    }

    private static func isTypeByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2E
    }
}
