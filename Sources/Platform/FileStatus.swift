import Glibc

/// What a path is, from `stat(2)` (links followed) or `fstat(2)`.
public struct FileStatus: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular, directory, other
    }

    public let kind: Kind
    /// The size in bytes (meaningful for a regular file).
    public let size: Int64
    /// The permission bits (`0o600`, `0o644`, ...).
    public let permissions: UInt32

    public init(kind: Kind, size: Int64, permissions: UInt32 = 0o644) {
        self.kind = kind
        self.size = size
        self.permissions = permissions
    }

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        size = Int64(info.st_size)
        permissions = UInt32(info.st_mode & 0o777)
    }

    /// Whether this process may read `path` (`access(2)` with `R_OK`).
    public static func isReadable(path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// The status of `path`, following symbolic links.
    public static func of(path: String) throws(SystemError) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SystemError.last }
        return FileStatus(info)
    }

    /// The room on the file system that holds `folder` (`statvfs(3)`): bytes an unprivileged
    /// process may still write, and the file system's size.
    public static func room(inFolder folder: String) throws(SystemError) -> (available: Int64, total: Int64) {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { throw SystemError.last }
        let unit = Int64(info.f_frsize)
        let (available, overflowA) = Int64(clamping: info.f_bavail).multipliedReportingOverflow(by: unit)
        let (total, overflowT) = Int64(clamping: info.f_blocks).multipliedReportingOverflow(by: unit)
        return (overflowA ? .max : available, overflowT ? .max : total)
    }
}
