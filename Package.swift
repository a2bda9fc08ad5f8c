// swift-tools-version:6.0
import PackageDescription

/// The libraries' generic code (the JSON tokenizer driving a reader's handler, the day rules) is
/// specialized and inlined into the modules that use it: without this, a 50 MB JSON dump costs 6%
/// more instructions (protocol witness calls per token).
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "stepimport",
    products: [
        .executable(name: "stepimport", targets: ["stepimport"]),
        .executable(name: "stepimport-synth", targets: ["stepimport-synth"]),
        .library(name: "ExportParsers", targets: ["ExportParsers"]),
        .library(name: "HTTPClient", targets: ["HTTPClient"]),
        .library(name: "BackendUpload", targets: ["BackendUpload"]),
        .library(name: "Batch", targets: ["Batch"]),
        .library(name: "Outputs", targets: ["Outputs"]),
    ],
    targets: [
        // Debian's libxml2 (libxml2-dev) behind a shim header that hides its ICU
        // dependency, which would clash with Foundation's own copy of ICU.
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // Debian's libzip (libzip-dev).
        .systemLibrary(
            name: "CLibZip",
            path: "Sources/CLibZip",
            pkgConfig: "libzip",
            providers: [.apt(["libzip-dev"])]
        ),
        // Debian's ISA-L (libisal-dev): igzip's raw inflate and CRC-32, for deflated zip entries.
        .systemLibrary(
            name: "CISAL",
            path: "Sources/CISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]
        ),
        // Debian's SQLite (libsqlite3-dev), for Health Connect's own export database.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The system calls stepimport makes (files, standard streams, Ctrl-C), in one small
        // place; Linux only.
        .target(
            name: "Platform"
        ),
        // Text from files and servers made fit to show: the one definition of a control character,
        // the one escaping function, the one redaction of credentials. No dependencies.
        .target(
            name: "DisplayText"
        ),
        // The core: days of health data and their rules (dates, offsets, zones, samples, duplicates,
        // day buckets, the highest-source rule, record problems). No C library.
        .target(
            name: "HealthDays",
            dependencies: ["DisplayText", "Platform"],
            swiftSettings: crossModule
        ),
        // Streaming text: the JSON and CSV tokenizers (push-style) and the one JSON string writer.
        .target(
            name: "StreamingText",
            dependencies: ["DisplayText", "HealthDays"],
            swiftSettings: crossModule
        ),
        // Input: byte streams (files, standard input, zip entries through libzip), temporary spools.
        .target(
            name: "ExportInput",
            dependencies: ["HealthDays", "Platform", "CLibZip", "CISAL"],
            swiftSettings: crossModule
        ),
        // The command-line layer both executables share: one table of options per command, from
        // which parsing, the usage lines and --help are derived.
        .target(
            name: "CommandLineKit",
            dependencies: ["DisplayText"]
        ),
        // Byte scans of XML markup in C, for what Swift's SIMD types do not give: a vector's lanes
        // as a bit mask in one instruction, and AVX2 chosen at run time (x86-64; elsewhere the
        // Swift scans serve).
        .target(
            name: "CMarkupScan"
        ),
        // The format readers, one folder per family (Apple Health, Health Connect, Fitbit, Google
        // Fit), and the one importer that turns recognised inputs into results.
        .target(
            name: "ExportParsers",
            dependencies: ["HealthDays", "StreamingText", "ExportInput", "Platform", "CLibXML2", "CSQLite", "CMarkupScan"]
        ),
        // libcurl (Debian's libcurl4-openssl-dev for its headers), opened with dlopen when first
        // needed rather than linked, and typed wrappers for its variadic calls, which Swift
        // cannot call directly.
        .target(
            name: "CCurlShim"
        ),
        // The commit a build was made from, given on the command line by `scripts/package`
        // (-Xcc -DSTEPIMPORT_COMMIT=...), for `stepimport --version`.
        .target(
            name: "CBuildInfo"
        ),
        // A small HTTPS client over libcurl: system CA store or a private CA, timeouts, no
        // redirects (a bearer token never travels to another host).
        .target(
            name: "HTTPClient",
            dependencies: ["CCurlShim", "DisplayText"]
        ),
        // Posting day totals to the backend: checks, batches, retries, plan and report.
        .target(
            name: "BackendUpload",
            dependencies: ["DisplayText", "HealthDays", "StreamingText", "HTTPClient"]
        ),
        // Many accounts at once: the manifest, shards, the journal, and the scheduler that runs each
        // account through the one importer and the one uploader.
        .target(
            name: "Batch",
            dependencies: ["DisplayText", "HealthDays", "StreamingText", "ExportParsers", "BackendUpload", "HTTPClient", "Platform"]
        ),
        // The outputs: day totals, metric days, the upload plan and the inspection, as a table, JSON
        // or CSV, each written to a byte sink (standard output, a file put in place when complete,
        // memory) as it goes, and the days as an SQLite database (Debian's libsqlite3); the format
        // is chosen in one place (`OutputFormat.textWriter`). The single-file commands and batch share it.
        .target(
            name: "Outputs",
            dependencies: ["DisplayText", "HealthDays", "StreamingText", "BackendUpload", "ExportParsers", "Platform", "CSQLite"]
        ),
        .executableTarget(
            name: "stepimport",
            dependencies: ["DisplayText", "HealthDays", "StreamingText", "ExportInput", "ExportParsers", "HTTPClient", "BackendUpload",
                           "Batch", "CommandLineKit", "Outputs", "Platform", "CBuildInfo"]
        ),
        // Deterministic generator of synthetic exports for samples, tests and benchmarks.
        .executableTarget(
            name: "stepimport-synth",
            dependencies: ["CLibZip", "CSQLite", "CommandLineKit", "Platform"]
        ),
        // What the tests share: a sink that records what a reader hands over, the fixture paths.
        .target(
            name: "TestSupport",
            dependencies: ["HealthDays"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "DisplayTextTests",
            dependencies: ["DisplayText"]
        ),
        .testTarget(
            name: "PlatformTests",
            dependencies: ["Platform"]
        ),
        .testTarget(
            name: "HealthDaysTests",
            dependencies: ["HealthDays", "TestSupport"]
        ),
        .testTarget(
            name: "StreamingTextTests",
            dependencies: ["StreamingText", "HealthDays"]
        ),
        .testTarget(
            name: "ExportInputTests",
            dependencies: ["ExportInput", "HealthDays"]
        ),
        .testTarget(
            name: "ExportParsersTests",
            dependencies: ["ExportParsers", "ExportInput", "HealthDays", "TestSupport", "CMarkupScan"]
        ),
        .testTarget(
            name: "HTTPClientTests",
            dependencies: ["HTTPClient"]
        ),
        .testTarget(
            name: "BackendUploadTests",
            dependencies: ["BackendUpload", "HealthDays", "HTTPClient"]
        ),
        .testTarget(
            name: "BatchTests",
            dependencies: ["Batch", "ExportParsers", "HealthDays"]
        ),
        .testTarget(
            name: "OutputsTests",
            dependencies: ["Outputs", "BackendUpload", "HealthDays", "Platform", "CSQLite", "DisplayText"]
        ),
        .testTarget(
            name: "CommandLineKitTests",
            dependencies: ["CommandLineKit"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["stepimport", "stepimport-synth", "TestSupport", "BackendUpload"],
            exclude: ["Golden"]
        ),
    ]
)
