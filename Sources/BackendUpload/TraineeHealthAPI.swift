import DisplayText
import HealthDays
import Foundation
import HTTPClient

/// The two routes of the backend that stepimport uses, with their answers classified.
public final class TraineeHealthAPI: Sendable {
    /// What one attempt at a request came to.
    public enum Outcome: Sendable, Equatable {
        /// The server answered as the contract says.
        case success
        /// Worth another try: 429, 5xx, a time-out or a dropped connection (`retryAfter` in
        /// seconds). `unreachable` when no answer came at all (refused, dropped, timed out).
        case retry(reason: String, retryAfter: Int?, unreachable: Bool)
    }

    private let client: HTTPClient
    private let baseURL: String
    private let token: BearerToken

    public init(configuration: UploadConfiguration, timeout: Duration = .seconds(60)) throws(UploadError) {
        do {
            client = try HTTPClient(options: HTTPClientOptions(timeout: timeout,
                                                               caCertificateFile: configuration.caCertificateFile,
                                                               userAgent: "stepimport", proxy: configuration.proxy))
        } catch {
            throw .configuration(error.description)
        }
        var base = configuration.apiURL
        while base.hasSuffix("/") { base.removeLast() }
        baseURL = base
        token = configuration.token
    }

    /// `POST /v1/trainee/health/days`; on success the `days` count the server wrote.
    public func postDays(_ days: [DayTotal]) throws(UploadError) -> (Outcome, written: Int) {
        let body = DaysRequestBody.json(days)
        let request = HTTPRequest.post(baseURL + "/v1/trainee/health/days", headers: headers(json: true), body: Array(body.utf8))
        let response: HTTPResponse
        switch try perform(request) {
        case .failure(let outcome): return (outcome, 0)
        case .success(let answer): response = answer
        }
        return try TraineeHealthAPI.answer(toPostOf: days.count, response, baseURL: baseURL, token: token)
    }

    /// What an answer to `POST /v1/trainee/health/days` for `sent` days comes to: an outcome and
    /// the `days` count the server wrote (0 to `sent`; any other count breaks the contract), or an
    /// error whose server text has `token` redacted. The response half of `postDays`, apart from
    /// the network so that it can be fuzzed.
    @_spi(Fuzzing) public static func answer(toPostOf sent: Int, _ response: HTTPResponse, baseURL: String,
                                             token: BearerToken? = nil) throws(UploadError) -> (Outcome, written: Int) {
        let text = ServerText(token: token)
        if let outcome = try classify(response, baseURL: baseURL, text) { return (outcome, 0) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let written = object["days"] as? Int
        else {
            throw .protocolViolation("the answer to POST /v1/trainee/health/days (\(response.status)) has no \"days\" count: \(text.excerpt(response.body))")
        }
        // The contract: N = the days written, each a day that was sent. Fewer is the server's window
        // (the uploader accounts for it); more, or a negative count, is an answer not to be trusted
        // (and two answers of Int.max would overflow the report's sum).
        guard (0...sent).contains(written) else {
            throw .protocolViolation("the answer to POST /v1/trainee/health/days says \(written) days were written, "
                                     + "but the request held \(sent); a server can write at most the days it is sent")
        }
        return (.success, written)
    }

    /// `GET /v1/trainee/health/summary?from=&to=`: the days the server holds in the range.
    public func summary(from: LocalDate, to: LocalDate) throws(UploadError) -> (Outcome, days: [LocalDate: Int]) {
        let request = HTTPRequest.get(baseURL + "/v1/trainee/health/summary?from=\(from)&to=\(to)", headers: headers(json: false))
        let response: HTTPResponse
        switch try perform(request) {
        case .failure(let outcome): return (outcome, [:])
        case .success(let answer): response = answer
        }
        return try TraineeHealthAPI.answer(toSummary: response, baseURL: baseURL, token: token)
    }

    /// What an answer to `GET /v1/trainee/health/summary` comes to: an outcome and the days the
    /// server holds, or an error. The response half of `summary`, apart from the network so that
    /// it can be fuzzed.
    @_spi(Fuzzing) public static func answer(toSummary response: HTTPResponse, baseURL: String,
                                             token: BearerToken? = nil) throws(UploadError) -> (Outcome, days: [LocalDate: Int]) {
        let text = ServerText(token: token)
        if let outcome = try classify(response, baseURL: baseURL, text) { return (outcome, [:]) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let entries = object["days"] as? [[String: Any]]
        else {
            throw .protocolViolation("the answer to GET /v1/trainee/health/summary has no \"days\" list: \(text.excerpt(response.body))")
        }
        var days: [LocalDate: Int] = [:]
        for entry in entries {
            guard let text = entry["date"] as? String, let date = LocalDate(text) else {
                throw .protocolViolation("the summary holds an entry without a YYYY-MM-DD date: \(text.shown(String(describing: entry), limit: 200))")
            }
            // A day with no steps (null) has no value to protect.
            if let steps = entry["steps"] as? Int { days[date] = steps }
        }
        return (.success, days)
    }

    private func headers(json: Bool) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("Authorization", token.headerValue), ("Accept", "application/json")]
        if json { headers.append(("Content-Type", "application/json")) }
        return headers
    }

    private enum Sent {
        case success(HTTPResponse)
        case failure(Outcome)
    }

    /// Sends the request; transport failures that may pass are an outcome, the rest an error.
    private func perform(_ request: HTTPRequest) throws(UploadError) -> Sent {
        do {
            return .success(try client.send(request))
        } catch {
            guard error.isTransient else { throw UploadError.fromTransport(error) }
            return .failure(.retry(reason: error.description, retryAfter: nil, unreachable: true))
        }
    }

    /// nil for a 2xx answer; an outcome for one worth retrying; an error for the rest.
    private static func classify(_ response: HTTPResponse, baseURL: String, _ text: ServerText) throws(UploadError) -> Outcome? {
        let message = text.message(response.body)
        switch response.status {
        case 200...299:
            return nil
        case 408, 429, 500...599:
            return .retry(reason: "HTTP \(response.status)\(message.isEmpty ? "" : ": \(message)")",
                          retryAfter: response.retryAfterSeconds, unreachable: false)
        case 401, 403:
            throw .unauthorized(status: response.status, message: message)
        case 400, 409, 413, 422:
            throw .rejected(status: response.status, message: message.isEmpty ? "no reason given" : message)
        case 404, 405:
            throw .configuration("the server has no such route (\(response.status)): is the API URL \(baseURL) right?")
        default:
            throw .protocolViolation("HTTP \(response.status)\(message.isEmpty ? "" : ": \(message)")")
        }
    }

}

/// Text the server sent, fit for stderr and for a report: the token redacted wherever it appears
/// (a 400 or 401 may echo the Authorization header), then control characters escaped (a raw ESC
/// must not reach a terminal), cut short. Every text of the server's that goes into an
/// `UploadError` or a retry line passes here.
struct ServerText {
    let token: BearerToken?

    /// The `error`, `message` or `detail` of a JSON error body, or a short excerpt of the body.
    func message(_ body: [UInt8]) -> String {
        if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] {
            for key in ["error", "message", "detail"] {
                if let text = object[key] as? String { return shown(text, limit: 300) }
            }
        }
        return excerpt(body)
    }

    /// The start of a body: its line breaks and tabs, which are its layout (an HTML error page), as spaces.
    func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body, as: UTF8.self).unicodeScalars
            .map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 }
        return shown(String(String.UnicodeScalarView(text)), limit: 200)
    }

    func shown(_ text: String, limit: Int) -> String {
        (token?.redacting(text) ?? text).escapingControlCharacters(limit: limit)
    }
}
