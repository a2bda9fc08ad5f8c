import HealthDays
import Testing
@testable import BackendUpload

@Suite struct UploadPlanTests {
    private func day(_ text: String, _ steps: Int) -> DayTotal {
        DayTotal(date: LocalDate(text)!, steps: steps, source: "A", sources: [SourceTotal(source: "A", steps: steps)])
    }

    private func days(from start: String, count: Int, steps: Int = 1000) -> [DayTotal] {
        let first = LocalDate(start)!.daysSinceEpoch
        return (0..<count).map { offset in
            DayTotal(date: LocalDate(daysSinceEpoch: first + Int32(offset)), steps: steps, source: "A",
                     sources: [SourceTotal(source: "A", steps: steps)])
        }
    }

    @Test func theWindowIsNinetyDaysBackAndOneAheadBothInclusive() {
        let window = UploadRules.window(today: LocalDate("2026-03-10")!)
        #expect(window.lowerBound == LocalDate("2025-12-10")!)
        #expect(window.upperBound == LocalDate("2026-03-11")!)
    }

    @Test func daysOutsideTheWindowAreHeldAndCounted() {
        let today = LocalDate("2026-03-10")!
        let plan = UploadPlan(days: [day("2025-12-09", 1), day("2025-12-10", 2), day("2026-03-11", 3), day("2026-03-12", 4)],
                              today: today)
        #expect(plan.daysToSend.map(\.steps) == [2, 3])
        #expect(plan.held.map(\.reason) == [.tooOld, .inFuture])
    }

    @Test func aPlanKnowsWhenNoDayIsInsideTheServersWindow() {
        let today = LocalDate("2026-03-10")!
        let old = [day("2025-12-08", 1), day("2025-12-09", 2)]
        #expect(UploadPlan(days: old, today: today).nothingInWindow)
        #expect(UploadPlan(days: old + [day("2099-01-01", 3)], today: today).nothingInWindow, "ahead is outside too")
        #expect(!UploadPlan(days: old + [day("2025-12-10", 3)], today: today).nothingInWindow)
        #expect(!UploadPlan(days: [], today: today).nothingInWindow, "no days: nothing to say")
        // An invalid day inside the window is still inside it: the plan holds it for another reason.
        #expect(!UploadPlan(days: old + [day("2026-03-01", 100_001)], today: today).nothingInWindow)
        let sentAll = UploadPlan(days: old + [day("2026-03-01", 5)], today: today, sendAll: true)
        #expect(!sentAll.nothingInWindow)
        #expect(sentAll.daysSentOutsideWindow == 2)
        #expect(sentAll.daysWritable(in: sentAll.batches[0]) == 1)
        #expect(sentAll.serverWindow == UploadRules.window(today: today))
    }

    @Test func theActionOfADaySentOutsideTheWindowIsSkip() {
        let window = UploadRules.window(today: LocalDate("2026-03-10")!)
        let old = day("2025-12-09", 10), recent = day("2026-03-01", 10)
        let sending: Set = [old.date, recent.date]
        #expect(PlanAction(old, sending: sending, window: window, server: nil) == .skip)
        #expect(PlanAction(old, sending: [], window: window, server: nil) == .keep)
        #expect(PlanAction(recent, sending: sending, window: window, server: nil) == .write)
        #expect(PlanAction(recent, sending: sending, window: window, server: 9) == .overwrite(lower: false))
    }

    @Test func sendAllSendsEveryValidDayButNoneFromAClockSetAhead() {
        let plan = UploadPlan(days: [day("2020-01-01", 5), day("2026-03-11", 6), day("2099-01-01", 7),
                                     day("2025-01-01", 100_001), day("1999-12-31", 8)],
                              today: LocalDate("2026-03-10")!, sendAll: true)
        #expect(plan.daysToSend.map(\.steps) == [5, 6], "old days go, tomorrow goes")
        #expect(plan.window == nil)
        #expect(plan.held.map(\.day.steps) == [8, 100_001, 7])
        #expect(plan.held.last?.reason == .inFuture, "the server would skip it whatever is asked")
        guard case .invalid(let problem)? = plan.held.first?.reason else {
            Issue.record("a day before 2000 is held as invalid")
            return
        }
        #expect(problem.contains("before 2000-01-01"))
    }

    @Test func theRefusalRule() {
        let today = LocalDate("2026-03-10")!
        #expect(UploadRules.refusal(of: day("2026-03-11", 100_000), today: today) == nil)
        #expect(UploadRules.refusal(of: day("2026-03-12", 1), today: today) == .inTheFuture(today: today))
        #expect(UploadRules.refusal(of: day("2000-01-01", 1), today: today) == nil)
        #expect(UploadRules.refusal(of: day("1999-12-31", 1), today: today) == .beforeEarliestDay)
        #expect(UploadRules.refusal(of: day("2026-03-01", 100_001), today: today) == .overDailyMaximum)
        #expect(UploadRules.refusal(of: day("2026-03-01", -1), today: today) == .negativeSteps)
        // The last day a LocalDate holds: no overflow.
        #expect(UploadRules.refusal(of: DayTotal(date: LocalDate(daysSinceEpoch: .max), steps: 1, source: "A",
                                                 sources: [SourceTotal(source: "A", steps: 1)]),
                                    today: LocalDate(daysSinceEpoch: .max)) == nil)
    }

    @Test func aDayOverTheServersLimitIsHeldSoItCannotSinkItsBatch() throws {
        let plan = UploadPlan(days: [day("2026-03-01", 100_000), day("2026-03-02", 100_001), day("2026-03-03", 7)],
                              today: LocalDate("2026-03-10")!)
        #expect(plan.daysToSend.map(\.steps) == [100_000, 7])
        let held = try #require(plan.held.first)
        guard case .invalid(let problem) = held.reason else {
            Issue.record("expected .invalid, got \(held.reason)")
            return
        }
        #expect(problem.contains("100001"))
    }

    @Test func batchesHoldAtMostNinetyDaysInDateOrder() {
        let input = days(from: "2024-01-01", count: 200).shuffled()
        let plan = UploadPlan(days: input, today: LocalDate("2025-01-01")!, sendAll: true)
        #expect(plan.batches.map(\.count) == [90, 90, 20])
        let dates = plan.batches.flatMap { $0 }.map(\.date)
        #expect(dates == dates.sorted())
        #expect(plan.batches[1].first!.date == LocalDate("2024-03-31")!)
    }

    @Test func keepExistingLeavesOutWhatTheServerHas() {
        var plan = UploadPlan(days: days(from: "2026-03-01", count: 5), today: LocalDate("2026-03-10")!)
        plan.keepExisting([LocalDate("2026-03-02")!: 123, LocalDate("2026-03-04")!: 0])
        #expect(plan.daysToSend.map(\.date.description) == ["2026-03-01", "2026-03-03", "2026-03-05"])
        #expect(plan.held.map(\.reason) == [.keptExisting(serverSteps: 123), .keptExisting(serverSteps: 0)])
    }
}

@Suite struct RetryPolicyTests {
    @Test func backoffDoublesAndStaysWithinTheCeiling() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: 0.5, maxDelay: 8)
        #expect(policy.delay(afterAttempt: 1, retryAfter: nil, random: 0) == 0.25)
        #expect(policy.delay(afterAttempt: 1, retryAfter: nil, random: 0.999_999) < 0.5)
        #expect(policy.delay(afterAttempt: 3, retryAfter: nil, random: 0) == 1)
        #expect(policy.delay(afterAttempt: 9, retryAfter: nil, random: 0.999_999) <= 8)
        #expect(policy.delay(afterAttempt: 60, retryAfter: nil, random: 0.5) <= 8)
    }

    @Test func retryAfterIsHonouredButBounded() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: 0.5, maxDelay: 30)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 3, random: 0) == 3)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 3600, random: 0) == 30)
    }

    @Test func atLeastOneAttempt() {
        #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
    }
}
