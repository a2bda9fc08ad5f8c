import HealthDays
import Foundation

/// What every post does before its first `POST`: check the days against the server's rules,
/// read the server's days when they are needed (`--plan`, `--keep-existing`) and leave out the
/// ones to keep. `stepimport apple|hc --post` and every account of `stepimport batch` go
/// through here, so the two cannot drift apart.
public struct PreparedUpload: Sendable {
    /// The trainee's date today, which placed the server's window.
    public let today: LocalDate
    /// The plan after the rules, before `--keep-existing` took anything out.
    public let checked: UploadPlan
    /// What will be sent.
    public let plan: UploadPlan
    /// The server's days over the range to send; empty unless they were read.
    public let serverDays: [LocalDate: Int]
    /// The report, filled in with what the plan decided; no request counted yet.
    public let report: UploadReport

    /// Checks `days` for a trainee whose date today is `today`.
    ///
    /// - Parameter readServer: read the server's days even without `keepExisting` (for `--plan`).
    public static func prepare(days: [DayTotal], today: LocalDate, sendAll: Bool, keepExisting: Bool,
                               readServer: Bool, uploader: Uploader) throws(UploadError) -> PreparedUpload {
        let checked = UploadPlan(days: days, today: today, sendAll: sendAll)
        var plan = checked
        var serverDays: [LocalDate: Int] = [:]
        let toSend = checked.daysToSend
        if readServer || keepExisting, let first = toSend.first, let last = toSend.last {
            serverDays = try uploader.serverDays(from: first.date, to: last.date)
        }
        if keepExisting {
            plan.keepExisting(serverDays)
        }
        var report = UploadReport()
        report.record(plan, parsed: days.count)
        return PreparedUpload(today: today, checked: checked, plan: plan, serverDays: serverDays, report: report)
    }
}

extension UploadRules {
    /// The date it is now in `zone`: the `today` the server's window is counted from.
    public static func today(in zone: TimeZone, at now: Date = Date()) -> LocalDate {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down)) + Int64(zone.secondsFromGMT(for: now))
        return LocalDate(daysSinceEpoch: Int32((seconds - (seconds < 0 ? 86_399 : 0)) / 86_400))
    }
}
