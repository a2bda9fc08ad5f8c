/// Where an option, or a group of options, shows in its command's usage lines. The usage line of
/// `--help` names every option; the one printed with a usage error only those marked `always`.
public enum UsageVisibility: Sendable, Equatable {
    /// In the usage line printed with a usage error and in the one of `--help`.
    case always
    /// Only in the usage line of `--help`; a group lists such members as `[<group options>]` in
    /// the other.
    case helpOnly

    /// Whether it shows in the usage line of this form.
    func shows(in form: SynopsisForm) -> Bool {
        switch self {
        case .always: return true
        case .helpOnly: return form == .help
        }
    }
}
