/// The generator's own note of one top-level step `Record` it wrote.
///
/// The expected totals are computed from these notes, not by reading the file
/// back, so they are an independent answer to check an importer against.
struct WrittenStepSample {
    let source: ExportSource
    /// `startDate` as an instant (seconds since 1970 UTC).
    let start: Int64
    /// `endDate` as an instant; equal to `start` for zero-length samples.
    let end: Int64
    /// The `value` attribute; fractional for some sources.
    let value: Double
}
