import Glibc

/// Standard output and standard error, written with `write(2)`, so that a full disk or a
/// closed pipe is an error to report (FileHandle traps on it).
public enum StandardStreams {
    /// Standard output or standard error.
    public enum Stream: Sendable {
        case output
        case error

        /// Its file descriptor: 1 or 2.
        public var descriptor: Int32 {
            switch self {
            case .output: 1
            case .error: 2
            }
        }

        /// Whether it is a terminal.
        public var isTerminal: Bool { isatty(descriptor) == 1 }

        /// How many columns wide the terminal it is; nil when it is no terminal (a file, a pipe)
        /// or the terminal does not say (0, as a pseudo-terminal may).
        public var terminalColumns: Int? {
            var size = winsize()
            guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
            return Int(size.ws_col)
        }
    }

    /// Writes `text` to standard output.
    public static func writeOutput(_ text: String) throws(SystemError) {
        try write(text, to: 1)
    }

    /// Writes `bytes` to standard output.
    public static func writeOutput(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try SystemFile.writeAll(bytes, to: 1)
    }

    /// Writes `text` to standard error.
    public static func writeError(_ text: String) throws(SystemError) {
        try write(text, to: 2)
    }

    /// Whether standard error is a terminal (progress and redrawn lines only then).
    public static var errorIsTerminal: Bool { Stream.error.isTerminal }

    private static func write(_ text: String, to descriptor: Int32) throws(SystemError) {
        try SystemFile.writeAll(text, to: descriptor)
    }
}
