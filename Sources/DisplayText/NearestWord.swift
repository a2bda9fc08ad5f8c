/// The word a user probably meant: the candidate nearest to what was typed, for "did you mean".
public enum NearestWord {
    /// The candidate that equals `word` but for case, else the one fewest edits away (a letter
    /// added, dropped, changed, or two neighbours swapped), when it is close enough to be a typo:
    /// at most 1 edit for words up to 4 characters, 2 up to 8, 3 beyond. nil when none is.
    public static func among(_ candidates: [String], for word: String) -> String? {
        let lowered = word.lowercased()
        if let sameButCase = candidates.first(where: { $0.lowercased() == lowered }) { return sameButCase }
        let typed = Array(lowered.unicodeScalars)
        guard !typed.isEmpty, typed.count <= 256 else { return nil }
        let allowed = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased().unicodeScalars)
            guard abs(other.count - typed.count) <= allowed, other.count <= 256 else { continue }
            let distance = edits(typed, other)
            if distance <= allowed, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func edits(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var table = [Int](repeating: 0, count: (a.count + 1) * width)
        for j in 0...b.count { table[j] = j }
        for i in 1...a.count {
            table[i * width] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[(i - 1) * width + j] + 1, table[i * width + j - 1] + 1,
                                table[(i - 1) * width + j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[(i - 2) * width + j - 2] + 1)
                }
                table[i * width + j] = value
            }
        }
        return table[a.count * width + b.count]
    }
}
