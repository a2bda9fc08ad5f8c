/// The iOS and watchOS versions the owner's devices ran on a given date.
///
/// Real exports show the software version changing with each update (in
/// `sourceVersion` and inside the `device` string), and parsers must not
/// mistake a new version for a new source; so the synthetic devices update too,
/// a few days after each release.
struct SoftwareRelease {
    /// First Berlin date (day number) on which this release was installed.
    let since: Int
    /// iPhone version, e.g. `17.1.2`.
    let iOS: String
    /// Apple Watch version, e.g. `10.1.1`.
    let watchOS: String

    /// Releases in date order (install date a few days after Apple's release).
    static let history: [SoftwareRelease] = [
        ("2022-01-01", "15.2.1", "8.3"),
        ("2022-03-18", "15.4", "8.5"),
        ("2022-05-20", "15.5", "8.6"),
        ("2022-07-25", "15.6", "8.7"),
        ("2022-09-16", "16.0.2", "9.0.1"),
        ("2022-10-28", "16.1", "9.1"),
        ("2022-12-17", "16.2", "9.2"),
        ("2023-01-27", "16.3", "9.3"),
        ("2023-03-31", "16.4.1", "9.4"),
        ("2023-05-22", "16.5", "9.5"),
        ("2023-07-28", "16.6", "9.6"),
        ("2023-09-22", "17.0.2", "10.0.1"),
        ("2023-10-29", "17.1", "10.1"),
        ("2023-12-02", "17.1.2", "10.1.1"),
        ("2023-12-16", "17.2", "10.2"),
        ("2024-01-27", "17.3", "10.3"),
        ("2024-03-10", "17.4", "10.4"),
        ("2024-03-27", "17.4.1", "10.4"),
        ("2024-05-17", "17.5.1", "10.5"),
        ("2024-08-03", "17.6.1", "10.6.1"),
        ("2024-09-21", "18.0", "11.0"),
        ("2024-11-02", "18.1", "11.1"),
        ("2024-12-15", "18.2", "11.2"),
        ("2025-02-01", "18.3", "11.3"),
        ("2025-04-05", "18.4", "11.4"),
        ("2025-05-17", "18.5", "11.5"),
        ("2025-08-02", "18.6", "11.6"),
        ("2025-09-20", "26.0", "26.0"),
        ("2025-11-08", "26.1", "26.1"),
    ].map { date, phone, watch in
        SoftwareRelease(since: CivilDate(parsing: date)!.dayNumber, iOS: phone, watchOS: watch)
    }

    /// The release installed on `dayNumber`; dates before the table use its
    /// first entry, dates after it the last.
    static func installed(on dayNumber: Int) -> SoftwareRelease {
        var current = history[0]
        for release in history where release.since <= dayNumber {
            current = release
        }
        return current
    }
}
