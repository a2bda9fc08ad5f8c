/// Walks a command's arguments word by word: `--name value`, `--name=value`, `-n`, positionals,
/// and, in commands that take arguments, `-` (standard input) and `--` (the rest are arguments).
///
/// Only a word starting with `--` is split at `=`; `-j=4` is the option `-j=4`.
struct ArgumentScanner {
    enum Word: Equatable {
        case argument(String)
        case option(name: String, inlineValue: String?)
    }

    private let words: [String]
    /// Whether `-` and `--` mean what they do for arguments; in a command without arguments they
    /// are (unknown) options.
    private let takesArguments: Bool
    private var index = 0
    private var onlyArguments = false

    init(_ words: [String], takesArguments: Bool) {
        self.words = words
        self.takesArguments = takesArguments
    }

    /// The next argument or option; nil at the end.
    mutating func next() -> Word? {
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyArguments || !word.hasPrefix("-") || (takesArguments && word == "-") {
                return .argument(word)
            }
            if takesArguments && word == "--" {
                onlyArguments = true
                continue
            }
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                return .option(name: String(word[..<equals]), inlineValue: String(word[word.index(after: equals)...]))
            }
            return .option(name: word, inlineValue: nil)
        }
        return nil
    }

    /// The word after the current option, taken as its value whatever it looks like; nil at the end.
    mutating func nextValue() -> String? {
        guard index < words.count else { return nil }
        index += 1
        return words[index - 1]
    }
}
