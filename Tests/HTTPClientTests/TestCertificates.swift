import Foundation

/// A private CA, server certificates for 127.0.0.1 signed by it, and an unrelated CA, made
/// with the openssl command line once per test run.
struct TestCertificates: Sendable {
    /// The private CA's certificate (PEM).
    let caFile: String
    /// A certificate and key for IP 127.0.0.1, signed by the private CA.
    let serverCertificate: String
    let serverKey: String
    /// A certificate and key for `wrong.example` and 127.0.0.2, signed by the private CA.
    let wrongNameCertificate: String
    let wrongNameKey: String
    /// Another CA that signed nothing here.
    let otherCAFile: String
    /// A file that is not a certificate.
    let notACertificate: String

    static let shared: Result<TestCertificates, TestFailure> = Result { () throws(TestFailure) in try make() }

    private static let config = """
        [req]
        distinguished_name = name
        prompt = no
        [name]
        CN = placeholder
        [ca]
        basicConstraints = critical,CA:TRUE
        keyUsage = critical,keyCertSign,cRLSign
        subjectKeyIdentifier = hash
        [server]
        basicConstraints = critical,CA:FALSE
        keyUsage = critical,digitalSignature
        extendedKeyUsage = serverAuth
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid
        subjectAltName = IP:127.0.0.1
        [wrong]
        basicConstraints = critical,CA:FALSE
        keyUsage = critical,digitalSignature
        extendedKeyUsage = serverAuth
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid
        subjectAltName = DNS:wrong.example,IP:127.0.0.2

        """

    /// Where the files live until the test process exits.
    private static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stepimport-certs-\(UUID().uuidString)")

    private static func make() throws(TestFailure) -> TestCertificates {
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // Clients read the CA file on every new connection, so it stays until the end.
            atexit { try? FileManager.default.removeItem(at: TestCertificates.directory) }
            try Data(config.utf8).write(to: URL(fileURLWithPath: path("openssl.cnf")))
            try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: path("junk.pem")))
        } catch {
            throw TestFailure("cannot write certificate files: \(error)")
        }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for name in ["ca", "other-ca"] {
            try openssl(["req", "-x509", "-config", path("openssl.cnf"), "-extensions", "ca", "-subj", "/CN=stepimport test \(name)", "-days", "2"]
                + key + ["-keyout", path("\(name).key"), "-out", path("\(name).pem")])
        }
        for (name, subject) in [("server", "127.0.0.1"), ("wrong", "wrong.example")] {
            try openssl(["req", "-new", "-config", path("openssl.cnf"), "-subj", "/CN=\(subject)"]
                + key + ["-keyout", path("\(name).key"), "-out", path("\(name).csr")])
            try openssl([
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                "-set_serial", name == "server" ? "2" : "3", "-days", "2", "-extfile", path("openssl.cnf"),
                "-extensions", name, "-out", path("\(name).pem"),
            ])
        }
        return TestCertificates(
            caFile: path("ca.pem"), serverCertificate: path("server.pem"), serverKey: path("server.key"),
            wrongNameCertificate: path("wrong.pem"), wrongNameKey: path("wrong.key"), otherCAFile: path("other-ca.pem"),
            notACertificate: path("junk.pem"))
    }

    private static func openssl(_ arguments: [String]) throws(TestFailure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        do {
            try process.run()
        } catch {
            throw TestFailure("cannot run openssl: \(error)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("openssl \(arguments.joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}
