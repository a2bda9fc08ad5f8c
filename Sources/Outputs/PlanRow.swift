import BackendUpload
import HealthDays

/// One day of the `--plan` view: the new value, the server's, and what a post would do.
struct PlanRow {
    let date: LocalDate
    let local: Int
    /// The server's value; nil when it has none.
    let server: Int?
    /// nil for a day the checks hold (`reason` says why).
    let action: PlanAction?
    let reason: String?

    /// The plan's rows in date order, with the counts of the days the checks let through.
    static func rows(_ prepared: PreparedUpload) -> (rows: [PlanRow], counts: PlanCounts) {
        let checked = prepared.checked
        let serverDays = prepared.serverDays
        let sending = Set(prepared.plan.daysToSend.map(\.date))
        var rows: [PlanRow] = []
        var counts = PlanCounts()
        for day in checked.daysToSend {
            let action = PlanAction(day, sending: sending, window: checked.serverWindow, server: serverDays[day.date])
            counts.add(action)
            rows.append(PlanRow(date: day.date, local: day.steps, server: serverDays[day.date], action: action, reason: nil))
        }
        for held in checked.held {
            if case .invalid(let problem) = held.reason {
                rows.append(PlanRow(date: held.day.date, local: held.day.steps, server: serverDays[held.day.date], action: nil,
                                    reason: problem))
            }
        }
        rows.sort { $0.date < $1.date }
        return (rows, counts)
    }

    /// The days the checks hold outside the server's window (too old, or ahead), which the plan
    /// counts but does not list.
    static func outsideWindow(_ prepared: PreparedUpload) -> Int {
        prepared.checked.held { $0 == .tooOld || $0 == .inFuture }.count
    }
}
