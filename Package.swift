// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "stepimport",
    products: [
        .executable(name: "stepimport", targets: ["stepimport"]),
        .executable(name: "stepimport-synth", targets: ["stepimport-synth"]),
        .library(name: "ExportParsers", targets: ["ExportParsers"]),
        .library(name: "HTTPClient", targets: ["HTTPClient"]),
        .library(name: "BackendUpload", targets: ["BackendUpload"]),
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
        // Debian's SQLite (libsqlite3-dev), for Health Connect's own export database.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The core: days of health data and their rules (dates, offsets, zones, samples, duplicates,
        // day buckets, the highest-source rule, record problems). No C library.
        .target(
            name: "HealthDays"
        ),
        // Streaming text: the JSON and CSV tokenizers (push-style) and the one JSON string writer.
        .target(
            name: "StreamingText",
            dependencies: ["HealthDays"]
        ),
        // Input: byte streams (files, standard input, zip entries through libzip), temporary spools.
        .target(
            name: "ExportInput",
            dependencies: ["HealthDays", "CLibZip"]
        ),
        // The format readers, one folder per family (Apple Health, Health Connect, Google Fit).
        .target(
            name: "ExportParsers",
            dependencies: ["HealthDays", "StreamingText", "ExportInput", "CLibXML2", "CSQLite"]
        ),
        // Typed wrappers for libcurl's variadic calls (Debian's libcurl4-openssl-dev), which
        // Swift cannot call directly.
        .target(
            name: "CCurlShim",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        // A small HTTPS client over libcurl: system CA store or a private CA, timeouts, no
        // redirects (a bearer token never travels to another host).
        .target(
            name: "HTTPClient",
            dependencies: ["CCurlShim"]
        ),
        // Posting day totals to the backend: checks, batches, retries, plan and report.
        .target(
            name: "BackendUpload",
            dependencies: ["HealthDays", "StreamingText", "HTTPClient"]
        ),
        .executableTarget(
            name: "stepimport",
            dependencies: ["HealthDays", "StreamingText", "ExportParsers", "BackendUpload"]
        ),
        // Deterministic generator of synthetic exports for samples, tests and benchmarks.
        .executableTarget(
            name: "stepimport-synth",
            dependencies: ["CLibZip", "CSQLite"]
        ),
        // What the tests share: a sink that records what a reader hands over, the fixture paths.
        .target(
            name: "TestSupport",
            dependencies: ["HealthDays"],
            path: "Tests/TestSupport"
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
            dependencies: ["ExportParsers", "ExportInput", "HealthDays", "TestSupport"]
        ),
        .testTarget(
            name: "HTTPClientTests",
            dependencies: ["HTTPClient"]
        ),
        .testTarget(
            name: "BackendUploadTests",
            dependencies: ["BackendUpload", "HealthDays"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["stepimport", "stepimport-synth", "TestSupport"],
            exclude: ["Golden"]
        ),
    ]
)
