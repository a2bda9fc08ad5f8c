import Foundation

/// Prints a diagnostic line on stderr, by default as `stepimport-synth: error: ...`.
/// Results go to files or stdout; everything a person reads goes here.
func printError(_ message: String, prefixed: Bool = true) {
    let line = (prefixed ? "stepimport-synth: error: " : "") + message + "\n"
    FileHandle.standardError.write(Data(line.utf8))
}
