@_spi(Fuzzing) import BackendUpload
import FuzzSupport
import HTTPClient

/// The upload's handling of the server's answers: a status, a `Retry-After` value and a body
/// through `TraineeHealthAPI.answer(toPostOf:...)` and `answer(toSummary:...)` (the response half
/// of `postDays` and `summary`, without the network), then the retry policy's wait and the
/// words of any error.
///
/// Input: two bytes of status (taken into 100...599), one byte saying how many of the next
/// bytes are the `Retry-After` value (0: no header), then the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    guard bytes.count >= 3 else { return 0 }
    let status = 100 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 500
    let retryLength = min(Int(bytes[2]) % 32, bytes.count - 3)
    var headers: [String: String] = [:]
    if retryLength > 0 {
        headers["retry-after"] = String(decoding: bytes[3..<(3 + retryLength)], as: UTF8.self)
    }
    let response = HTTPResponse(status: status, headers: headers, body: Array(bytes[(3 + retryLength)...]))
    let policy = RetryPolicy()
    let sent = 1 + size % 90

    func look(at outcome: TraineeHealthAPI.Outcome) {
        if case .retry(let reason, let retryAfter, _) = outcome {
            let wait = policy.delay(afterAttempt: 1 + size % 8, retryAfter: retryAfter, random: 0.5)
            expect(wait >= 0 && wait <= policy.maxDelay, "a wait of \(wait) s")
            blackHole(reason)
        }
    }

    do throws(UploadError) {
        let (outcome, written) = try TraineeHealthAPI.answer(toPostOf: sent, response, baseURL: "https://api.example.com")
        look(at: outcome)
        expect(written >= 0 && written <= sent, "\(written) days written of \(sent) sent")
    } catch {
        blackHole(error.description)
        blackHole(error.shortfall)
    }
    do throws(UploadError) {
        let (outcome, days) = try TraineeHealthAPI.answer(toSummary: response, baseURL: "https://api.example.com")
        look(at: outcome)
        blackHole(days.count)
    } catch {
        blackHole(error.description)
    }
    return 0
}
