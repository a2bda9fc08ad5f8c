import HealthDays

/// What an Apple Health document holds at top level, for `stepimport inspect`: each `Record`
/// type (its `type` attribute), each other element (`Workout`, `ActivitySummary`, `Correlation`,
/// ...), and the `<ExportDate value=...>`.
///
/// Taken only when asked (`ImportOptions.takesInventory`); names are interned, so counting a
/// record allocates nothing once its type has been seen. Pieces parsed on threads each take their
/// own and are added together in document order.
public struct AppleRecordCensus: Equatable, Sendable {
    private var recordTypes = SourceTable()
    private var recordCounts: [Int] = []
    private var elements = SourceTable()
    private var elementCounts: [Int] = []
    /// The `value` of `<ExportDate>` as written (e.g. `2024-04-29 09:00:00 +0200`).
    public var exportDate: String?

    /// The name a `Record` without a `type` attribute is counted under.
    public static let untypedRecord = "(no type)"

    public init() {}

    /// Counts a top-level `Record` of this type.
    mutating func countRecord(typeUTF8: UnsafeRawBufferPointer) {
        let id = Int(recordTypes.id(forUTF8: typeUTF8))
        if id == recordCounts.count { recordCounts.append(0) }
        recordCounts[id] += 1
    }

    /// Counts a top-level element other than `Record`.
    mutating func countElement(nameUTF8: UnsafeRawBufferPointer) {
        let id = Int(elements.id(forUTF8: nameUTF8))
        if id == elementCounts.count { elementCounts.append(0) }
        elementCounts[id] += 1
    }

    /// Adds the census of a later part of the same document.
    mutating func add(_ other: AppleRecordCensus) {
        for (index, name) in other.recordTypes.names.enumerated() {
            let id = Int(recordTypes.id(for: name))
            if id == recordCounts.count { recordCounts.append(0) }
            recordCounts[id] += other.recordCounts[index]
        }
        for (index, name) in other.elements.names.enumerated() {
            let id = Int(elements.id(for: name))
            if id == elementCounts.count { elementCounts.append(0) }
            elementCounts[id] += other.elementCounts[index]
        }
        if exportDate == nil { exportDate = other.exportDate }
    }

    /// `Record`s per type, in order of first appearance.
    public var records: [(type: String, count: Int)] {
        zip(recordTypes.names, recordCounts).map { ($0, $1) }
    }

    /// Other top-level elements per name, in order of first appearance.
    public var otherElements: [(name: String, count: Int)] {
        zip(elements.names, elementCounts).map { ($0, $1) }
    }

    public static func == (lhs: AppleRecordCensus, rhs: AppleRecordCensus) -> Bool {
        lhs.recordTypes.names == rhs.recordTypes.names && lhs.recordCounts == rhs.recordCounts
            && lhs.elements.names == rhs.elements.names && lhs.elementCounts == rhs.elementCounts
            && lhs.exportDate == rhs.exportDate
    }
}
