import Batch
import FuzzSupport

/// The batch manifest (one CSV row per account: account, file, kind, token_file or token_env,
/// tz): `BatchManifest(parsing:...)` on the bytes, with an environment that holds one token.
/// A manifest it accepts holds distinct account names and absolute file paths.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    do throws(BatchError) {
        let manifest = try BatchManifest(parsing: bytes, path: "/fuzz/accounts.csv", directory: "/fuzz",
                                         environment: ["TOKEN_A": "token-a", "EMPTY": ""])
        expect(Set(manifest.accounts.map(\.account)).count == manifest.accounts.count, "two accounts of one name")
        expect(manifest.accounts.allSatisfy { $0.file.hasPrefix("/") }, "a file path that is not absolute")
        blackHole(manifest.warnings)
    } catch {
        blackHole(error.description)
    }
    return 0
}
