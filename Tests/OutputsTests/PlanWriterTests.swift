@testable import BackendUpload
import Foundation
import HealthDays
import Outputs
import Testing

/// The `--plan` and `--dry-run` views in every format.
@Suite struct PlanWriterTests {
    static let today = LocalDate("2024-03-20")!
    static let days = [DayTotal(date: LocalDate("2024-03-15")!, steps: 8123, source: "iPhone", sources: []),
                       DayTotal(date: LocalDate("2024-03-16")!, steps: 500, source: "iPhone", sources: []),
                       DayTotal(date: LocalDate("2024-03-17")!, steps: -3, source: "iPhone", sources: [])]
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    /// The server has the 15th as it is here and the 16th lower; the 17th is held as invalid.
    static var prepared: PreparedUpload {
        let plan = UploadPlan(days: days, today: today)
        return PreparedUpload(today: today, checked: plan, plan: plan,
                              serverDays: [LocalDate("2024-03-15")!: 8123, LocalDate("2024-03-16")!: 400], report: UploadReport())
    }

    static func written(_ format: OutputFormat) throws -> String {
        let sink = MemorySink()
        try #require(format.textWriter).writePlan(prepared, zone: zone, to: sink)
        return sink.text
    }

    @Test func csv() throws {
        let reason = try #require(UploadPlan(days: Self.days, today: Self.today).held.first).reason
        guard case .invalid(let problem) = reason else { Issue.record("the negative day is held as invalid"); return }
        #expect(try Self.written(.csv) == """
            date,local_steps,server_steps,action,reason
            2024-03-15,8123,8123,same,
            2024-03-16,500,400,overwrite,
            2024-03-17,-3,,not-sent,\(csvField(problem))

            """)
    }

    @Test func json() throws {
        let window = UploadRules.window(today: Self.today)
        let text = try Self.written(.json)
        #expect(text.hasPrefix(#"{"window":{"from":"\#(window.lowerBound)","to":"\#(window.upperBound)","today":"2024-03-20","zone":"Europe/Berlin"},"#
            + #""days":[{"date":"2024-03-15","local":8123,"server":8123,"action":"same"},"#
            + #"{"date":"2024-03-16","local":500,"server":400,"action":"overwrite"},"#
            + #"{"date":"2024-03-17","local":-3,"server":null,"action":"not-sent","reason":"#))
        #expect(text.hasSuffix(#"],"counts":{"write":0,"overwrite":1,"same":1,"keep":0,"skip":0,"outsideWindow":0}}"# + "\n"))
    }

    @Test func table() throws {
        let text = try Self.written(.table)
        #expect(text.hasPrefix("Date        Server   New  Action\n2024-03-15    8123  8123  same\n"))
        #expect(text.contains("\n0 to write, 1 to overwrite, 1 the same.\nWindow: "))
        #expect(text.hasSuffix(", today being 2024-03-20 in Europe/Berlin. Nothing was written.\n"))
    }

    @Test func batches() throws {
        let plan = UploadPlan(days: Array(Self.days.prefix(2)), today: Self.today)
        let csv = MemorySink(), json = MemorySink(), table = MemorySink()
        try #require(OutputFormat.csv.textWriter).writeBatches(plan, to: csv)
        try #require(OutputFormat.json.textWriter).writeBatches(plan, to: json)
        try #require(OutputFormat.table.textWriter).writeBatches(plan, to: table)
        #expect(csv.text == "request,date,steps\n1,2024-03-15,8123\n1,2024-03-16,500\n")
        #expect(json.text == DaysRequestBody.json(plan.batches[0]) + "\n")
        #expect(table.text == "request 1: 2 days, 2024-03-15 to 2024-03-16\n1 request, 2 days (--dry-run: nothing was sent)\n")
    }
}
