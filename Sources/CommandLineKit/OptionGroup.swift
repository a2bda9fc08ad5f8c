/// Options listed together in a command's help: the command's own (`OPTIONS:`), or a named group
/// (`POSTING (--post):`) whose members go with one option, its gate.
public struct OptionGroup<Options>: Sendable {
    /// nil for the command's own options; else `posting`, which titles the group's help section
    /// (`POSTING`) and names its members that the usage line leaves out (`[<posting options>]`).
    public let name: String?
    /// The option the other members go with (`--post`): given without it, they are a usage error.
    public let gate: String?
    /// Where the group shows in the usage line (as `[--post ... [<posting options>]]`).
    public let usage: UsageVisibility
    /// The order the usage line names the members in, when it is not the help's order.
    public let synopsisOrder: [String]?
    /// Members that stand for the gate when it is not given (`--plan` is a post that writes
    /// nothing): with one of them, the others need no gate either. Their actions set what the gate does.
    public let opensGate: [String]
    /// In help order; an option is in one group only.
    public let options: [Option<Options>]

    /// The command's own options; `-h, --help` is added after them.
    public init(options: [Option<Options>]) {
        self.name = nil
        self.gate = nil
        self.usage = .always
        self.synopsisOrder = nil
        self.opensGate = []
        self.options = options
    }

    /// A named group whose members go with `gate` (itself a member), or with one of `opensGate`.
    public init(_ name: String, gate: String?, usage: UsageVisibility, synopsisOrder: [String]? = nil,
                opensGate: [String] = [], options: [Option<Options>]) {
        self.name = name
        self.gate = gate
        self.usage = usage
        self.synopsisOrder = synopsisOrder
        self.opensGate = opensGate
        self.options = options
    }

    /// The help section's title: `OPTIONS`, or `POSTING (--post)`.
    public var title: String {
        guard let name else { return "OPTIONS" }
        return name.uppercased() + (gate.map { " (\($0))" } ?? "")
    }
}
