import DisplayText

/// The records skipped under `InvalidRecordPolicy.skip`: how many, and the first few with their place.
public struct SkippedRecords: Equatable, Sendable {
    /// How many skipped records are kept as examples, in every reader.
    public static let maxExamples = 5

    public private(set) var count = 0
    /// The first `maxExamples` of them.
    public private(set) var examples: [SkippedRecord] = []

    public init() {}

    /// Counts one skipped record; its problem is only put into words while examples are kept, with
    /// its control characters escaped (it quotes the record's values).
    public mutating func add(line: Int, column: Int, _ problem: @autoclosure () -> String) {
        count += 1
        if examples.count < SkippedRecords.maxExamples {
            examples.append(SkippedRecord(line: line, column: column, problem: problem().escapingControlCharacters()))
        }
    }

    /// Adds those of a later part of the same input; `lineShift` moves their lines to the file's.
    public mutating func add(_ other: SkippedRecords, lineShift: Int = 0) {
        count += other.count
        for example in other.examples where examples.count < SkippedRecords.maxExamples {
            examples.append(SkippedRecord(line: example.line + lineShift, column: example.column, problem: example.problem))
        }
    }
}

extension InvalidRecordPolicy {
    /// The one rule for a record that is well-formed but unusable: under `.fail` it is the failure
    /// to stop with; under `.skip` it is counted in `skipped` and nil is returned. `record` says
    /// what the record was, for the failure's message.
    public func reject(at position: SourcePosition, _ problem: @autoclosure () -> String,
                       record: @autoclosure () -> String = ParseFailure.stepRecord,
                       skipped: inout SkippedRecords) -> ParseFailure? {
        switch self {
        case .fail:
            var failure = ParseFailure(kind: .invalidRecord, at: position, message: problem())
            failure.record = record()
            return failure
        case .skip:
            skipped.add(line: position.line, column: position.column, problem())
            return nil
        }
    }
}
