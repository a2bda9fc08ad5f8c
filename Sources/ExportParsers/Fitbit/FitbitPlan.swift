import HealthDays
import StreamingText

/// Which files of a Fitbit export to read: its time-series files of the kinds asked for
/// (`steps-YYYY-MM-DD.json`, `distance-`, `calories-`, `heart_rate-`, in `Takeout/Fitbit/Global
/// Export Data/` or given alone), and the profile that names the account's zone
/// (`Takeout/Fitbit/Your Profile/Profile.csv`).
///
/// The rows of every per-minute file look alike (steps, distance, calories), so the name says
/// what a file counts; its first bytes must still be Fitbit's layout before it is read. Files of
/// kinds not asked for are left out of the plan: they are never opened.
struct FitbitPlan: Equatable {
    /// The files to read, in name order.
    let files: [String]
    /// The profile, when one is there.
    let profile: String?

    /// The plan for these entry or file names, reading the files of `kinds`; nil when none of
    /// them is a Fitbit step file or a file of those kinds.
    static func choose(_ names: [String], kinds: Set<FitbitMinuteParser.Kind> = [.steps]) -> FitbitPlan? {
        let found = names.compactMap { name in FitbitMinuteParser.kind(ofFileNamed: name).map { (name, $0) } }
        guard found.contains(where: { $0.1 == .steps || kinds.contains($0.1) }) else { return nil }
        let files = found.filter { kinds.contains($0.1) }.map(\.0).sorted()
        // Takeout's own `Your Profile/Profile.csv` first, then any `Profile*.csv` beside the steps.
        let profiles = names.filter(isProfile).sorted { lhs, rhs in
            lhs.lowercased().hasSuffix("your profile/profile.csv") && !rhs.lowercased().hasSuffix("your profile/profile.csv")
        }
        return FitbitPlan(files: files, profile: profiles.first)
    }

    /// `Profile.csv`, or a name like it (`Profile-timezone-only.csv`), in any folder.
    static func isProfile(_ name: String) -> Bool {
        let file = (name.split(separator: "/").last.map(String.init) ?? name).lowercased()
        return file.hasPrefix("profile") && file.hasSuffix(".csv")
    }

    /// The account's zone from the first bytes of a profile CSV: its `timezone` column in the
    /// first row, when that is a zone-database name; nil otherwise.
    static func accountZone(inProfileHead head: [UInt8]) -> String? {
        var rows: [[String]] = []
        let tokenizer = CSVTokenizer()
        let keep: CSVTokenizer.RecordHandler = { record in
            if rows.count < 2 { rows.append(record.strings) }
        }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: head.count, alignment: 1)
        defer { bytes.deallocate() }
        bytes.copyBytes(from: head)
        do {
            try tokenizer.feed(UnsafeRawBufferPointer(bytes), onRecord: keep)
            try tokenizer.finish(onRecord: keep)
        } catch {
            // A head cut inside a quoted field: the rows completed before it are enough.
        }
        guard rows.count == 2, let column = rows[0].firstIndex(where: { $0.lowercased() == "timezone" }),
              column < rows[1].count
        else { return nil }
        let zone = rows[1][column]
        guard case .zone = ZoneRule.named(zone) else { return nil }
        return zone
    }
}
