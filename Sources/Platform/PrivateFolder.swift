import Glibc

/// A new folder only this user can enter (mode 0700, made by `mkdtemp(3)`), for temporary files
/// that must have names (SQLite opens files by name, and finds `-wal` beside them).
///
/// The folder and every name handed out by `file(named:)` are registered with
/// `TemporaryCleanup`, so that they go on SIGINT, SIGTERM, SIGHUP and `exit` too; `remove()` (or
/// the value going away) removes them in the normal course.
public final class PrivateFolder {
    /// The folder's path.
    public let path: String
    private var files: [(path: String, registration: TemporaryCleanup.Registration?)] = []
    private var folderRegistration: TemporaryCleanup.Registration?
    private var removed = false

    private init(path: String) {
        self.path = path
        folderRegistration = TemporaryCleanup.registerFolder(path)
    }

    deinit {
        remove()
    }

    /// Makes a folder named `prefix` and six random characters in `parent`.
    public static func create(in parent: String, prefix: String) throws(SystemError) -> PrivateFolder {
        var template = Array("\(parent)/\(prefix)XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw SystemError.last }
        return PrivateFolder(path: template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// The path of `name` in the folder, registered for removal (whether or not the file is made).
    public func file(named name: String) -> String {
        let filePath = path + "/" + name
        if !files.contains(where: { $0.path == filePath }) {
            files.append((filePath, TemporaryCleanup.registerFile(filePath)))
        }
        return filePath
    }

    /// Removes the registered files and the folder, and forgets their registrations.
    public func remove() {
        guard !removed else { return }
        removed = true
        for file in files {
            _ = unlink(file.path)
            if let registration = file.registration { TemporaryCleanup.release(registration) }
        }
        _ = rmdir(path)
        if let folderRegistration { TemporaryCleanup.release(folderRegistration) }
    }
}
