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
                                                               userAgent: "stepimport"))
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
        return try TraineeHealthAPI.answer(toPostOf: days.count, response, baseURL: baseURL)
    }

    /// What an answer to `POST /v1/trainee/health/days` for `sent` days comes to: an outcome and
    /// the `days` count the server wrote (0 to `sent`; any other count breaks the contract), or an
    /// error. The response half of `postDays`, apart
    /// from the network so that it can be fuzzed.
    @_spi(Fuzzing) public static func answer(toPostOf sent: Int, _ response: HTTPResponse,
                                             baseURL: String) throws(UploadError) -> (Outcome, written: Int) {
        if let outcome = try classify(response, baseURL: baseURL) { return (outcome, 0) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let written = object["days"] as? Int
        else {
            throw .protocolViolation("the answer to POST /v1/trainee/health/days (\(response.status)) has no \"days\" count: \(TraineeHealthAPI.excerpt(response.body))")
        }
        // The server cannot write more days than it was sent, nor fewer than none; the report adds
        // these counts, so a count like Int.max from two answers would overflow the sum.
        guard written >= 0 && written <= sent else {
            throw .protocolViolation("the answer to POST /v1/trainee/health/days (\(response.status)) says \(written) days were written of the \(sent) sent")
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
        return try TraineeHealthAPI.answer(toSummary: response, baseURL: baseURL)
    }

    /// What an answer to `GET /v1/trainee/health/summary` comes to: an outcome and the days the
    /// server holds, or an error. The response half of `summary`, apart from the network so that
    /// it can be fuzzed.
    @_spi(Fuzzing) public static func answer(toSummary response: HTTPResponse,
                                             baseURL: String) throws(UploadError) -> (Outcome, days: [LocalDate: Int]) {
        if let outcome = try classify(response, baseURL: baseURL) { return (outcome, [:]) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let entries = object["days"] as? [[String: Any]]
        else {
            throw .protocolViolation("the answer to GET /v1/trainee/health/summary has no \"days\" list: \(TraineeHealthAPI.excerpt(response.body))")
        }
        var days: [LocalDate: Int] = [:]
        for entry in entries {
            guard let text = entry["date"] as? String, let date = LocalDate(text) else {
                throw .protocolViolation("the summary holds an entry without a YYYY-MM-DD date: \(entry)")
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
    private static func classify(_ response: HTTPResponse, baseURL: String) throws(UploadError) -> Outcome? {
        let message = TraineeHealthAPI.serverMessage(response.body)
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

    /// The `error` or `message` of a JSON error body, or a short excerpt of the body.
    static func serverMessage(_ body: [UInt8]) -> String {
        if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] {
            for key in ["error", "message", "detail"] {
                if let text = object[key] as? String { return text }
            }
        }
        return excerpt(body)
    }

    static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
            .unicodeScalars.map { $0.value < 0x20 ? " " : String($0) }.joined()
        return body.count > 200 ? text + "..." : text
    }
}
