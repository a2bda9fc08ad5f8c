import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

/// The body fast path (eight bytes at a time) drops exactly the bytes a byte-by-byte filter drops,
/// wherever they fall in a word and however the input is cut.
@Suite struct AppleXMLPrefilterBodyTests {
    /// The rule, one byte at a time.
    static func reference(_ body: [UInt8]) -> [UInt8] {
        body.filter { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// A body with every byte value below 0x20 and a few above, at every offset within a word.
    static func body(seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes: [UInt8] = []
        for index in 0..<700 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let roll = Int(state >> 33) % 10
            if roll == 0 {
                bytes.append(UInt8((state >> 40) % 0x20))          // any control, TAB, LF, CR
            } else if roll == 1 {
                bytes.append(UInt8(0x80 + (state >> 40) % 0x80))  // high bytes (UTF-8)
            } else {
                bytes.append(UInt8(0x20 + index % 0x5F))
            }
        }
        return bytes
    }

    @Test(arguments: [1, 2, 3, 7, 8, 9, 64, 1000])
    func dropsExactlyTheStrayControls(chunk: Int) {
        for seed in 1...20 as ClosedRange<UInt64> {
            let body = Self.body(seed: seed)
            let input = Array("<HealthData>".utf8) + body
            var filter = AppleXMLPrefilter()
            var output: [UInt8] = []
            var start = 0
            while start < input.count {
                let end = min(input.count, start + chunk)
                output += filter.filter(Array(input[start..<end]), final: end == input.count)
                start = end
            }
            let expected = Array("<HealthData>".utf8) + Self.reference(body)
            #expect(output == expected, "seed \(seed), chunks of \(chunk)")
            #expect(filter.droppedControlCharacters == body.count - Self.reference(body).count)
        }
    }

    /// Sparse controls among long clean runs, line feeds and carriage returns (the 64-byte scan's
    /// cases: no byte below 0x20, only line ends, a control), filtered in place as the reader
    /// does and copied: both drop exactly the reference's bytes.
    @Test(arguments: [5, 64, 100, 4096])
    func inPlaceAndCopiedDropTheSameSparseControls(chunk: Int) {
        var state: UInt64 = 99
        var body: [UInt8] = []
        for index in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            switch Int(state >> 33) % 400 {
            case 0: body.append(UInt8((state >> 40) % 0x20))
            case 1...6: body.append(0x0A)
            case 7: body.append(0x0D)
            default: body.append(UInt8(0x20 + index % 0x5F))
            }
        }
        let head = Array("<HealthData>".utf8)
        let expected = head + Self.reference(body)
        #expect(expected.count < head.count + body.count - 20, "controls were dropped")
        var copying = AppleXMLPrefilter()
        let copied = copying.filter(head + body)
        #expect(copied == expected)
        var inPlace = AppleXMLPrefilter()
        var output = inPlace.filter(head, final: false)
        #expect(inPlace.isInBody)
        var start = 0
        while start < body.count {
            var piece = Array(body[start..<min(body.count, start + chunk)])
            let kept = piece.withUnsafeMutableBytes { inPlace.filterInPlace($0) }
            output += piece[..<kept]
            start += chunk
        }
        #expect(output == expected, "in place, chunks of \(chunk)")
        #expect(inPlace.droppedControlCharacters == copying.droppedControlCharacters)
        #expect(inPlace.dropped == copying.dropped, "the same places recorded")
    }
}
