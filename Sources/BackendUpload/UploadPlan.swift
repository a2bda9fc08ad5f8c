import HealthDays

/// What will be sent, and what will not and why, decided before any request.
public struct UploadPlan: Sendable {
    /// A day that is not sent, with the reason.
    public struct Held: Sendable, Equatable {
        public let day: DayTotal
        public let reason: Reason
    }

    /// Why a day is not sent.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// It breaks the server's rules (more steps than allowed).
        case invalid(String)
        /// Older than the server's window: the server would skip it silently.
        case tooOld
        /// Further ahead than the server's window: the server would skip it silently.
        case inFuture
        /// The server already has a value for it and `--keep-existing` was given.
        case keptExisting(serverSteps: Int)

        public var description: String {
            switch self {
            case .invalid(let problem): return problem
            case .tooOld: return "older than the server's 90-day window"
            case .inFuture: return "more than one day in the future"
            case .keptExisting(let steps): return "the server already has \(steps) steps (--keep-existing)"
            }
        }
    }

    /// The days to send, in date order, cut into requests of at most 90 days.
    public private(set) var batches: [[DayTotal]]
    /// The days not sent.
    public private(set) var held: [Held]
    /// The window the days were checked against (nil with `--send-all`).
    public let window: ClosedRange<LocalDate>?
    /// The days the server keeps, whatever was asked: with `--send-all`, days sent from before it
    /// are skipped by the server (its contract says so).
    public let serverWindow: ClosedRange<LocalDate>
    /// Days given, with steps, and the first and last of them.
    public let daysGiven: Int
    public let firstDay: LocalDate?
    public let lastDay: LocalDate?
    /// Days given that lie inside the server's window, whatever became of them (sent, held as
    /// invalid, kept as the server has them).
    public let daysInWindow: Int

    /// Every day to send.
    public var daysToSend: [DayTotal] { batches.flatMap { $0 } }

    /// Checks and batches `days` for a trainee whose date today is `today`.
    ///
    /// With `sendAll`, days older than the server's window are sent anyway (the server will
    /// skip them: the report then shows fewer days written than sent); days more than one day
    /// ahead never are (the server skips them, and they come from a clock set ahead).
    public init(days: [DayTotal], today: LocalDate, sendAll: Bool = false) {
        let window = UploadRules.window(today: today)
        self.window = sendAll ? nil : window
        serverWindow = window
        let sorted = days.sorted(by: { $0.date < $1.date })
        daysGiven = days.count
        firstDay = sorted.first?.date
        lastDay = sorted.last?.date
        daysInWindow = days.filter { window.contains($0.date) }.count
        var send: [DayTotal] = []
        var held: [Held] = []
        for day in sorted {
            switch UploadRules.refusal(of: day, today: today) {
            case .inTheFuture?:
                // The server skips it whatever is asked: a device clock set ahead.
                held.append(Held(day: day, reason: .inFuture))
            case let refusal?:
                held.append(Held(day: day, reason: .invalid(refusal.words(for: day))))
            case nil where !sendAll && day.date < window.lowerBound:
                held.append(Held(day: day, reason: .tooOld))
            case nil:
                send.append(day)
            }
        }
        self.held = held
        batches = UploadPlan.batch(send)
    }

    /// Leaves out the days the server already has a value for (`--keep-existing`).
    public mutating func keepExisting(_ serverDays: [LocalDate: Int]) {
        var send: [DayTotal] = []
        for day in daysToSend {
            if let steps = serverDays[day.date] {
                held.append(Held(day: day, reason: .keptExisting(serverSteps: steps)))
            } else {
                send.append(day)
            }
        }
        batches = UploadPlan.batch(send)
    }

    /// The export has days and none inside the server's window: a post writes nothing.
    public var nothingInWindow: Bool { daysGiven > 0 && daysInWindow == 0 }

    /// Days to send (with `--send-all`) that the server will skip, being older than its window.
    public var daysSentOutsideWindow: Int { daysToSend.count - daysToSend.filter { serverWindow.contains($0.date) }.count }

    /// How many days of `batch` the server will write: those inside its window.
    public func daysWritable(in batch: [DayTotal]) -> Int {
        batch.filter { serverWindow.contains($0.date) }.count
    }

    /// The days not sent for this kind of reason.
    public func held(_ matching: (Reason) -> Bool) -> [Held] {
        held.filter { matching($0.reason) }
    }

    private static func batch(_ days: [DayTotal]) -> [[DayTotal]] {
        stride(from: 0, to: days.count, by: UploadRules.maxDaysPerRequest).map {
            Array(days[$0..<min(days.count, $0 + UploadRules.maxDaysPerRequest)])
        }
    }
}
