import DisplayText
import Platform

/// `--color auto|always|never`: whether errors and warnings (standard error) and the winning
/// source (standard output) are coloured.
enum ColorChoice: String, CaseIterable, Sendable {
    /// On a terminal, unless `NO_COLOR` is set (to anything but nothing) or `TERM` is `dumb`.
    case auto
    /// Everywhere, pipes and files too: the user asked for it, over `NO_COLOR`.
    case always
    case never

    /// Whether text written to `stream` is styled, with `environment` as the process's.
    func styling(for stream: StandardStreams.Stream, environment: [String: String]) -> TextStyling {
        switch self {
        case .always: return TextStyling(isOn: true)
        case .never: return .off
        case .auto: return TextStyling(isOn: stream.isTerminal && Self.terminalTakesColour(environment))
        }
    }

    /// Whether a file written with `-o` is styled: only when `always` asks for it (`auto` is for
    /// terminals).
    var stylingOfAFile: TextStyling {
        self == .always ? TextStyling(isOn: true) : .off
    }

    /// `NO_COLOR` unset or empty (no-color.org), and a terminal that shows colour.
    static func terminalTakesColour(_ environment: [String: String]) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The choice a command line makes before it is parsed (a usage error is coloured as asked):
    /// the last `--color WHEN` or `--color=WHEN` before `--`; `auto` when there is none or it is not
    /// a choice.
    static func given(in words: [String]) -> ColorChoice {
        var choice = ColorChoice.auto
        var index = 0
        while index < words.count, words[index] != "--" {
            let word = words[index]
            if word == "--color", index + 1 < words.count {
                choice = ColorChoice(rawValue: words[index + 1].lowercased()) ?? choice
                index += 1
            } else if word.hasPrefix("--color=") {
                choice = ColorChoice(rawValue: word.dropFirst("--color=".count).lowercased()) ?? choice
            }
            index += 1
        }
        return choice
    }
}
