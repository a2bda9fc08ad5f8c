import DisplayText
import HealthDays

/// `--exclude-source` in the summary's words.
enum SourceWords {
    /// A pattern that matched no source: the nearest names, else where to find them.
    static func unmatched(_ pattern: SourcePattern, among sources: [String]) -> String {
        let text = "--exclude-source \(pattern.text.escapingControlCharacters()) matched no source"
        guard let nearest = NearestWord.among(sources, for: pattern.text) else {
            let few = sources.prefix(5).map { "'\($0.escapingControlCharacters())'" }.joined(separator: ", ")
            return text + (sources.isEmpty ? "" : " (the sources: \(few)\(sources.count > 5 ? ", ..." : ""))")
                + "; --by-source shows the names"
        }
        return text + "; did you mean '\(nearest.escapingControlCharacters())'?"
    }
}
