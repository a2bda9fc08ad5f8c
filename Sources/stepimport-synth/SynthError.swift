/// Everything that can stop `stepimport-synth`, with a message a user can act on.
enum SynthError: Error, Equatable {
    /// The command line could not be understood (exit 64).
    case usage(String)
    /// The output (or a temporary file next to it) could not be created (exit 73).
    case cannotCreate(path: String, reason: String)
    /// Writing failed part-way, e.g. a full disk (exit 74).
    case writeFailed(path: String, reason: String)
    /// libzip refused to build the archive (exit 74).
    case zip(path: String, reason: String)

    /// The message printed on stderr after `stepimport-synth: error: `.
    var message: String {
        switch self {
        case .usage(let text):
            return text
        case .cannotCreate(let path, let reason):
            return "cannot create '\(path)': \(reason). Check that the folder exists and is writable."
        case .writeFailed(let path, let reason):
            return "writing '\(path)' failed: \(reason). Check the free disk space."
        case .zip(let path, let reason):
            return "cannot write the zip archive '\(path)': \(reason)."
        }
    }

    /// The sysexits code for this error.
    var exitStatus: Int32 {
        switch self {
        case .usage: return 64  // EX_USAGE
        case .cannotCreate: return 73  // EX_CANTCREAT
        case .writeFailed, .zip: return 74  // EX_IOERR
        }
    }
}
