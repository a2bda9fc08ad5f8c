import Foundation
import Testing

/// The contract server's own tests (stdlib unittest): it must implement the documented API,
/// or the upload tests that rely on it would prove nothing.
@Suite struct ContractServerSelfTests {
    @Test func theContractServerPassesItsOwnTests() throws {
        let script = GoldenTests.packageRoot.appendingPathComponent("scripts/test_contract_server.py").path
        let result = try CommandRunner.run("PYTHONDONTWRITEBYTECODE=1 python3 '\(script)' 2>&1")
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(output.suffix(3000))")
        #expect(output.contains("OK"))
    }
}
