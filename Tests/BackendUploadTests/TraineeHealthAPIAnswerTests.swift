import HealthDays
import HTTPClient
import Testing
@_spi(Fuzzing) import BackendUpload

/// What the server's answers come to (`TraineeHealthAPI.answer`, the response half of postDays and
/// summary that fuzz-http-response runs).
@Suite struct TraineeHealthAPIAnswerTests {
    private let base = "https://api.example.com"

    private func post(_ status: Int, _ body: String, sent: Int, headers: [String: String] = [:])
        throws(UploadError) -> (TraineeHealthAPI.Outcome, written: Int) {
        try TraineeHealthAPI.answer(toPostOf: sent, HTTPResponse(status: status, headers: headers, body: Array(body.utf8)),
                                    baseURL: base)
    }

    @Test func theDaysCountOfASuccessIsWhatWasWritten() throws {
        #expect(try post(201, #"{"days":30}"#, sent: 30) == (.success, 30))
        // Fewer is an answer the uploader reports as a shortfall (exit 76), not an error here.
        #expect(try post(201, #"{"days":29}"#, sent: 30) == (.success, 29))
        #expect(try post(200, #"{"days":0}"#, sent: 30) == (.success, 0))
    }

    /// A count beyond what was sent (or below zero) breaks the contract: a 201 `{"days":99999}` for
    /// 30 days exited 0, and two answers of Int.max overflowed the report's sum (a trap).
    @Test(arguments: ["99999", "31", "9223372036854775807", "-1"])
    func aDaysCountOutsideWhatWasSentBreaksTheContract(_ count: String) {
        #expect {
            try post(201, #"{"days":\#(count)}"#, sent: 30)
        } throws: { error in
            guard case .protocolViolation(let message) = error as? UploadError else { return false }
            return message.contains("says \(count) days were written, but the request held 30")
        }
    }

    @Test func retriesAndRefusalsAreClassifiedAsBefore() throws {
        let retry = try post(429, #"{"error":"slow down"}"#, sent: 3, headers: ["retry-after": "120"])
        #expect(retry.0 == .retry(reason: "HTTP 429: slow down", retryAfter: 120, unreachable: false))
        #expect(throws: UploadError.unauthorized(status: 401, message: "no")) { try post(401, #"{"message":"no"}"#, sent: 3) }
        #expect(throws: UploadError.rejected(status: 400, message: "bad day")) { try post(400, #"{"detail":"bad day"}"#, sent: 3) }
    }

    @Test func theSummaryKeepsTheDaysWithSteps() throws {
        let body = #"{"days":[{"date":"2024-03-01","steps":8000},{"date":"2024-03-02","steps":null}]}"#
        let (outcome, days) = try TraineeHealthAPI.answer(toSummary: HTTPResponse(status: 200, body: Array(body.utf8)), baseURL: base)
        #expect(outcome == .success)
        #expect(days == [LocalDate("2024-03-01")!: 8000])
    }
}
