/// Walks a subcommand's arguments: `--flag value` and `--flag=value` alike.
final class ArgumentReader {
    private let arguments: [String]
    private var index = 0
    private var flag = ""
    private var inlineValue: String?

    init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// The next flag (or positional argument), without any `=value` part; nil at the end.
    func nextFlag() -> String? {
        guard index < arguments.count else { return nil }
        flag = arguments[index]
        inlineValue = nil
        index += 1
        if flag.hasPrefix("--"), let equals = flag.firstIndex(of: "=") {
            inlineValue = String(flag[flag.index(after: equals)...])
            flag = String(flag[..<equals])
        }
        return flag
    }

    /// Fails when a flag that takes no value was given one (`--flag=value`).
    func noValue() throws(SynthError) {
        if inlineValue != nil { throw SynthError.usage("'\(flag)' takes no value") }
    }

    /// The value of the current flag: after its `=`, or the next argument.
    func value() throws(SynthError) -> String {
        if let inlineValue { return inlineValue }
        guard index < arguments.count else {
            throw SynthError.usage("missing value for '\(flag)'")
        }
        index += 1
        return arguments[index - 1]
    }
}
