import HealthDays

/// What an Apple Health document holds at top level, for `stepimport inspect`: each `Record`
/// type (its `type` attribute), each other element (`Workout`, `ActivitySummary`, `Correlation`,
/// ...), and the `<ExportDate value=...>`.
///
/// Taken only when asked (`ImportOptions.takesInventory`); names are interned, so counting a
/// record allocates nothing once its type has been seen. Pieces parsed on threads each take their
/// own and are added together in document order.
public struct AppleRecordCensus: Equatable, Sendable {
    /// Record types and other elements; a table's `uses` are their counts.
    private var recordTypes = SourceTable()
    private var elements = SourceTable()
    /// The `value` of `<ExportDate>` as written (e.g. `2024-04-29 09:00:00 +0200`).
    public var exportDate: String?

    /// The name a `Record` without a `type` attribute is counted under.
    public static let untypedRecord = "(no type)"

    public init() {}

    /// How the census takes a child of the root, by its element name: the one rule for
    /// `AppleHealthParser` (which has its attributes) and `AppleRecordSelector` (which reads bytes).
    enum Entry {
        /// Counted by its `type` attribute (`untypedRecord` without one).
        case record
        /// Not counted: its `value` is `exportDate`.
        case exportDate
        /// Not counted (`Me`, the owner's characteristics).
        case uncounted
        /// Counted by its name.
        case element
    }

    static func entry(forName name: UnsafeRawBufferPointer) -> Entry {
        if name.elementsEqual("Record".utf8) { return .record }
        if name.elementsEqual("ExportDate".utf8) { return .exportDate }
        if name.elementsEqual("Me".utf8) { return .uncounted }
        return .element
    }

    /// Counts a top-level `Record` of this type.
    mutating func countRecord(typeUTF8: UnsafeRawBufferPointer) {
        _ = recordTypes.id(forUTF8: typeUTF8)
    }

    /// Counts a top-level element other than `Record`.
    mutating func countElement(nameUTF8: UnsafeRawBufferPointer) {
        _ = elements.id(forUTF8: nameUTF8)
    }

    /// Adds the census of a later part of the same document.
    mutating func add(_ other: AppleRecordCensus) {
        recordTypes.add(other.recordTypes)
        elements.add(other.elements)
        if exportDate == nil { exportDate = other.exportDate }
    }

    /// `Record`s per type, in order of first appearance.
    public var records: [(type: String, count: Int)] {
        zip(recordTypes.names, recordTypes.uses).map { ($0, $1) }
    }

    /// Other top-level elements per name, in order of first appearance.
    public var otherElements: [(name: String, count: Int)] {
        zip(elements.names, elements.uses).map { ($0, $1) }
    }

    public static func == (lhs: AppleRecordCensus, rhs: AppleRecordCensus) -> Bool {
        lhs.recordTypes.names == rhs.recordTypes.names && lhs.recordTypes.uses == rhs.recordTypes.uses
            && lhs.elements.names == rhs.elements.names && lhs.elements.uses == rhs.elements.uses
            && lhs.exportDate == rhs.exportDate
    }
}
