import FuzzSupport
import HealthDays
import StreamingText

/// The RFC 4180 CSV tokenizer alone, in chunks and in one piece, with standard or tiny limits:
/// chunk boundaries must not change a single field, nor the error and its place.
struct Run: Equatable {
    var records: [[[UInt8]]] = []
    var lines: [Int] = []
    var failure: ParseFailure?
}

func tokenize(_ input: FuzzInput, chunked: Bool, limits: CSVTokenizer.Limits) -> Run {
    let tokenizer = CSVTokenizer(limits: limits)
    var run = Run()
    let collect: CSVTokenizer.RecordHandler = { record in
        expect(record.count >= 1, "a record with no field")
        run.records.append((0..<record.count).map { Array(record[$0]) })
        run.lines.append(record.line)
        blackHole(record.strings)
    }
    do throws(ParseFailure) {
        if chunked {
            try input.forEachChunk { (chunk) throws(ParseFailure) in try tokenizer.feed(chunk, onRecord: collect) }
        } else {
            try input.forEachChunk(whole: true) { (all) throws(ParseFailure) in try tokenizer.feed(all, onRecord: collect) }
        }
        try tokenizer.finish(onRecord: collect)
    } catch {
        run.failure = error
    }
    expect(run.failure != nil || tokenizer.records == run.records.count, "records counted and delivered differ")
    return run
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVTokenizer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let limits = (size / 7) % 3 == 2
        ? CSVTokenizer.Limits(maxFieldBytes: 8, maxFields: 4, maxRecordBytes: 24)
        : CSVTokenizer.Limits.standard
    let chunked = tokenize(input, chunked: true, limits: limits)
    let whole = tokenize(input, chunked: false, limits: limits)
    // One exception, left as it is: a record over both the record and the field limit may be
    // reported for either, depending on where the chunks end; the records before it must agree.
    if let one = chunked.failure, let other = whole.failure, one != other,
       isLengthLimit(one) && isLengthLimit(other) {
        expect(chunked.records == whole.records, "chunks of \(input.chunkSize): the records before the error differ")
        return 0
    }
    expect(chunked == whole, "chunks of \(input.chunkSize): \(chunked.records.count) records, \(String(describing: chunked.failure)); one chunk: \(whole.records.count) records, \(String(describing: whole.failure))")
    for record in whole.records {
        expect(record.count <= limits.maxFields, "a record over maxFields")
        for field in record { expect(field.count <= limits.maxFieldBytes, "a field over maxFieldBytes") }
    }
    return 0
}

/// The tokenizer's errors for a field or record over the limits.
func isLengthLimit(_ failure: ParseFailure) -> Bool {
    failure.message.contains(" is longer than ")
}
