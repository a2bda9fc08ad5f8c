/// A source name to leave out, exact or shell-style: `*` any run of characters, `?` one
/// character, `[abc]`, `[a-z]` and `[!abc]` one of (or none of) a set, `\` takes the next
/// character as it is. Matched against the whole name as `--by-source` shows it, as people type
/// it: without regard to case, and with straight and typographic quotes and apostrophes alike
/// (`Anna's iphone` matches `Anna’s iPhone`; `*Watch*`, `MyFitnessPal`).
public struct SourcePattern: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The pattern as given.
    public let text: String
    private let scalars: [Unicode.Scalar]

    /// Why a pattern cannot be used.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        /// A `[` with no `]` after it.
        case unclosedSet
        /// A `\` at the very end.
        case trailingEscape

        public var description: String {
            switch self {
            case .empty: return "an empty name"
            case .unclosedSet: return "a [ with no ] to close it (write \\[ for a bracket)"
            case .trailingEscape: return "a \\ at the end, with nothing to take as it is"
            }
        }
    }

    public init(_ text: String) throws(Problem) {
        guard !text.isEmpty else { throw .empty }
        self.text = text
        scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            switch scalars[index] {
            case "\\":
                guard index + 1 < scalars.count else { throw .trailingEscape }
                index += 2
            case "[":
                guard let end = SourcePattern.setEnd(scalars, from: index) else { throw .unclosedSet }
                index = end + 1
            default:
                index += 1
            }
        }
    }

    public var description: String { text }

    /// Whether `name`, whole, matches.
    public func matches(_ name: String) -> Bool {
        let name = name.unicodeScalars.map(Self.folded)
        // Iterative matching with one backtrack point for the last `*`: linear in practice,
        // and never worse than the product of the two lengths (no exponential blow-up).
        var p = 0, n = 0
        var starP = -1, starN = 0
        while n < name.count {
            if p < scalars.count, let next = step(at: p, name[n]) {
                p = next
                n += 1
            } else if p < scalars.count, scalars[p] == "*" {
                starP = p
                starN = n
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starN += 1
                n = starN
            } else {
                return false
            }
        }
        while p < scalars.count, scalars[p] == "*" { p += 1 }
        return p == scalars.count
    }

    /// Where the pattern goes on when the element at `p` matches `character`; nil when it does not
    /// (or is a `*`, which the caller handles).
    private func step(at p: Int, _ character: Unicode.Scalar) -> Int? {
        switch scalars[p] {
        case "*":
            return nil
        case "?":
            return p + 1
        case "\\":
            return Self.folded(scalars[p + 1]) == character ? p + 2 : nil
        case "[":
            let end = SourcePattern.setEnd(scalars, from: p)!
            var index = p + 1
            let negated = scalars[index] == "!" || scalars[index] == "^"
            if negated { index += 1 }
            var found = false
            while index < end {
                let low = Self.folded(scalars[index])
                if index + 2 < end, scalars[index + 1] == "-" {
                    if low.value <= character.value && character.value <= Self.folded(scalars[index + 2]).value { found = true }
                    index += 3
                } else {
                    if low == character { found = true }
                    index += 1
                }
            }
            return found != negated ? end + 1 : nil
        default:
            return Self.folded(scalars[p]) == character ? p + 1 : nil
        }
    }

    /// A character as names are compared: typographic quotes and apostrophes as the straight
    /// ones, in lower case (where lower case is one character).
    static func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar {
        case "\u{2018}", "\u{2019}", "\u{201A}", "\u{201B}", "\u{2032}", "\u{02BC}", "\u{0060}", "\u{00B4}": return "'"
        case "\u{201C}", "\u{201D}", "\u{201E}", "\u{201F}", "\u{2033}", "\u{00AB}", "\u{00BB}": return "\""
        default:
            guard scalar.properties.changesWhenLowercased else { return scalar }
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            return lower.count == 1 ? lower.first! : scalar
        }
    }

    /// The index of the `]` that closes the set opening at `start`; a `]` right after `[` or `[!`
    /// is a member, as in the shell.
    private static func setEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start + 1
        if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" { index += 1 }
        if index < scalars.count, scalars[index] == "]" { index += 1 }
        while index < scalars.count {
            if scalars[index] == "]" { return index }
            index += 1
        }
        return nil
    }
}
