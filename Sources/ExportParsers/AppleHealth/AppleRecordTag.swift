import CLibXML2
import Glibc

/// The attributes of a top-level `<Record type="...">` (or `<Workout ...>`) start tag, read
/// straight from the bytes when the tag is written plainly enough that they are what libxml2
/// would hand over.
///
/// `AppleRecordSelector` uses it for the records (and workouts) asked for: a plain tag's
/// attributes go to `AppleHealthParser.readRecord` in libxml2's SAX2 layout (five pointers an
/// attribute: name, prefix, URI, value start, value end), so the one reading of a record serves
/// both paths. Plain means: attributes `name="value"` (or `'value'`) separated by white space,
/// names of ASCII letters, digits and `_:.-`, no name twice, the tag closed by `>` or `/>`; in
/// the values the parser reads (`type`, `sourceName`, `startDate`, `endDate`, `value`, `unit`,
/// a workout's `duration` and `durationUnit`) no `&`
/// (an entity to decode), no TAB, LF or CR (XML turns them into spaces), no other control
/// character, only well-formed UTF-8 of characters XML allows; in every value no `<` and no
/// control character (the reader leaves those in the body for the worker to drop). Anything
/// else is `.notPlain` and the record goes to libxml2. The other values are checked as a record
/// left out is (`--strict-xml` reads them all with libxml2).
struct AppleRecordTag: MarkupBytes {
    enum Outcome: Equatable {
        /// The tag was read: `attributeCount` attributes, closed at `close`.
        case read
        /// Not plain (or not well-formed): libxml2 is to read the record.
        case notPlain
        /// The tag goes on past the bytes given.
        case undecided
    }

    /// At most this many attributes are read (Apple writes nine); a tag with more is not plain.
    static let capacity = 32
    /// Names longer than this are not read here (Apple's longest is 13 bytes).
    static let longestName = 64

    /// The attributes the parser reads, in libxml2's layout (the others are not handed over: the
    /// parser looks for these names only); `5 * capacity` pointers.
    let attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>
    private(set) var attributeCount = 0
    /// The `/` of `/>` or the `>` that closes the tag (where libxml2 stands when it hands the
    /// element over), and whether the element is empty.
    private(set) var close = 0
    private(set) var isEmpty = false
    /// Whether the last tag was read by `readInAppleForm` (for tests).
    private(set) var readInAppleFormLast = false
    /// Line feeds inside the tag, and the offset of the last one (-1: none).
    private(set) var lineFeeds = 0
    private(set) var lastLineFeed = -1

    /// Every attribute of the tag (read or not): a key (its length and first seven bytes) and
    /// where its name starts and ends, three words each, to find a name given twice without
    /// comparing bytes in the common case; `3 * capacity` words.
    private let seenNames: UnsafeMutablePointer<Int>
    private var seen = 0
    /// One bit for each key seen, by a hash of it.
    private var bloom: UInt64 = 0

    /// What a tag is read into: the attributes handed over and the names seen. A parser keeps
    /// one for all its pieces; a tag reads into it.
    final class Buffers {
        let attributes = UnsafeMutablePointer<UnsafePointer<xmlChar>?>.allocate(capacity: 5 * AppleRecordTag.capacity)
        let seenNames = UnsafeMutablePointer<Int>.allocate(capacity: 3 * AppleRecordTag.capacity)

        init() {
            attributes.initialize(repeating: nil, count: 5 * AppleRecordTag.capacity)
            seenNames.initialize(repeating: 0, count: 3 * AppleRecordTag.capacity)
        }

        deinit {
            attributes.deallocate()
            seenNames.deallocate()
        }
    }

    /// Keeps the buffers alive as long as the tag reads into them.
    private let buffers: Buffers

    init(into buffers: Buffers) {
        self.buffers = buffers
        attributes = buffers.attributes
        seenNames = buffers.seenNames
    }

    /// Reads the tag of the record whose `<` is at `open` and whose type, already compared,
    /// spans `typeStart..<typeEnd` (`typeEnd` is its closing `"`), up to `end`.
    ///
    /// A tag written as Apple writes it is read by `readInAppleForm`; any other (and one that
    /// form cannot decide) by `readAttributes`, from the start. `appleForm: false` (for tests)
    /// goes straight to `readAttributes`.
    mutating func read(_ base: UnsafeRawPointer, record open: Int, typeStart: Int, typeEnd: Int, end: Int,
                       appleForm: Bool = true) -> Outcome {
        if appleForm {
            reset()
            store(name: AppleRecordTag.typeName, base, typeStart, typeEnd)
            if let outcome = readInAppleForm(base, from: typeEnd + 1, end: end) {
                readInAppleFormLast = true
                return outcome
            }
        }
        readInAppleFormLast = false
        reset()
        // "type" is known: `<Record type="` was matched.
        note(key: AppleRecordTag.key(base, open + 8, 4, end: end), nameAt: (open + 8, open + 12))
        store(name: AppleRecordTag.typeName, base, typeStart, typeEnd)
        return readAttributes(base, from: typeEnd + 1, end: end)
    }

    /// Reads the tag of the element whose name ends at `nameEnd` (a `Workout`), up to `end`.
    mutating func read(_ base: UnsafeRawPointer, element nameEnd: Int, end: Int) -> Outcome {
        readInAppleFormLast = false
        reset()
        return readAttributes(base, from: nameEnd, end: end)
    }

    @inline(__always)
    private mutating func reset() {
        attributeCount = 0
        seen = 0
        bloom = 0
        lineFeeds = 0
        lastLineFeed = -1
    }

    /// Reads a record's attributes after its type when they are written as Apple writes them:
    /// each after one space, one of the names of `appleName` followed by `="`, no name twice, and
    /// the tag closed by `/>` or `>` right after a value. Such a tag is plain as
    /// `readAttributes` means it (names of name bytes, none twice, quoted values), so the values
    /// alone are looked at, as `readAttributes` looks at them. nil when the tag is written
    /// otherwise: `readAttributes` decides.
    ///
    /// For a step record it takes about half the instructions of `readAttributes`, which finds
    /// each name's end, makes a key of it, looks it up and keeps it to find names given twice.
    private mutating func readInAppleForm(_ base: UnsafeRawPointer, from start: Int, end: Int) -> Outcome? {
        var index = start
        var block = Int.min
        var specials: UInt64 = 0
        var names: UInt32 = 0
        while index < end {
            switch base.load(fromByteOffset: index, as: UInt8.self) {
            case UInt8(ascii: " "): break
            case UInt8(ascii: "/") where index + 1 < end && base.load(fromByteOffset: index + 1, as: UInt8.self) == UInt8(ascii: ">"):
                close = index
                isEmpty = true
                return .read
            case UInt8(ascii: ">"):
                close = index
                isEmpty = false
                return .read
            default: return nil
            }
            let word0 = AppleRecordTag.word(base, index + 1, end: end)
            let word1 = AppleRecordTag.word(base, index + 9, end: end)
            guard let known = AppleRecordTag.appleName(word0, word1), names & known.bit == 0 else { return nil }
            names |= known.bit
            let valueStart = index + 1 + known.length
            let valueEnd: Int
            if let name = known.read {
                guard case .at(let at) = readValue(base, from: valueStart, quote: UInt8(ascii: "\""), end: end) else {
                    return nil
                }
                store(name: name, base, valueStart, at)
                valueEnd = at
            } else {
                guard case .at(let at) = passValue(base, from: valueStart, quote: UInt8(ascii: "\""), end: end,
                                                   block: &block, specials: &specials) else { return nil }
                valueEnd = at
            }
            index = valueEnd + 1
        }
        return nil
    }

    /// Which of the names Apple writes in a record's tag (after its type) the bytes at a name's
    /// start hold, with `="` after it, given as the two little-endian words there: the bytes the
    /// name and `="` take (`length`), a bit of its own, and the parser's name when the parser
    /// reads the attribute. nil for any other name, or another way of writing one of these.
    @inline(__always)
    static func appleName(_ word0: UInt64, _ word1: UInt64)
        -> (length: Int, bit: UInt32, read: UnsafePointer<xmlChar>?)? {
        // Each name is told by its first four bytes (sourceName and sourceVersion by the seventh),
        // then compared whole: the literal bytes of `name="`, eight to a word, low byte first.
        switch UInt32(truncatingIfNeeded: word0) {
        case 0x7275_6F73:  // "sour"
            if word0 == 0x614E_6563_7275_6F73 && word1 & 0xFFFF_FFFF == 0x223D_656D {
                return (12, 1 << 0, ("sourceName" as StaticString).utf8Start)
            }
            if word0 == 0x6556_6563_7275_6F73 && word1 & 0x00FF_FFFF_FFFF_FFFF == 0x0022_3D6E_6F69_7372 {
                return (15, 1 << 1, nil)  // sourceVersion
            }
            return nil
        case 0x6976_6564:  // "devi"
            return word0 == 0x223D_6563_6976_6564 ? (8, 1 << 2, nil) : nil
        case 0x7469_6E75:  // "unit"
            return word0 & 0xFFFF_FFFF_FFFF == 0x223D_7469_6E75 ? (6, 1 << 3, ("unit" as StaticString).utf8Start) : nil
        case 0x6165_7263:  // "crea"
            return word0 == 0x6E6F_6974_6165_7263 && word1 & 0xFFFF_FFFF_FFFF == 0x223D_6574_6144 ? (14, 1 << 4, nil) : nil
        case 0x7261_7473:  // "star"
            return word0 == 0x7461_4474_7261_7473 && word1 & 0xFF_FFFF == 0x22_3D65
                ? (11, 1 << 5, ("startDate" as StaticString).utf8Start) : nil
        case 0x4464_6E65:  // "endD"
            return word0 == 0x3D65_7461_4464_6E65 && word1 & 0xFF == 0x22
                ? (9, 1 << 6, ("endDate" as StaticString).utf8Start) : nil
        case 0x756C_6176:  // "valu"
            return word0 & 0xFF_FFFF_FFFF_FFFF == 0x22_3D65_756C_6176 ? (7, 1 << 7, ("value" as StaticString).utf8Start) : nil
        default:
            return nil
        }
    }

    /// The eight bytes at `start` as a little-endian word; those at `end` or past it are zero
    /// (no byte of a name Apple writes is).
    @inline(__always)
    private static func word(_ base: UnsafeRawPointer, _ start: Int, end: Int) -> UInt64 {
        if start + 8 <= end { return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self)) }
        var word: UInt64 = 0
        var at = start
        while at < end {
            word |= UInt64(base.load(fromByteOffset: at, as: UInt8.self)) << UInt64(8 * (at - start))
            at += 1
        }
        return word
    }

    /// Where a value ends (the index of its closing quote), or why it was not read.
    enum ValueEnd: Equatable {
        case at(Int)
        case notPlain
        case undecided
    }

    /// Reads a value the parser reads, from `start` to its `quote`: every byte is looked at,
    /// sixteen at a time where there are sixteen. No `&` (an entity to decode), no byte below
    /// 0x20 (XML turns TAB, LF and CR into spaces; the others are control characters), no `<`,
    /// and, when there is a byte of a multi-byte character, well-formed UTF-8 of characters XML
    /// allows (`isXMLText`).
    @inline(__always)
    private func readValue(_ base: UnsafeRawPointer, from start: Int, quote: UInt8, end: Int) -> ValueEnd {
        var at = start
        var ascii = true
        while true {
            if at + 16 <= end {
                let stops = AppleRecordTag.valueStops(base + at, quote: quote)
                guard stops != 0 else {
                    at += 16
                    continue
                }
                at += stops.trailingZeroBitCount
            }
            guard at < end else { return .undecided }
            let byte = base.load(fromByteOffset: at, as: UInt8.self)
            if byte == quote { break }
            if byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") { return .notPlain }
            if byte >= 0x80 { ascii = false }
            at += 1
        }
        if !ascii && !AppleRecordTag.isXMLText(base, from: start, to: at) { return .notPlain }
        return .at(at)
    }

    /// Passes a value the parser does not read, from `start` to its `quote`: only its quote,
    /// `<`, line feeds (counted) and control characters matter. `block` and `specials` carry
    /// `AppleRecordSelector.nextSpecial`'s 64 bytes from one value to the next of the tag.
    @inline(__always)
    private mutating func passValue(_ base: UnsafeRawPointer, from start: Int, quote: UInt8, end: Int,
                                    block: inout Int, specials: inout UInt64) -> ValueEnd {
        var at = start
        while true {
            at = AppleRecordSelector.nextSpecial(base, from: at, to: end, block: &block, bits: &specials)
            guard at < end else { return .undecided }
            let byte = base.load(fromByteOffset: at, as: UInt8.self)
            if byte == quote { return .at(at) }
            if byte == UInt8(ascii: "<") { return .notPlain }
            if byte == 0x0A { notice(base, at) }
            // A control character (the reader leaves them in the body): the record goes to
            // libxml2, after the worker dropped them (`AppleRecordSelector.sawControl`).
            if AppleXMLPrefilter.isControl(byte) { return .notPlain }
            at += 1
        }
    }

    private mutating func readAttributes(_ base: UnsafeRawPointer, from start: Int, end: Int) -> Outcome {
        var index = start
        var block = Int.min
        var specials: UInt64 = 0
        while true {
            let spaceStart = index
            while index < end, isSpace(base.load(fromByteOffset: index, as: UInt8.self)) { notice(base, index); index += 1 }
            guard index < end else { return .undecided }
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") {
                if byte == UInt8(ascii: "/") {
                    guard index + 1 < end else { return .undecided }
                    guard base.load(fromByteOffset: index + 1, as: UInt8.self) == UInt8(ascii: ">") else { return .notPlain }
                }
                close = index
                isEmpty = byte == UInt8(ascii: "/")
                return .read
            }
            // An attribute: after white space, a name, `=`, a quoted value.
            guard index > spaceStart, AppleRecordTag.isNameStart(byte), seen < AppleRecordTag.capacity else {
                return .notPlain
            }
            let nameStart = index
            index += 1
            if index + 16 <= end {
                // Most names end within the next sixteen bytes.
                let length = AppleRecordTag.nameBytes(base + index)
                index += length
                if length == 16 {
                    while index < end, AppleRecordTag.isNameByte(base.load(fromByteOffset: index, as: UInt8.self)) { index += 1 }
                }
            } else {
                while index < end, AppleRecordTag.isNameByte(base.load(fromByteOffset: index, as: UInt8.self)) { index += 1 }
            }
            let nameEnd = index
            // No name the parser reads is longer; the key holds a length up to 255.
            guard nameEnd - nameStart <= AppleRecordTag.longestName else { return .notPlain }
            while index < end, isSpace(base.load(fromByteOffset: index, as: UInt8.self)) { notice(base, index); index += 1 }
            guard index < end else { return .undecided }
            guard base.load(fromByteOffset: index, as: UInt8.self) == UInt8(ascii: "=") else { return .notPlain }
            index += 1
            while index < end, isSpace(base.load(fromByteOffset: index, as: UInt8.self)) { notice(base, index); index += 1 }
            guard index < end else { return .undecided }
            let quote = base.load(fromByteOffset: index, as: UInt8.self)
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return .notPlain }
            let valueStart = index + 1
            let key = AppleRecordTag.key(base, nameStart, nameEnd - nameStart, end: end)
            let name = readName(key, base, nameStart, nameEnd - nameStart)
            let valueEnd: Int
            if name != nil {
                switch readValue(base, from: valueStart, quote: quote, end: end) {
                case .at(let at): valueEnd = at
                case .notPlain: return .notPlain
                case .undecided: return .undecided
                }
            } else {
                switch passValue(base, from: valueStart, quote: quote, end: end, block: &block, specials: &specials) {
                case .at(let at): valueEnd = at
                case .notPlain: return .notPlain
                case .undecided: return .undecided
                }
            }
            // A name given twice is libxml2's error to report. The bloom of the keys seen tells
            // in one test that most names are new; the same length and first bytes then have
            // their names compared whole.
            let bit = UInt64(1) << ((key &* 0x9E37_79B9_7F4A_7C15) >> 58)
            if bloom & bit != 0 {
                for earlier in 0..<seen where UInt64(bitPattern: Int64(seenNames[3 * earlier])) == key {
                    let otherStart = seenNames[3 * earlier + 1]
                    let otherEnd = seenNames[3 * earlier + 2]
                    if otherEnd - otherStart == nameEnd - nameStart
                        && memcmp(base + otherStart, base + nameStart, nameEnd - nameStart) == 0 { return .notPlain }
                }
            }
            note(key: key, nameAt: (nameStart, nameEnd))
            if let name { store(name: name, base, valueStart, valueEnd) }
            index = valueEnd + 1
            // XML wants white space, `/` or `>` after a value.
            guard index < end else { return .undecided }
        }
    }

    @inline(__always)
    private mutating func note(key: UInt64, nameAt span: (Int, Int)) {
        bloom |= UInt64(1) << ((key &* 0x9E37_79B9_7F4A_7C15) >> 58)
        seenNames[3 * seen] = Int(Int64(bitPattern: key))
        seenNames[3 * seen + 1] = span.0
        seenNames[3 * seen + 2] = span.1
        seen += 1
    }

    @inline(__always)
    private mutating func store(name: UnsafePointer<xmlChar>, _ base: UnsafeRawPointer, _ start: Int, _ end: Int) {
        let slot = attributeCount * 5
        attributes[slot] = name
        attributes[slot + 1] = nil
        attributes[slot + 2] = nil
        attributes[slot + 3] = (base + start).assumingMemoryBound(to: xmlChar.self)
        attributes[slot + 4] = (base + end).assumingMemoryBound(to: xmlChar.self)
        attributeCount += 1
    }

    @inline(__always)
    private mutating func notice(_ base: UnsafeRawPointer, _ index: Int) {
        if base.load(fromByteOffset: index, as: UInt8.self) == 0x0A {
            lineFeeds += 1
            lastLineFeed = index
        }
    }

    // MARK: - Names

    /// The names the parser reads (of records and workouts), as the NUL-terminated literals it
    /// compares with `strcmp`.
    static var typeName: UnsafePointer<xmlChar> { ("type" as StaticString).utf8Start }

    /// The parser's name for the attribute whose name has `key` and is at `start`, nil when the
    /// parser reads no such attribute: the key (`key(_:_:_:end:)` of the name, written out)
    /// tells, the bytes past its seven confirm.
    @inline(__always)
    private func readName(_ key: UInt64, _ base: UnsafeRawPointer, _ start: Int, _ length: Int) -> UnsafePointer<xmlChar>? {
        let name: StaticString
        switch key {
        case 0x0400_0000_6570_7974: return AppleRecordTag.typeName
        case 0x0A4E_6563_7275_6F73: name = "sourceName"
        case 0x0961_4474_7261_7473: name = "startDate"
        case 0x0765_7461_4464_6E65: return ("endDate" as StaticString).utf8Start
        case 0x0500_0065_756C_6176: return ("value" as StaticString).utf8Start
        case 0x0400_0000_7469_6E75: return ("unit" as StaticString).utf8Start
        case 0x086F_6974_6172_7564: name = "duration"
        case 0x0C6F_6974_6172_7564: name = "durationUnit"
        default: return nil
        }
        return memcmp(base + start + 7, name.utf8Start + 7, length - 7) == 0 ? name.utf8Start : nil
    }

    /// The length of a name and its first seven bytes (fewer when shorter); `end` bounds the
    /// bytes that may be loaded eight at a time.
    @inline(__always)
    private static func key(_ base: UnsafeRawPointer, _ start: Int, _ length: Int, end: Int) -> UInt64 {
        let kept = min(length, 7)
        return UInt64(length) << 56 | (kept == 0 ? 0 : word(base, start, end: end) & (~UInt64(0) >> UInt64(64 - 8 * kept)))
    }

    /// ASCII letters, `_` and `:` (bits of bytes 0-63, and of bytes 64-127 less 64).
    @inline(__always)
    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte < 64 ? byte == UInt8(ascii: ":") : byte < 128 && (0x07FF_FFFE_87FF_FFFE >> UInt64(byte - 64)) & 1 != 0
    }

    /// A name's start, digits, `-` and `.`.
    @inline(__always)
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte < 64 ? (0x07FF_6000_0000_0000 >> UInt64(byte)) & 1 != 0
            : byte < 128 && (0x07FF_FFFE_87FF_FFFE >> UInt64(byte - 64)) & 1 != 0
    }

    // MARK: - Text

    /// How many of the 16 bytes at `base` continue a name (`isNameByte`) before one does not.
    @inline(__always)
    private static func nameBytes(_ base: UnsafeRawPointer) -> Int {
        // One operation a line, with literal bytes: the form the compiler turns into vector code.
        let bytes = base.loadUnaligned(as: SIMD16<UInt8>.self)
        let folded = bytes | SIMD16<UInt8>(repeating: 0x20)
        let letters = (folded &- SIMD16<UInt8>(repeating: 0x61)) .< SIMD16<UInt8>(repeating: 26)
        let digitsOrColons = (bytes &- SIMD16<UInt8>(repeating: 0x30)) .< SIMD16<UInt8>(repeating: 11)
        let dashesOrDots = (bytes &- SIMD16<UInt8>(repeating: 0x2D)) .< SIMD16<UInt8>(repeating: 2)
        let underscores = bytes .== SIMD16<UInt8>(repeating: 0x5F)
        let found = letters .| digitsOrColons .| dashesOrDots .| underscores
        let bits = ByteLanes.bits(found)
        return (~bits).trailingZeroBitCount
    }

    /// One bit for each of the 16 bytes at `base` that ends or spoils a value the parser reads:
    /// its quote, a control character, `&`, `<`, or a byte of a multi-byte character.
    @inline(__always)
    private static func valueStops(_ base: UnsafeRawPointer, quote: UInt8) -> UInt64 {
        // One compare a line, with literal bytes: the form the compiler turns into vector code.
        let bytes = base.loadUnaligned(as: SIMD16<UInt8>.self)
        let quotes = bytes .== SIMD16<UInt8>(repeating: quote)
        let controls = bytes .< SIMD16<UInt8>(repeating: 0x20)
        let ampersands = bytes .== SIMD16<UInt8>(repeating: 0x26)
        let opens = bytes .== SIMD16<UInt8>(repeating: 0x3C)
        let high = bytes .>= SIMD16<UInt8>(repeating: 0x80)
        let found = quotes .| controls .| ampersands .| opens .| high
        return ByteLanes.bits(found)
    }

    /// Whether `start..<end` is well-formed UTF-8 of characters XML 1.0 allows (no control
    /// characters but TAB, LF, CR; no surrogates; not U+FFFE or U+FFFF; nothing past U+10FFFF).
    static func isXMLText(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Bool {
        var index = start
        while index < end {
            let lead = base.load(fromByteOffset: index, as: UInt8.self)
            if lead < 0x80 {
                if lead < 0x20 && lead != 0x09 && lead != 0x0A && lead != 0x0D { return false }
                index += 1
                continue
            }
            let length: Int
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F)
            case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F)
            case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07)
            default: return false
            }
            guard end - index >= length else { return false }
            for offset in 1..<length {
                let byte = base.load(fromByteOffset: index + offset, as: UInt8.self)
                guard byte & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            let shortest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
            guard scalar >= shortest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar),
                  scalar != 0xFFFE, scalar != 0xFFFF else { return false }
            index += length
        }
        return true
    }
}
