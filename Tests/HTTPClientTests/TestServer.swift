import Foundation

/// A python3 server on 127.0.0.1 (never any other address), started for one test and
/// stopped when the value goes away. It logs every connection and request it sees.
final class TestServer {
    enum Mode: String {
        /// HTTP/1.1 with keep-alive; the query string picks the answer (see `script`).
        case http
        /// The same over TLS.
        case https
        /// Accepts connections and never sends a byte.
        case stall
    }

    let port: Int
    let scheme: String
    private let process: Process
    /// The server's standard input: it exits when this closes, so a crashed test run
    /// leaves no server behind.
    private let lifeline: Pipe
    private let directory: URL
    private let logFile: URL

    init(_ mode: Mode, certificate: String? = nil, key: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("stepimport-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scriptFile = directory.appendingPathComponent("server.py")
        try Data(Self.script.utf8).write(to: scriptFile)
        logFile = directory.appendingPathComponent("log.jsonl")
        try Data().write(to: logFile)
        scheme = mode == .https ? "https" : "http"

        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptFile.path, mode.rawValue, logFile.path] + [certificate, key].compactMap { $0 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        lifeline = Pipe()
        process.standardInput = lifeline
        try process.run()

        // Wait for "READY <port>".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0] == "READY", let port = Int(words[1]) else {
            Self.stop(process)
            throw TestFailure("the \(mode) test server did not start: \(String(decoding: line, as: UTF8.self))")
        }
        self.port = port
    }

    deinit {
        try? lifeline.fileHandleForWriting.close()
        Self.stop(process)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills the server. SIGKILL, because a child of the test runner inherits its blocked
    /// signals, SIGTERM among them.
    private static func stop(_ process: Process) {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    /// `scheme://127.0.0.1:port` followed by `path`.
    func url(_ path: String = "/") -> String {
        "\(scheme)://127.0.0.1:\(port)\(path)"
    }

    /// Everything logged so far, in order.
    func events() throws -> [[String: Any]] {
        let text = try String(contentsOf: logFile, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            guard let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestFailure("bad log line \(line)")
            }
            return event
        }
    }

    /// The connections accepted so far.
    func connectionCount() throws -> Int {
        try events().filter { $0["event"] as? String == "connect" }.count
    }

    /// The requests received so far.
    func requests() throws -> [RecordedRequest] {
        try events().filter { $0["event"] as? String == "request" }.map { try RecordedRequest($0) }
    }
}

extension TestServer {
    /// The server program; kept here rather than in a .py file, which the package would
    /// have to declare as a resource.
    static let script = #"""
# Test server for HTTPClientTests. Usage: server.py MODE LOG [CERT KEY]
#   MODE http:  HTTP/1.1 with keep-alive, answering as the query string asks (see respond)
#   MODE https: the same over TLS with CERT and KEY
#   MODE stall: accepts connections and never sends a byte
# Binds 127.0.0.1 on a free port, prints "READY <port>", appends one JSON line per
# accepted connection and per request to LOG.
import base64, http.server, json, os, socket, ssl, sys, threading, time, urllib.parse

mode, log_path = sys.argv[1], sys.argv[2]
log_lock = threading.Lock()

def exit_when_orphaned():
    sys.stdin.buffer.read()  # returns when the test closes the pipe or dies
    os._exit(0)

threading.Thread(target=exit_when_orphaned, daemon=True).start()
threading.Timer(600, lambda: os._exit(0)).start()  # never outlive a test run by much

def log(entry):
    with log_lock, open(log_path, "a") as f:
        f.write(json.dumps(entry) + "\n")

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.respond()

    def do_POST(self):
        self.respond()

    def do_CONNECT(self):
        log({"event": "request", "method": "CONNECT", "path": self.path,
             "headers": [[k, v] for k, v in self.headers.items()], "body": "", "client_port": self.client_address[1]})
        self.send_response(502)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def respond(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
        request = {"event": "request", "method": self.command, "path": self.path,
                   "headers": [[k, v] for k, v in self.headers.items()],
                   "body": base64.b64encode(body).decode(), "client_port": self.client_address[1]}
        log(request)
        if "sleep" in query:
            time.sleep(float(query["sleep"]))
        if query.get("drop"):
            self.close_connection = True
            return
        if "bytes" in query:
            payload = b"x" * int(query["bytes"])
        else:
            payload = json.dumps(request).encode()
        status = int(query.get("status", "200"))
        if status in (204, 304):
            payload = b""  # these answers have no body; a client would not read one
        self.send_response(status)
        for name, value in self.headers.items():
            if name.lower().startswith("x-test-"):
                self.send_header(name, value)
        for index in range(int(query.get("header_lines", "0"))):
            self.send_header("X-Pad-%d" % index, "p" * 200)
        if "retry_after" in query:
            self.send_header("Retry-After", query["retry_after"])
        if "location" in query:
            self.send_header("Location", query["location"])
        self.send_header("Content-Type", "application/json")
        if query.get("partial"):
            self.send_header("Content-Length", str(len(payload) + 1000))
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()
            self.close_connection = True
        elif query.get("chunked"):
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(payload), 4096):
                chunk = payload[start:start + 4096]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
        else:
            if status not in (204, 304):
                self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    tls = None

    def get_request(self):
        connection, address = super().get_request()
        log({"event": "connect", "client_port": address[1]})
        if self.tls is not None:
            # The handshake happens on first use, in the connection's own thread.
            connection = self.tls.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
        return connection, address

    def handle_error(self, request, client_address):
        pass  # failed handshakes and dropped connections are what some tests are about

def stall():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print("READY %d" % listener.getsockname()[1], flush=True)
    held = []
    while True:
        connection, address = listener.accept()
        log({"event": "connect", "client_port": address[1]})
        held.append(connection)

if mode == "stall":
    stall()
else:
    server = Server(("127.0.0.1", 0), Handler)
    if mode == "https":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[3], sys.argv[4])
        server.tls = context
    print("READY %d" % server.server_address[1], flush=True)
    server.serve_forever()
"""#
}
