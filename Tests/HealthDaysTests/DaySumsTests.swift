import Testing
@testable import HealthDays

@Suite struct DaySumsTests {
    /// Every sum comes back under its own day and source: days on both sides of block edges and
    /// of 1970-01-01 (negative), two sources in one block, and a sum of zero, which still counts.
    @Test func everySumComesBackUnderItsDayAndSource() {
        var sums = DaySums()
        let days: [Int32] = [-17, -9, -8, -1, 0, 7, 8, 15, 16, 20_000, 20_007, 20_008, .max, .min]
        var expected: [String: Double] = [:]
        for (index, day) in days.enumerated() {
            let steps = Double(index + 1)
            sums.add(steps, day: day, source: 0)
            sums.add(steps * 1_000, day: day, source: 3)
            sums.add(0.5, day: day, source: 0)
            expected["\(day) 0"] = steps + 0.5
            expected["\(day) 3"] = steps * 1_000
        }
        sums.add(0, day: 42, source: 1)
        expected["42 1"] = 0
        var got: [String: Double] = [:]
        sums.forEach { day, source, sum in
            #expect(got["\(day) \(source)"] == nil)
            got["\(day) \(source)"] = sum
        }
        #expect(got == expected)
        #expect(sums.count == expected.count)
    }
}
