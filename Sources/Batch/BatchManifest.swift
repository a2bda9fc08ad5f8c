import Platform
import HealthDays
import Foundation
import StreamingText
import ExportParsers

/// A batch manifest, read and checked: one `BatchAccount` per row, in file order.
///
/// The manifest is a CSV file with a header naming the columns `account`, `file`, `kind`, `tz`
/// and `token_file` or `token_env` (any case, any order, other columns ignored). Every problem in
/// it is collected before anything is thrown, so that one run lists them all. Token files are
/// checked for existence, readability and permissions, but never read.
public struct BatchManifest: Sendable {
    /// The manifest's path as given.
    public let path: String
    /// The absolute folder that relative `file` and `token_file` paths are resolved against.
    public let directory: String
    public let accounts: [BatchAccount]
    /// Things worth telling the user that do not stop the batch (token files other users can read).
    public private(set) var warnings: [String]

    /// The header names, lower case.
    public enum Column {
        public static let account = "account"
        public static let file = "file"
        public static let kind = "kind"
        public static let tokenFile = "token_file"
        public static let tokenEnv = "token_env"
        public static let tz = "tz"
        /// Optional: sources to leave out of this account, patterns separated by `;`.
        public static let excludeSources = "exclude_sources"
    }

    /// Reads and checks the manifest at `path`.
    ///
    /// - Parameters:
    ///   - environment: where `token_env` names are looked up (the process's environment by default).
    ///   - needsTokens: whether every account must have a usable token (the server is read or
    ///     written); without, token columns are optional and not checked.
    public init(contentsOf path: String,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                needsTokens: Bool = true) throws(BatchError) {
        let bytes = try Self.readAll(path)
        try self.init(parsing: bytes, path: path, directory: Self.folder(of: path), environment: environment,
                      needsTokens: needsTokens)
    }

    /// Checks a manifest already in memory; `directory` is what relative paths are resolved against.
    public init(parsing bytes: [UInt8], path: String, directory: String,
                environment: [String: String], needsTokens: Bool = true) throws(BatchError) {
        self.path = path
        self.directory = directory
        var rows: [(line: Int, fields: [String])] = []
        var problems: [ManifestProblem] = []
        let tokenizer = CSVTokenizer()
        // Spreadsheets save "CSV" with semicolons or tabs in many locales: such a file is read as if
        // it had commas (its header says which it has).
        let separator = Self.separator(of: bytes)
        let bytes = separator == UInt8(ascii: ",") ? bytes : Self.commaSeparated(bytes, from: separator)
        // withUnsafeBytes does not carry typed throws, so the failure is passed out by hand.
        var failure: ParseFailure? = bytes.withUnsafeBytes { buffer in
            do throws(ParseFailure) {
                try tokenizer.feed(buffer) { record in rows.append((record.line, record.strings)) }
                return nil
            } catch {
                return error
            }
        }
        if failure == nil {
            do throws(ParseFailure) {
                try tokenizer.finish { record in rows.append((record.line, record.strings)) }
            } catch {
                failure = error
            }
        }
        if let error = failure {
            // The rows before the bad CSV are still checked, so that one run shows as much as it can.
            problems.append(ManifestProblem(line: error.line, column: nil, message: "not valid CSV: \(error.message)"))
        }
        var checker = Checker(directory: directory, environment: environment, needsTokens: needsTokens)
        checker.problems = problems
        checker.check(rows)
        guard checker.problems.isEmpty else {
            throw .invalidManifest(path: path, problems: checker.problems.sorted { $0.line < $1.line })
        }
        accounts = checker.accounts
        warnings = checker.warnings
        if separator != UInt8(ascii: ",") {
            warnings.insert("\(path): its fields are separated by \(separator == 0x09 ? "tabs" : "semicolons"), not commas: read as such", at: 0)
        }
    }

    // MARK: - Reading

    /// The separator of a manifest, told by its header line: a comma, unless the header has none
    /// and has semicolons or tabs (what spreadsheets save as CSV in many locales).
    static func separator(of bytes: [UInt8]) -> UInt8 {
        let header = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        guard !header.contains(UInt8(ascii: ",")) else { return UInt8(ascii: ",") }
        let semicolons = header.count { $0 == UInt8(ascii: ";") }
        let tabs = header.count { $0 == 0x09 }
        if semicolons == 0 && tabs == 0 { return UInt8(ascii: ",") }
        return semicolons >= tabs ? UInt8(ascii: ";") : 0x09
    }

    /// The same rows with commas between fields: `separator` outside quotes becomes a comma, and a
    /// field not in quotes that holds a comma or a quote is put in quotes (its quotes doubled).
    static func commaSeparated(_ bytes: [UInt8], from separator: UInt8) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var field: [UInt8] = []
        var quoted = false
        var inQuotes = false
        func endField() {
            if !quoted && (field.contains(UInt8(ascii: ",")) || field.contains(UInt8(ascii: "\""))) {
                out.append(UInt8(ascii: "\""))
                for byte in field {
                    out.append(byte)
                    if byte == UInt8(ascii: "\"") { out.append(byte) }
                }
                out.append(UInt8(ascii: "\""))
            } else {
                out += field
            }
            field.removeAll(keepingCapacity: true)
            quoted = false
        }
        for byte in bytes {
            if inQuotes {
                field.append(byte)
                if byte == UInt8(ascii: "\"") { inQuotes = false }
            } else if byte == UInt8(ascii: "\"") {
                if field.isEmpty { quoted = true }
                inQuotes = quoted
                field.append(byte)
            } else if byte == separator {
                endField()
                out.append(UInt8(ascii: ","))
            } else if byte == 0x0A || byte == 0x0D {
                endField()
                out.append(byte)
            } else {
                field.append(byte)
            }
        }
        endField()
        return out
    }

    private static func readAll(_ path: String) throws(BatchError) -> [UInt8] {
        do {
            return try SystemFile.open(path).readAll()
        } catch {
            throw .unreadableManifest(path: path, reason: error.description)
        }
    }

    /// The absolute folder holding `path`.
    static func folder(of path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).deletingLastPathComponent().standardizedFileURL.path
    }

    /// `path` if absolute, else `path` under `directory`, with `.` and `..` removed.
    static func resolve(_ path: String, against directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        return URL(fileURLWithPath: joined).standardizedFileURL.path
    }
}

// MARK: - Checking

extension BatchManifest {
    /// Walks the rows once, collecting accounts, problems and warnings.
    private struct Checker {
        let directory: String
        let environment: [String: String]
        /// Whether the server is read or written, so every account needs a usable token.
        let needsTokens: Bool
        var problems: [ManifestProblem] = []
        var accounts: [BatchAccount] = []
        var warnings: [String] = []
        private var columns: [String: Int] = [:]
        private var firstLineOfAccount: [String: Int] = [:]
        private var warnedTokenFiles: Set<String> = []
        private var warnedZones: Set<String> = []

        init(directory: String, environment: [String: String], needsTokens: Bool) {
            self.directory = directory
            self.environment = environment
            self.needsTokens = needsTokens
        }

        mutating func check(_ rows: [(line: Int, fields: [String])]) {
            guard let header = rows.first else {
                if problems.isEmpty {
                    problems.append(ManifestProblem(
                        line: 1, column: nil,
                        message: "the manifest is empty: its first line must be a header naming the columns "
                            + "account, file, kind, token_file or token_env, and tz"))
                }
                return
            }
            checkHeader(header.line, header.fields)
            if rows.count == 1, problems.isEmpty {
                problems.append(ManifestProblem(line: header.line + 1, column: nil,
                                                message: "the manifest has a header but no accounts"))
            }
            for row in rows.dropFirst() {
                checkRow(row.line, row.fields, fieldCount: header.fields.count)
            }
        }

        private mutating func checkHeader(_ line: Int, _ fields: [String]) {
            for (index, raw) in fields.enumerated() {
                let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
                if columns[name] != nil, !name.isEmpty {
                    problems.append(ManifestProblem(line: line, column: name,
                                                    message: "the column is named twice in the header"))
                } else {
                    columns[name] = index
                }
            }
            for name in [Column.account, Column.file, Column.kind, Column.tz] where columns[name] == nil {
                problems.append(ManifestProblem(line: line, column: name,
                                                message: "the header has no \(name) column, which is required"))
            }
            if needsTokens, columns[Column.tokenFile] == nil, columns[Column.tokenEnv] == nil {
                problems.append(ManifestProblem(
                    line: line, column: "\(Column.tokenFile)/\(Column.tokenEnv)",
                    message: "the header has neither a token_file nor a token_env column: every account needs one"))
            }
        }

        private mutating func checkRow(_ line: Int, _ fields: [String], fieldCount: Int) {
            guard fields.count == fieldCount else {
                problems.append(ManifestProblem(
                    line: line, column: nil,
                    message: "the row has \(fields.count) field\(fields.count == 1 ? "" : "s") where the header has "
                        + "\(fieldCount) (a value holding a comma must be enclosed in double quotes)"))
                return
            }
            func value(_ name: String) -> String? {
                columns[name].map { fields[$0].trimmingCharacters(in: .whitespaces) }
            }
            let problemsBefore = problems.count
            let account = checkAccount(line, value(Column.account))
            let file = checkFile(line, value(Column.file))
            let kind = checkKind(line, value(Column.kind))
            let token = checkToken(line, account: account, file: value(Column.tokenFile), env: value(Column.tokenEnv))
            let zone = checkZone(line, value(Column.tz))
            let excluded = checkExcludedSources(line, value(Column.excludeSources))
            guard problems.count == problemsBefore, let account, let file, let kind, token != nil || !needsTokens,
                  let zone else { return }
            accounts.append(BatchAccount(line: line, account: account, file: file.resolved, relativeFile: file.given,
                                         kind: kind, token: token, zone: zone, zoneName: value(Column.tz),
                                         excludedSources: excluded))
        }

        /// The `exclude_sources` cell: patterns separated by `;` (a `;` in a name is `[;]`).
        private mutating func checkExcludedSources(_ line: Int, _ cell: String?) -> [SourcePattern] {
            guard let cell, !cell.isEmpty else { return [] }
            var patterns: [SourcePattern] = []
            for part in cell.split(separator: ";", omittingEmptySubsequences: true) {
                let text = part.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { continue }
                do throws(SourcePattern.Problem) {
                    patterns.append(try SourcePattern(text))
                } catch {
                    problem(line, Column.excludeSources, "\(quoted(text)) is not a source name or pattern: \(error)")
                }
            }
            return patterns
        }

        private mutating func problem(_ line: Int, _ column: String, _ message: String) {
            problems.append(ManifestProblem(line: line, column: column, message: message))
        }

        private mutating func checkAccount(_ line: Int, _ value: String?) -> String? {
            guard let value else { return nil }
            guard !value.isEmpty else {
                problem(line, Column.account, "the account label is empty; every row needs a unique one")
                return nil
            }
            if let first = firstLineOfAccount[value] {
                problem(line, Column.account, "\(quoted(value)) is already the label of line \(first); labels must be unique")
                return nil
            }
            firstLineOfAccount[value] = line
            return value
        }

        private mutating func checkFile(_ line: Int, _ value: String?) -> (given: String, resolved: String)? {
            guard let value else { return nil }
            guard !value.isEmpty else {
                problem(line, Column.file, "no export file given")
                return nil
            }
            let resolved = BatchManifest.resolve(value, against: directory)
            guard (try? FileStatus.of(path: resolved)) != nil else {
                problem(line, Column.file, "\(quoted(value)) does not exist (looked for \(resolved))")
                return nil
            }
            guard FileStatus.isReadable(path: resolved) else {
                problem(line, Column.file, "\(quoted(value)) cannot be read (\(resolved)): check its permissions")
                return nil
            }
            return (value, resolved)
        }

        private mutating func checkKind(_ line: Int, _ value: String?) -> ExportChoice? {
            guard let value else { return nil }
            guard let kind = ExportChoice(word: value) else {
                let words = ExportChoice.words
                let list = words.dropLast().joined(separator: ", ") + " or " + words.last!
                problem(line, Column.kind, value.isEmpty
                    ? "no kind given: write \(list)"
                    : "\(quoted(value)) is not a kind: write \(list)")
                return nil
            }
            return kind
        }

        private mutating func checkToken(_ line: Int, account: String?, file: String?,
                                         env: String?) -> BatchAccount.TokenSource? {
            let file = file.flatMap { $0.isEmpty ? nil : $0 }
            let env = env.flatMap { $0.isEmpty ? nil : $0 }
            // Without either column the header problem already says so.
            guard columns[Column.tokenFile] != nil || columns[Column.tokenEnv] != nil else { return nil }
            let column = "\(Column.tokenFile)/\(Column.tokenEnv)"
            guard needsTokens else {
                // Summaries only: where a token is, is not looked at.
                return file.map { .file(BatchManifest.resolve($0, against: directory)) } ?? env.map { .environment($0) }
            }
            switch (file, env) {
            case (nil, nil):
                problem(line, column, "no token: give either token_file or token_env")
                return nil
            case (.some, .some):
                problem(line, column, "both token_file and token_env are given: give only one, so that it is clear which token is used")
                return nil
            case (.some(let file), nil):
                return checkTokenFile(line, account: account, file)
            case (nil, .some(let name)):
                guard let text = environment[name] else {
                    problem(line, Column.tokenEnv, "the environment variable \(name) is not set")
                    return nil
                }
                guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    problem(line, Column.tokenEnv, "the environment variable \(name) is empty")
                    return nil
                }
                return .environment(name)
            }
        }

        /// Checks that the token file is there and readable, and warns when others can read it;
        /// never reads it.
        private mutating func checkTokenFile(_ line: Int, account: String?, _ given: String) -> BatchAccount.TokenSource? {
            let resolved = BatchManifest.resolve(given, against: directory)
            guard let status = try? FileStatus.of(path: resolved) else {
                problem(line, Column.tokenFile, "\(quoted(given)) does not exist (looked for \(resolved))")
                return nil
            }
            guard status.kind == .regular else {
                problem(line, Column.tokenFile, "\(quoted(given)) is not a regular file (\(resolved))")
                return nil
            }
            guard FileStatus.isReadable(path: resolved) else {
                problem(line, Column.tokenFile, "\(quoted(given)) cannot be read (\(resolved)): check its permissions")
                return nil
            }
            let mode = status.permissions
            if mode & 0o077 != 0, warnedTokenFiles.insert(resolved).inserted {
                let owner = account.map { " (account \(quoted($0)), line \(line))" } ?? " (line \(line))"
                warnings.append("token file \(resolved)\(owner) can be read or written by other users "
                    + "(mode \(String(mode, radix: 8))): run chmod 600 \(resolved)")
            }
            return .file(resolved)
        }

        private mutating func checkZone(_ line: Int, _ value: String?) -> TimeZone? {
            guard let value else { return nil }
            guard !value.isEmpty else {
                problem(line, Column.tz, "no zone given: tz is required, an IANA name such as Europe/Berlin")
                return nil
            }
            guard case .zone(let zone)? = ZoneRule.named(value) else {
                let meant = ZoneRule.suggestion(for: value).map { " (did you mean \($0)?)" } ?? ""
                problem(line, Column.tz, "\(quoted(value)) is not a zone this system knows\(meant): "
                    + "write Area/City, such as Europe/Berlin, UTC, or an offset such as +05:30")
                return nil
            }
            if let caution = ZoneCaution(zone), warnedZones.insert(zone.identifier).inserted {
                warnings.append("tz \(caution) (line \(line), and any other line with \(quoted(zone.identifier)))")
            }
            return zone
        }

        private func quoted(_ text: String) -> String {
            "\"" + text + "\""
        }
    }
}
