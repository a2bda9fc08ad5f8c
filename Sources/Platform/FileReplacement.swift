import Glibc

/// A new version of a file, written under a temporary name beside it (`.NAME.XXXXXX`, mode 0600,
/// in the same folder so that the rename cannot cross file systems) and renamed over it only when
/// complete: a reader of the file sees the old version or the new one, never half of one.
///
/// The temporary name is registered with `TemporaryCleanup`, so SIGINT, SIGTERM, SIGHUP and
/// `exit` remove it; `discard()` (or the value going away uncommitted) removes it in the normal
/// course. A symbolic link is followed: the file it points to is replaced, the link stays.
public final class FileReplacement {
    /// The file to replace, its symbolic links followed (it need not exist yet).
    public let target: String
    /// The temporary file's path, beside `target`.
    public let temporaryPath: String
    /// The temporary file, open for writing.
    public let file: SystemFile
    /// The folder that holds both.
    private let folder: String
    private var registration: TemporaryCleanup.Registration?
    private var settled = false

    /// One step of making or committing a replacement, for the failure's words.
    public enum Step: Sendable, Equatable {
        /// Creating the temporary file in `folder`.
        case create(folder: String)
        case write
        /// Flushing it to the disk.
        case sync
        /// Renaming it over the target.
        case rename
    }

    /// Why a replacement could not be made or committed; the target is as it was.
    public struct Failure: Error, Sendable, Equatable {
        public let step: Step
        public let error: SystemError
    }

    /// Creates the temporary file beside `path` (its links followed). Fails at once when the
    /// folder does not exist or cannot be written, before any work that would be lost.
    public init(replacing path: String) throws(Failure) {
        let target = FileReplacement.resolvingLinks(path)
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        self.target = target
        self.folder = folder
        do {
            (file, temporaryPath) = try SystemFile.createTemporary(in: folder, prefix: "." + name + ".")
        } catch {
            throw Failure(step: .create(folder: folder), error: error)
        }
        registration = TemporaryCleanup.registerFile(temporaryPath)
    }

    deinit {
        discard()
    }

    /// Gives the file the target's permissions (else 0666 less the umask, as a new file gets),
    /// flushes it to the disk, and renames it over the target.
    public func commit() throws(Failure) {
        precondition(!settled, "a replacement is committed or discarded once")
        let mode = (try? FileStatus.of(path: target)).map { mode_t($0.permissions) } ?? FileReplacement.newFileMode
        do {
            _ = fchmod(file.descriptor, mode)
            try file.sync()
            try file.close()
        } catch {
            discard()
            throw Failure(step: .sync, error: error)
        }
        guard Glibc.rename(temporaryPath, target) == 0 else {
            let error = SystemError.last
            discard()
            throw Failure(step: .rename, error: error)
        }
        settled = true
        if let registration { TemporaryCleanup.release(registration) }
        registration = nil
        // The new name survives a crash too (a failure here leaves the file in place all the same).
        try? SystemFile.syncFolder(folder)
    }

    /// Removes the temporary file; the target stays as it was. Safe to call more than once.
    public func discard() {
        guard !settled else { return }
        settled = true
        SystemFile.unlinkName(temporaryPath)
        if let registration { TemporaryCleanup.release(registration) }
        registration = nil
    }

    /// 0666 less this process's umask: the mode `open(2)` gives a new file.
    public static var newFileMode: mode_t {
        let mask = umask(0o022)
        umask(mask)
        return 0o666 & ~mask
    }

    /// `path` with its symbolic links followed, the last one too when it points to nothing yet (a
    /// link to a file still to be written); `path` itself when it is no link.
    public static func resolvingLinks(_ path: String) -> String {
        var current = path
        // As the kernel does, at most 40 links.
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, Int(PATH_MAX))
            guard count > 0 else { return current }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + link
            } else {
                current = link
            }
        }
        return current
    }
}
