// The floor of any one-pass reader of the XML on this machine: the time one core needs only to
// look at every byte and mark the five that an XML structure check must see (`"`, `'`, `<`,
// `>` and anything below 0x20), sixteen bytes at a time as the selector does, with no work per
// mark. Run by scripts/scan-floor, compiled with the selector's own `ByteLanes`
// (Sources/ExportParsers/AppleHealth/MarkupBytes.swift); a measurement, not part of stepimport.
import Glibc

@inline(__always) func marks16(_ base: UnsafeRawPointer) -> UInt64 {
    let bytes = base.loadUnaligned(as: SIMD16<UInt8>.self)
    let quotes = bytes .== SIMD16<UInt8>(repeating: 0x22)
    let apostrophes = bytes .== SIMD16<UInt8>(repeating: 0x27)
    let opens = bytes .== SIMD16<UInt8>(repeating: 0x3C)
    let closes = bytes .== SIMD16<UInt8>(repeating: 0x3E)
    let low = bytes .< SIMD16<UInt8>(repeating: 0x20)
    return ByteLanes.bits(quotes .| apostrophes .| opens .| closes .| low)
}

func seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let runs = Int(arguments[2]), runs > 0 else {
    fputs("usage: scan-floor FILE RUNS\n", stderr)
    exit(2)
}
let file = open(arguments[1], O_RDONLY)
guard file >= 0 else { perror(arguments[1]); exit(1) }
var status = stat()
fstat(file, &status)
let count = Int(status.st_size)
guard count >= 64, let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE | MAP_POPULATE, file, 0),
      mapped != MAP_FAILED else { fputs("cannot map \(arguments[1])\n", stderr); exit(1) }
let base = UnsafeRawPointer(mapped)
var times: [Double] = []
var marks = 0
for _ in 0..<runs {
    let start = seconds()
    marks = 0
    var at = 0
    while at + 64 <= count {
        let word = marks16(base + at) | marks16(base + at + 16) << 16 | marks16(base + at + 32) << 32
            | marks16(base + at + 48) << 48
        marks &+= word.nonzeroBitCount
        at += 64
    }
    times.append(seconds() - start)
}
times.sort()
let median = times[times.count / 2]
/// `value` with three decimals.
func decimals(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
print("\(decimals(median)) s median of \(runs) (min \(decimals(times[0])) s) for \(count) bytes: "
      + "\(decimals(Double(count) / median / 1e9)) GB/s on one core, \(marks) marks")
