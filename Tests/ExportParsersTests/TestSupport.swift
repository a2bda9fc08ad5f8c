import Foundation
import Testing
@testable import ExportParsers

/// Collects what a reader hands over, for assertions.
final class SampleCollector: StepSink {
    struct Entry: Equatable {
        let source: String
        let sample: StepSample
    }
    private(set) var entries: [Entry] = []

    struct DayEntry: Equatable {
        let date: LocalDate
        let steps: Double
        let source: String
    }
    private(set) var dayTotals: [DayEntry] = []

    func add(_ sample: StepSample, sourceUTF8: UnsafeRawBufferPointer) {
        entries.append(Entry(source: String(decoding: sourceUTF8, as: UTF8.self), sample: sample))
    }

    func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        dayTotals.append(DayEntry(date: date, steps: steps, source: String(decoding: sourceUTF8, as: UTF8.self)))
    }
}

/// Paths shared by the tests.
enum TestPaths {
    /// The package root, found from this file's place in it.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared/fixtures`, beside the checkout (CI lays it there too). A clone alone has none:
    /// tests that read it carry `.needsSharedFixtures`.
    static let sharedFixtures = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    static var sharedFixturesPresent: Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: sharedFixtures.path, isDirectory: &isFolder) && isFolder.boolValue
    }
    static let expected = packageRoot.appendingPathComponent("Tests/Fixtures/expected")
}

extension Trait where Self == ConditionTrait {
    /// For a test that reads `../shared/fixtures`: it runs when the folder is there, and is
    /// skipped, with this reason in the output, in a clone that has none beside it.
    static var needsSharedFixtures: Self {
        .enabled(if: TestPaths.sharedFixturesPresent, "needs ../shared/fixtures (real exports), absent in this clone")
    }
}

/// Milliseconds since 1970 for a UTC wall time, for building samples by hand.
func utcMs(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
    let days = Int64(LocalDate(year: year, month: month, day: day)!.daysSinceEpoch)
    return (days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000
}

func date(_ text: String) -> LocalDate {
    LocalDate(text)!
}

extension Array where Element == DayTotal {
    /// `date=steps` pairs, for compact assertions.
    var pairs: [String] { map { "\($0.date)=\($0.steps)" } }
}
