import Batch
import Foundation
import HealthDays
import Outputs
import Platform

/// `batch --output`: each account's days as `stepimport apple|hc FILE --tz ZONE` prints them,
/// through the same writers and database as a single run: a JSON or CSV file per account in a
/// folder, named by its label (`FileOutputSink`: whole or not there), or one import per account
/// in one database (`ResultsDatabase`, committed account by account, the label in `account`).
final class BatchDaysOutput: AccountDaysWriter, @unchecked Sendable {
    private enum Place {
        /// The folder, and each account's file name in it by label.
        case folder(String, names: [String: String])
        case database(ResultsDatabase)
    }

    /// `--output` as given.
    let path: String
    let format: OutputFormat
    private let place: Place
    /// One account at a time writes into the database (its connection is not shared between threads).
    private let lock = NSLock()

    /// Why the output cannot take the batch: labels whose files would clash (exit 65), or a folder
    /// or database that cannot be made or is not stepimport's (exit 74).
    enum Problem: Error {
        case clashingLabels([ManifestProblem])
        case unusable(String)
    }

    /// Makes the folder (not its parents) or the database, before any account runs, and checks
    /// that every account of the manifest gets a file of its own.
    init(path: String, format: OutputFormat, accounts: [BatchAccount]) throws(Problem) {
        self.path = path
        self.format = format
        if format == .sqlite {
            do {
                place = .database(try ResultsDatabase(path: path, inPlace: true))
            } catch {
                throw .unusable("--output \(error.description.escapingControlCharacters())")
            }
            return
        }
        var names: [String: String] = [:]
        var taken: [String: BatchAccount] = [:]
        var clashes: [ManifestProblem] = []
        for account in accounts {
            let name = Self.fileName(for: account.account, format: format)
            // Case apart, too: the folder may be copied to a file system that ignores it.
            if let first = taken[name.lowercased()] {
                clashes.append(ManifestProblem(line: account.line, column: "account", message:
                    "'\(account.account)' and '\(first.account)' (line \(first.line)) would both write \(name) in --output "
                        + "\(path): give them labels that differ in letters, digits, '-', '_' or '.'"))
            }
            taken[name.lowercased()] = account
            names[account.account] = name
        }
        guard clashes.isEmpty else { throw .clashingLabels(clashes) }
        let shown = path.escapingControlCharacters()
        switch (try? FileStatus.of(path: path))?.kind {
        case .directory?:
            break
        case nil:
            do {
                try SystemFile.makeFolder(path)
            } catch {
                throw .unusable("--output \(shown): cannot make the folder: \(error)")
            }
        default:
            throw .unusable("--output \(shown): is a file; \(format.rawValue) files need a folder (or name a database: .sqlite)")
        }
        place = .folder(path, names: names)
    }

    /// A label as a file name: ASCII letters, digits, `-`, `_` and `.` kept, every other
    /// character (`/`, a space, `é`) and a leading `.` (a hidden file) made `_`, cut so that the
    /// temporary name beside it fits the file system's 255 bytes, and the format's extension.
    static func fileName(for label: String, format: OutputFormat) -> String {
        var name = String(String.UnicodeScalarView(label.unicodeScalars.map { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": scalar
            default: "_"
            }
        }))
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        let room = 255 - ".".count - ".XXXXXX".count - ".".count - format.rawValue.count
        return String(name.prefix(room)) + "." + format.rawValue
    }

    func place(of account: BatchAccount) -> String {
        switch place {
        case .folder(let folder, let names):
            (folder.hasSuffix("/") ? folder : folder + "/") + (names[account.account] ?? Self.fileName(for: account.account, format: format))
        case .database:
            path
        }
    }

    func write(_ days: [DayTotal], of outcome: AccountOutcome) throws(AccountFailure) {
        let account = outcome.account
        let layout = DayLayout(bySource: false, zoneDescription: account.zoneName)
        do throws(OutputError) {
            switch place {
            case .folder:
                guard let writer = format.textWriter else {
                    throw .database(path: path, problem: "a folder takes json or csv files, not \(format.rawValue)")
                }
                let sink = try FileOutputSink(path: place(of: account))
                try writer.writeDays(.dayTotals(days), layout, to: sink)
                try sink.finish()
            case .database(let database):
                let record = ResultsDatabase.Import(
                    account: account.account, file: URL(fileURLWithPath: account.file).standardizedFileURL.path,
                    format: outcome.format ?? "", zone: account.zoneName, rule: DayRule.highestSource.rawValue,
                    options: Array(CommandLine.arguments.dropFirst()), version: HelpText.version)
                lock.lock()
                defer { lock.unlock() }
                try database.write(record, .dayTotals(days), layout)
            }
        } catch {
            throw .output("--output \(error.description)")
        }
    }

    /// Removes the temporary files a killed run (`kill -9`, a lost machine) left in the folder
    /// for these accounts (`.NAME.XXXXXX` beside each account's file); only with the journal's
    /// lock held, when no other batch writes these accounts.
    func removeLeftovers(of accounts: [BatchAccount]) {
        guard case .folder(let folder, let names) = place else { return }
        let ours = Set(accounts.compactMap { names[$0.account] })
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where entry.hasPrefix(".") {
            let name = entry.dropFirst().dropLast(".XXXXXX".count)
            guard entry.count > ".XXXXXX".count + 1, entry.dropLast(6).hasSuffix("."), ours.contains(String(name)) else { continue }
            SystemFile.unlinkName((folder.hasSuffix("/") ? folder : folder + "/") + entry)
        }
    }

    /// Closes the database; nothing for a folder.
    func close() {
        if case .database(let database) = place {
            lock.lock()
            defer { lock.unlock() }
            try? database.finish()
        }
    }
}
