import Foundation
import HealthDays
import Testing

/// Collects what a reader hands over, for assertions.
public final class SampleCollector: RecordSink {
    public struct Entry: Equatable, Sendable {
        public let source: String
        public let sample: HealthSample

        public init(source: String, sample: HealthSample) {
            self.source = source
            self.sample = sample
        }
    }
    public private(set) var entries: [Entry] = []

    public struct DayEntry: Equatable, Sendable {
        public let date: LocalDate
        public let steps: Double
        public let source: String

        public init(date: LocalDate, steps: Double, source: String) {
            self.date = date
            self.steps = steps
            self.source = source
        }
    }
    public private(set) var dayTotals: [DayEntry] = []

    public init() {}

    public func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        entries.append(Entry(source: String(decoding: sourceUTF8, as: UTF8.self), sample: sample))
    }

    public func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        dayTotals.append(DayEntry(date: date, steps: steps, source: String(decoding: sourceUTF8, as: UTF8.self)))
    }
}

/// Paths shared by the tests.
public enum TestPaths {
    /// The package root, found from this file's place in it.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared/fixtures`, beside the checkout (CI lays it there too). A clone alone has none:
    /// tests that read it carry `.needsSharedFixtures`.
    public static let sharedFixtures = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    public static var sharedFixturesPresent: Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: sharedFixtures.path, isDirectory: &isFolder) && isFolder.boolValue
    }
    public static let expected = packageRoot.appendingPathComponent("Tests/Fixtures/expected")
}

extension Trait where Self == ConditionTrait {
    /// For a test that reads `../shared/fixtures`: it runs when the folder is there, and is
    /// skipped, with this reason in the output, in a clone that has none beside it.
    public static var needsSharedFixtures: Self {
        .enabled(if: TestPaths.sharedFixturesPresent, "needs ../shared/fixtures (real exports), absent in this clone")
    }
}

/// Milliseconds since 1970 for a UTC wall time, for building samples by hand.
public func utcMs(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
    let days = Int64(LocalDate(year: year, month: month, day: day)!.daysSinceEpoch)
    return (days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000
}

public func date(_ text: String) -> LocalDate {
    LocalDate(text)!
}

extension Array where Element == DayTotal {
    /// `date=steps` pairs, for compact assertions.
    public var pairs: [String] { map { "\($0.date)=\($0.steps)" } }
}

extension ImportNote {
    /// The text of a `.fact` or `.detail` note; nil for the typed ones.
    public var factText: String? {
        switch self {
        case .fact(let text), .detail(let text): return text
        default: return nil
        }
    }
}

extension RecordParser {
    /// Feeds `bytes` in pieces of `chunk` bytes, then finishes: the input cut at every boundary a
    /// reader may meet.
    public func feedAll(_ bytes: [UInt8], chunk: Int) throws(ParseFailure) {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            let outcome = bytes[start..<end].withUnsafeBytes { piece in
                Result { () throws(ParseFailure) in try feed(piece) }
            }
            try outcome.get()
            start = end
        }
        try finish()
    }
}
