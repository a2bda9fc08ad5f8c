import Glibc

/// A failed system call: its `errno`, and the system's words for it.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// The error of the call that just failed.
    static var last: SystemError { SystemError(code: errno) }

    /// No such file or directory (`ENOENT`).
    public var isNoEntry: Bool { code == ENOENT }

    /// The path (or a folder on it) does not exist.
    public var isNotFound: Bool { code == ENOENT || code == ENOTDIR }

    /// `strerror(3)`: "No such file or directory".
    public var description: String { String(cString: strerror(code)) }
}
