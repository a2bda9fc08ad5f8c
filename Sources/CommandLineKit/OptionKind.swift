/// What an option takes after its name.
public enum OptionKind: Sendable, Equatable {
    /// Nothing: `--by-source`. Given a value (`--by-source=yes`), it is a usage error.
    case flag
    /// One value, after `=` or as the next argument: `--tz Europe/Berlin`, `--tz=Europe/Berlin`.
    /// Given again, the later value wins.
    case value(String)
    /// One value each time it is given, every one kept: `--exclude a --exclude b`.
    case repeatable(String)

    /// The value's name (`zone` in `--tz <zone>`); nil for a flag.
    public var valueName: String? {
        switch self {
        case .flag: return nil
        case .value(let name), .repeatable(let name): return name
        }
    }
}
