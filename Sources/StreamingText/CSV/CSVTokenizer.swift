import HealthDays
/// A push-style RFC 4180 CSV reader: bytes in, in chunks of any size split anywhere; records out,
/// one call of the handler per record.
///
/// Reads a UTF-8 byte order mark, CRLF, LF and lone CR line ends, quoted fields holding commas,
/// doubled quotes and line breaks, and a last record with or without a line end. Blank lines are
/// skipped. Records come as views into buffers reused from one record to the next, so a record costs
/// no allocation; the buffers grow to the longest record seen, within `Limits`. Whether every
/// record has as many fields as the header is the caller's business.
///
/// After an error the tokenizer is in an unspecified state: do not feed it more.
public final class CSVTokenizer {
    /// Bounds that keep memory flat on a file that is not what it claims (an unclosed quote turns
    /// the rest of a file into one field).
    public struct Limits: Sendable, Equatable {
        /// The longest field, in bytes.
        public var maxFieldBytes: Int
        /// The most fields in one record.
        public var maxFields: Int
        /// The longest record, in bytes of field content.
        public var maxRecordBytes: Int

        public init(maxFieldBytes: Int, maxFields: Int, maxRecordBytes: Int) {
            precondition(maxFieldBytes > 0 && maxFields > 0 && maxRecordBytes > 0)
            self.maxFieldBytes = maxFieldBytes
            self.maxFields = maxFields
            self.maxRecordBytes = maxRecordBytes
        }

        /// 1 MiB per field, 4096 fields, 16 MiB per record: far beyond any step export's rows.
        public static let standard = Limits(maxFieldBytes: 1 << 20, maxFields: 4096, maxRecordBytes: 16 << 20)
    }

    /// Receives each record; the record is valid only during the call.
    public typealias RecordHandler = (CSVRecord) throws(ParseFailure) -> Void

    private enum State {
        /// Before the first byte of a record (blank lines are skipped here).
        case recordStart
        /// A line ended with CR; an LF right after it belongs to the same line end.
        case afterCR
        /// Before the first byte of a field that is not the first of its record.
        case fieldStart
        case unquoted
        case quoted
        /// A CR inside a quoted field; an LF right after it is the same line break.
        case quotedAfterCR
        /// A quote inside a quoted field: the closing quote, or the first of a doubled one.
        case quoteInQuoted
    }

    public let limits: Limits
    private var state = State.recordStart

    // The current record: field bytes back to back, and where each field ends.
    private var bytes: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0
    private var fieldStart = 0
    private var ends: UnsafeMutablePointer<Int>
    private var endsCapacity: Int
    private var fieldCount = 0

    // Positions, for records and errors.
    /// The 1-based physical line of the next byte.
    public private(set) var line = 1
    private var recordLine = 1
    /// Stream offset of the first byte of the current record.
    private var recordOffset = 0
    /// Bytes consumed before the chunk being read.
    private var offset = 0
    /// Stream offset of the first byte of the current line.
    private var lineStart = 0
    /// UTF-8 continuation bytes seen, so that a column counts characters rather than bytes.
    private var continuationBytes = 0
    private var continuationBytesAtLineStart = 0
    private var quoteLine = 0
    private var quoteColumn = 0
    private var quoteOffset = 0
    private var bomMatched = 0
    private var bomDecided = false

    /// Records delivered so far.
    public private(set) var records = 0

    public init(limits: Limits = .standard) {
        self.limits = limits
        capacity = min(4096, limits.maxRecordBytes)
        bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        endsCapacity = min(64, limits.maxFields)
        ends = UnsafeMutablePointer<Int>.allocate(capacity: endsCapacity)
    }

    deinit {
        bytes.deallocate()
        ends.deallocate()
    }

    /// Reads the next piece of input, calling `onRecord` for every record it completes.
    public func feed(_ input: UnsafeRawBufferPointer, onRecord: RecordHandler) throws(ParseFailure) {
        guard let start = input.baseAddress, input.count > 0 else { return }
        var base = start.assumingMemoryBound(to: UInt8.self)
        var count = input.count
        if !bomDecided {
            let bom: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)
            var index = 0
            while index < count, bomMatched < 3 {
                let expected = bomMatched == 0 ? bom.0 : bomMatched == 1 ? bom.1 : bom.2
                guard base[index] == expected else { break }
                bomMatched += 1
                index += 1
            }
            if bomMatched == 3 {
                bomDecided = true
                offset = 3
                lineStart = 3
            } else if index < count {
                // Not a byte order mark after all: the bytes taken for one are data.
                bomDecided = true
                try replayPartialBOM(onRecord)
            }
            base += index
            count -= index
        }
        try process(base, count, onRecord)
    }

    /// Ends the input: delivers a last record that has no line end, and fails on a quoted field
    /// that is still open (a truncated file or a quote that is not closed).
    public func finish(onRecord: RecordHandler) throws(ParseFailure) {
        if !bomDecided {
            bomDecided = true
            try replayPartialBOM(onRecord)
        }
        switch state {
        case .recordStart, .afterCR:
            break
        case .fieldStart, .unquoted, .quoteInQuoted:
            endField()
            state = .recordStart
            try endRecord(onRecord)
        case .quoted, .quotedAfterCR:
            throw ParseFailure(
                kind: .malformed, line: quoteLine, column: quoteColumn, byteOffset: Int64(quoteOffset),
                message: "field \(fieldCount + 1) opens a quote here that is never closed: "
                    + "the file is truncated or a quote is not closed")
        }
    }

    // MARK: - The state machine

    private static let comma: UInt8 = 0x2C
    private static let quote: UInt8 = 0x22
    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D

    private func process(_ base: UnsafePointer<UInt8>, _ count: Int, _ onRecord: RecordHandler) throws(ParseFailure) {
        let comma = Self.comma, quote = Self.quote, lf = Self.lf, cr = Self.cr
        var index = 0
        while index < count {
            switch state {
            case .recordStart:
                let byte = base[index]
                if byte == lf {
                    index += 1
                    newLine(at: index)
                } else if byte == cr {
                    index += 1
                    newLine(at: index)
                    state = .afterCR
                } else {
                    recordLine = line
                    recordOffset = offset + index
                    state = byte == quote ? .fieldStart : .unquoted
                }

            case .afterCR:
                if base[index] == lf {
                    index += 1
                    lineStart = offset + index
                }
                state = .recordStart

            case .fieldStart:
                if base[index] == quote {
                    quoteLine = line
                    quoteColumn = column(at: index)
                    quoteOffset = offset + index
                    index += 1
                    state = .quoted
                } else {
                    state = .unquoted
                }

            case .unquoted:
                let runStart = index
                var continuation = 0
                scan: while index < count {
                    let byte = base[index]
                    // '-' through DEL: the bytes of dates, numbers and names, none of them special.
                    if byte &- 0x2D < 0x53 {
                        index += 1
                        continue
                    }
                    switch byte {
                    case comma, quote, lf, cr:
                        break scan
                    default:
                        if byte & 0xC0 == 0x80 { continuation += 1 }
                        index += 1
                    }
                }
                continuationBytes += continuation
                try append(base + runStart, index - runStart, at: index)
                guard index < count else { break }
                if try !endFieldAt(base[index], index: &index, onRecord) {
                    throw ParseFailure(
                        kind: .malformed, line: line, column: column(at: index), byteOffset: Int64(offset + index),
                        message: "a quote (\") in the middle of field \(fieldCount + 1), which is not quoted: "
                            + "a field that holds quotes must be enclosed in quotes, with each quote inside written twice (\"\")")
                }

            case .quoted:
                let runStart = index
                var continuation = 0
                scan: while index < count {
                    let byte = base[index]
                    // '#' through DEL: nothing in that range ends a quoted field or a line.
                    if byte &- 0x23 < 0x5D {
                        index += 1
                        continue
                    }
                    switch byte {
                    case quote, lf, cr:
                        break scan
                    default:
                        if byte & 0xC0 == 0x80 { continuation += 1 }
                        index += 1
                    }
                }
                continuationBytes += continuation
                try append(base + runStart, index - runStart, at: index)
                guard index < count else { break }
                switch base[index] {
                case quote:
                    index += 1
                    state = .quoteInQuoted
                case lf:
                    try append(base + index, 1, at: index)
                    index += 1
                    newLine(at: index)
                default:
                    try append(base + index, 1, at: index)
                    index += 1
                    newLine(at: index)
                    state = .quotedAfterCR
                }

            case .quotedAfterCR:
                if base[index] == lf {
                    try append(base + index, 1, at: index)
                    index += 1
                    lineStart = offset + index
                }
                state = .quoted

            case .quoteInQuoted:
                switch base[index] {
                case quote:
                    try append(base + index, 1, at: index)
                    index += 1
                    state = .quoted
                case let byte where try endFieldAt(byte, index: &index, onRecord):
                    break
                default:
                    throw ParseFailure(
                        kind: .malformed, line: line, column: column(at: index), byteOffset: Int64(offset + index),
                        message: "text after the closing quote of field \(fieldCount + 1), where a comma or the end "
                            + "of the line belongs (a quote inside a quoted field is written twice: \"\")")
                }
            }
        }
        offset += count
    }

    /// Feeds the bytes that looked like the start of a byte order mark but were not one.
    private func replayPartialBOM(_ onRecord: RecordHandler) throws(ParseFailure) {
        let matched = bomMatched
        bomMatched = 0
        guard matched > 0 else { return }
        let prefix: [UInt8] = Array([0xEF, 0xBB][..<matched])
        try prefix.withUnsafeBufferPointer { (buffer) throws(ParseFailure) in
            try process(buffer.baseAddress!, buffer.count, onRecord)
        }
    }

    // MARK: - Positions

    /// Notes a line break; `index` is the position just after it in the current chunk.
    @inline(__always)
    /// Ends the field at a comma, or the field and the record at a line break, and moves past
    /// it; false (nothing done) for any other byte.
    private func endFieldAt(_ byte: UInt8, index: inout Int, _ onRecord: RecordHandler) throws(ParseFailure) -> Bool {
        switch byte {
        case Self.comma:
            endField()
            index += 1
            try checkFieldCount(at: index)
            state = .fieldStart
        case Self.lf, Self.cr:
            endField()
            index += 1
            newLine(at: index)
            state = byte == Self.lf ? .recordStart : .afterCR
            try endRecord(onRecord)
        default:
            return false
        }
        return true
    }

    private func newLine(at index: Int) {
        line += 1
        lineStart = offset + index
        continuationBytesAtLineStart = continuationBytes
    }

    /// The 1-based column, in characters, of the byte at `index` in the current chunk.
    private func column(at index: Int) -> Int {
        offset + index - lineStart - (continuationBytes - continuationBytesAtLineStart) + 1
    }

    // MARK: - The record buffer

    @inline(__always)
    private func append(_ source: UnsafePointer<UInt8>, _ length: Int, at index: Int) throws(ParseFailure) {
        guard length > 0 else { return }
        let newUsed = used + length
        if newUsed - fieldStart > limits.maxFieldBytes {
            throw fieldTooLong(source, length, at: index)
        }
        if newUsed > capacity {
            try grow(to: newUsed, source, length, at: index)
        }
        (bytes + used).copyMemory(from: source, byteCount: length)
        used = newUsed
    }

    @inline(__always)
    private func endField() {
        if fieldCount == endsCapacity {
            growEnds()
        }
        ends[fieldCount] = used
        fieldCount += 1
        fieldStart = used
    }

    /// After a comma: fails when the field that begins at `index` is one too many.
    @inline(__always)
    private func checkFieldCount(at index: Int) throws(ParseFailure) {
        guard fieldCount < limits.maxFields else {
            throw ParseFailure(
                kind: .malformed, line: line, column: column(at: index), byteOffset: Int64(offset + index),
                message: "the record that starts at line \(recordLine) has more than \(limits.maxFields) fields: "
                    + "this is not a step export, or its separator is not a comma")
        }
    }

    @inline(__always)
    private func endRecord(_ onRecord: RecordHandler) throws(ParseFailure) {
        let record = CSVRecord(line: recordLine, offset: Int64(recordOffset), count: fieldCount, bytes: UnsafeRawPointer(bytes),
                               ends: UnsafePointer(ends))
        used = 0
        fieldStart = 0
        fieldCount = 0
        records += 1
        try onRecord(record)
    }

    private func grow(to needed: Int, _ source: UnsafePointer<UInt8>, _ length: Int, at index: Int) throws(ParseFailure) {
        guard needed <= limits.maxRecordBytes else {
            let place = position(ofByte: limits.maxRecordBytes - used, of: source, length, endingAt: index)
            throw ParseFailure(
                kind: .malformed, at: place,
                message: "the record that starts at line \(recordLine) is longer than "
                    + "\(Self.size(limits.maxRecordBytes)): this is not a step export, or a quote is not closed")
        }
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        newCapacity = min(newCapacity, limits.maxRecordBytes)
        let newBytes = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        newBytes.copyMemory(from: bytes, byteCount: used)
        bytes.deallocate()
        bytes = newBytes
        capacity = newCapacity
    }

    /// Room for more field ends; never beyond `maxFields`, which `checkFieldCount` enforces.
    private func growEnds() {
        let newCapacity = min(endsCapacity * 2, limits.maxFields)
        precondition(newCapacity > endsCapacity, "more fields than the limit")
        let newEnds = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        newEnds.update(from: ends, count: fieldCount)
        ends.deallocate()
        ends = newEnds
        endsCapacity = newCapacity
    }

    private func fieldTooLong(_ source: UnsafePointer<UInt8>, _ length: Int, at index: Int) -> ParseFailure {
        let limit = Self.size(limits.maxFieldBytes)
        if state == .quoted || state == .quotedAfterCR || state == .quoteInQuoted {
            return ParseFailure(
                kind: .malformed, line: quoteLine, column: quoteColumn, byteOffset: Int64(quoteOffset),
                message: "the quoted field \(fieldCount + 1) that opens here is longer than \(limit): "
                    + "a quote is probably not closed")
        }
        let place = position(ofByte: limits.maxFieldBytes - (used - fieldStart), of: source, length, endingAt: index)
        return ParseFailure(
            kind: .malformed, at: place,
            message: "field \(fieldCount + 1) of the record that starts at line \(recordLine) is longer than \(limit): "
                + "this is not a step export, or its separator is not a comma")
    }

    /// The place of byte `byte` of a run of `length` bytes that ends at `index` in the current
    /// chunk, the run's continuation bytes being counted already (a run never holds a line break).
    private func position(ofByte byte: Int, of source: UnsafePointer<UInt8>, _ length: Int,
                          endingAt index: Int) -> SourcePosition {
        var later = 0
        for value in UnsafeBufferPointer(start: source + byte, count: length - byte) where value & 0xC0 == 0x80 {
            later += 1
        }
        let chunkIndex = index - length + byte
        return SourcePosition(line: line, column: column(at: chunkIndex) + later, byteOffset: Int64(offset + chunkIndex))
    }

    private static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
