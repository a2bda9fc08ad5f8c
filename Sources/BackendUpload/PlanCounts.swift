/// How many days a post would write, overwrite, leave the same or keep.
public struct PlanCounts: Sendable, Equatable {
    public var write = 0
    public var overwrite = 0
    public var same = 0
    public var keep = 0
    /// Sent with `--send-all` and skipped by the server: older than its window.
    public var skip = 0

    public mutating func add(_ action: PlanAction) {
        switch action {
        case .keep: keep += 1
        case .same: same += 1
        case .overwrite: overwrite += 1
        case .write: write += 1
        case .skip: skip += 1
        }
    }

    /// The counts for a prepared upload (what `--plan` shows).
    public init(_ prepared: PreparedUpload) {
        let sending = Set(prepared.plan.daysToSend.map(\.date))
        for day in prepared.checked.daysToSend {
            add(PlanAction(day, sending: sending, window: prepared.checked.serverWindow, server: prepared.serverDays[day.date]))
        }
    }

    public init() {}
}
