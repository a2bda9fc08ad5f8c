@testable import BackendUpload
import Testing
@testable import stepimport

/// The executable resolves where to post and with which token from its options and the environment.
@Suite struct UploadConfigurationTests {
    @Test func theTokenComesFromTheEnvironmentOrAFileAndNeverShows() throws {
        let configuration = try UploadConfiguration.resolve(apiURL: "https://api.example.com", tokenFile: nil,
                                                            caCertificateFile: nil,
                                                            environment: ["STEPIMPORT_TOKEN": "s3cr3t-token\n"])
        #expect(configuration.token.value == "s3cr3t-token")
        #expect("\(configuration.token)" == "<token>")
        #expect(String(reflecting: configuration.token) == "<token>")
        #expect(!"\(configuration)".contains("s3cr3t"))
    }

    @Test(arguments: [
        (nil as String?, ["STEPIMPORT_TOKEN": "t"], "no API URL"),
        ("https://api.example.com", [:], "no token"),
        ("http://api.example.com", ["STEPIMPORT_TOKEN": "t"], "cannot be used"),
        ("ftp://127.0.0.1/", ["STEPIMPORT_TOKEN": "t"], "cannot be used"),
        ("https://api.example.com", ["STEPIMPORT_TOKEN": "two words"], "STEPIMPORT_TOKEN"),
        ("https://api.example.com", ["STEPIMPORT_TOKEN": ""], "STEPIMPORT_TOKEN"),
    ])
    func unusableConfigurationIsAConfigurationError(_ url: String?, _ environment: [String: String], _ words: String) {
        do {
            _ = try UploadConfiguration.resolve(apiURL: url, tokenFile: nil, caCertificateFile: nil, environment: environment)
            Issue.record("accepted \(String(describing: url)) \(environment.keys)")
        } catch {
            guard case .configuration(let message) = error else {
                Issue.record("expected .configuration, got \(error)")
                return
            }
            #expect(message.contains(words))
        }
    }

    @Test func plainHTTPIsAcceptedForThisComputerOnly() throws {
        for url in ["http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9/"] {
            _ = try UploadConfiguration.resolve(apiURL: url, tokenFile: nil, caCertificateFile: nil,
                                                environment: ["STEPIMPORT_TOKEN": "t"])
        }
    }
}
