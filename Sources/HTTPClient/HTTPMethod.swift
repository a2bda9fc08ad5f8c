/// The HTTP methods the client sends: the backend needs nothing else.
public enum HTTPMethod: String, Sendable, Equatable {
    case get = "GET"
    case post = "POST"
}
