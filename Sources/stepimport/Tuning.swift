import ExportInput

/// Settings for tests and benchmarks, from the environment: `STEPIMPORT_PARSE_WORKERS` (0 to 16
/// Apple parse threads; 0 parses on the reading thread's partner only) and `STEPIMPORT_PIECE_SIZE`
/// (bytes of XML per piece, at least 1, so that tests can cut small inputs into many pieces) and
/// `STEPIMPORT_INFLATE` (`zlib` reads deflated zip entries through libzip's zlib instead of ISA-L,
/// a diagnostic for comparing the two; `isal`, the default) and `STEPIMPORT_SCHEDULING` (`default`
/// keeps Linux's default policy instead of `SCHED_BATCH`, for the benchmark to compare them) and
/// `STEPIMPORT_LIBCURL` (the libcurl file to load instead of `libcurl.so.4`, so that tests can
/// run without one). Values out of range are ignored.
struct Tuning {
    let parseWorkers: Int?
    let pieceSize: Int?
    let inflater: ZipInflater?
    /// Whether the process runs under `SCHED_BATCH` (`ThroughputScheduling`).
    let batchScheduling: Bool
    /// The libcurl file `HTTPClient` loads; nil (unset or empty) for `libcurl.so.4`.
    let libcurlPath: String?

    init(environment: [String: String]) {
        parseWorkers = environment["STEPIMPORT_PARSE_WORKERS"].flatMap(Int.init).flatMap { (0...16).contains($0) ? $0 : nil }
        pieceSize = environment["STEPIMPORT_PIECE_SIZE"].flatMap(Int.init).flatMap { $0 >= 1 ? $0 : nil }
        inflater = switch environment["STEPIMPORT_INFLATE"] {
        case "zlib": .zlib
        case "isal": .isal
        default: nil
        }
        batchScheduling = environment["STEPIMPORT_SCHEDULING"] != "default"
        libcurlPath = environment["STEPIMPORT_LIBCURL"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
