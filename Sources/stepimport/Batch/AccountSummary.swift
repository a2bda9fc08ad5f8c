import Batch
import HealthDays

/// How one finished account reads in a line.
enum AccountSummary {
    static func line(_ outcome: AccountOutcome, options: BatchOptions) -> String {
        summary(outcome, options: options) + (outcome.output.map { "; days in \($0.escapingControlCharacters())" } ?? "")
    }

    private static func summary(_ outcome: AccountOutcome, options: BatchOptions) -> String {
        var read = "\(outcome.kind ?? "?"), \(Plural.count(outcome.daysParsed, "day")) with steps"
        if !outcome.excludedSources.isEmpty {
            read += " (left out: " + outcome.excludedSources.map {
                "\(Plural.count($0.records, "record")) of \($0.source.escapingControlCharacters())"
            }.joined(separator: ", ") + ")"
        }
        let byHand = outcome.handEntries.reduce(0) { $0 + $1.records }
        if byHand > 0 && options.read.excludeManual {
            read += " (left out: \(Plural.count(byHand, "record")) typed in by hand)"
        }
        guard let post = options.post else {
            guard let first = outcome.firstDay, let last = outcome.lastDay else { return "done: \(read)" }
            return "done: \(read), \(first) to \(last), \(outcome.totalSteps) steps"
        }
        if post.dryRun {
            return "dry run: \(read); \(outcome.daysToSend) to send in \(Plural.count(outcome.requests, "request")), \(outcome.daysNotSent) not sent"
        }
        if let plan = outcome.plan {
            return "plan: \(read); \(plan.write) to write, \(plan.overwrite) to overwrite, \(plan.same) the same, "
                + "\(plan.keep) kept, " + (plan.skip > 0 ? "\(plan.skip) the server would skip, " : "")
                + "\(outcome.daysNotSent - plan.keep) outside the window or invalid"
        }
        if outcome.status == .nothingInWindow {
            let span = outcome.firstDay.map { first in outcome.lastDay.map { " (\(first) to \($0))" } ?? "" } ?? ""
            return "nothing written: \(read)\(span), none inside the server's window; sent \(outcome.daysSent), "
                + "the server wrote \(outcome.daysWritten), \(outcome.daysNotSent) not sent"
        }
        return "done: \(read); sent \(outcome.daysSent), the server wrote \(outcome.daysWritten), \(outcome.daysNotSent) not sent"
    }
}
