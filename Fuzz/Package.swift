// swift-tools-version:6.0
import PackageDescription

/// libFuzzer targets for stepimport's parsers (issue 11). Built and run by `scripts/fuzz`, which
/// passes `--sanitize=fuzzer` (and `address`) to every module, the main package's included, so
/// that the code under test is instrumented; `swift build` of this package without the sanitizer
/// does not link (nothing defines `main`), and the main package's own build never sees this folder.
///
/// Each target is one file that exports `LLVMFuzzerTestOneInput`; `FuzzSupport` holds what they share.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
    ("fuzz-apple-xml", [.product(name: "ExportParsers", package: "stepimport")]),
    ("fuzz-apple-pieces", [.product(name: "ExportParsers", package: "stepimport")]),
    ("fuzz-json-tokenizer", []),
    ("fuzz-hc-json", [.product(name: "ExportParsers", package: "stepimport")]),
    ("fuzz-csv-tokenizer", []),
    ("fuzz-step-csv", [.product(name: "ExportParsers", package: "stepimport")]),
    ("fuzz-takeout", [.product(name: "ExportParsers", package: "stepimport")]),
    ("fuzz-samsung", [.product(name: "ExportParsers", package: "stepimport")]),
    ("fuzz-hc-sqlite", [.product(name: "ExportParsers", package: "stepimport")]),
    ("fuzz-zip", [.product(name: "ExportParsers", package: "stepimport")]),
    ("fuzz-manifest", [.product(name: "Batch", package: "stepimport")]),
    ("fuzz-http-response", [.product(name: "BackendUpload", package: "stepimport"),
                            .product(name: "HTTPClient", package: "stepimport")]),
]

let package = Package(
    name: "stepimport-fuzz",
    dependencies: [
        // The main package, by local path: nothing is fetched.
        .package(name: "stepimport", path: ".."),
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "ExportParsers", package: "stepimport")]
        ),
    ] + fuzzTargets.map { target in
        .executableTarget(
            name: target.name,
            dependencies: ["FuzzSupport"] + target.dependencies,
            path: "Sources/\(target.name)",
            // No top-level code: libFuzzer's own main() drives LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    }
)
