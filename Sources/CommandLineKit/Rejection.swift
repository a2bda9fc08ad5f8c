/// A value, an argument or a combination of options that a command's table refuses, in the
/// table's own words ("--retries needs a whole number from 0 to 20, got '99'").
public struct Rejection: Error, Sendable, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
