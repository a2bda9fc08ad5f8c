import HealthDays
import Outputs
import Testing

/// The sinks: bytes in the order written, whatever the size of each write.
@Suite struct OutputSinkTests {
    @Test func memoryKeepsTheBytesInOrder() throws {
        let sink = MemorySink()
        try sink.write("été,")
        try sink.write(String(repeating: "x", count: StandardOutputSink.flushSize + 1))
        try sink.write("\n")
        try sink.finish()
        #expect(sink.isFinished)
        #expect(sink.bytes.count == "été,".utf8.count + StandardOutputSink.flushSize + 2)
        #expect(Array(sink.bytes.prefix(6)) == Array("été,".utf8))
        #expect(sink.bytes.last == UInt8(ascii: "\n"))
    }

    /// Many days written row by row are the same bytes as the body built whole.
    @Test func rowsWrittenAsTheyGoMakeTheWholeOutput() throws {
        let days = (0..<5000).map { index in
            DayTotal(date: LocalDate(daysSinceEpoch: Int32(19_000 + index)), steps: index, source: "iPhone",
                     sources: [SourceTotal(source: "iPhone", steps: index)])
        }
        let sink = MemorySink()
        try #require(OutputFormat.csv.textWriter).writeDayTotals(days, DayLayout(bySource: false, zoneDescription: ""), to: sink)
        let expected = "date,steps,source\n" + days.map { "\($0.date),\($0.steps),iPhone\n" }.joined()
        #expect(sink.text == expected)
    }
}
