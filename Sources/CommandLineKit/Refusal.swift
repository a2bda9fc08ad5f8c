/// Option names a command knows only to refuse, with a message that says why and what to do
/// instead (`--token`: a secret is never taken from the command line).
public struct Refusal: Sendable {
    public let names: [String]
    /// The message for the name as given.
    public let message: @Sendable (String) -> String

    public init(_ names: [String], message: @escaping @Sendable (String) -> String) {
        self.names = names
        self.message = message
    }

    /// One message whatever the name.
    public init(_ names: [String], message: String) {
        self.init(names) { _ in message }
    }
}
