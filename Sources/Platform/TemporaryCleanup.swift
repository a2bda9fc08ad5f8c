import Glibc
import Synchronization

/// Names of temporary files and folders to remove however the process ends: normally, on an
/// error, or on SIGINT, SIGTERM or SIGHUP.
///
/// A temporary file that SQLite must open by name cannot be unlinked at once, so its name is
/// registered here while it exists. The registry is a fixed table written before a name is
/// published and read by the signal handler with only `unlink(2)`, `rmdir(2)`, `write(2)` and
/// `_exit(2)`, which are async-signal-safe: no allocation, no lock.
public enum TemporaryCleanup {
    /// What one signal does once the registered names are removed: write `message` to standard
    /// error and end the process with `status`.
    public struct SignalExit: Sendable {
        public let signal: Int32
        public let status: Int32
        public let message: StaticString

        public init(signal: Int32, status: Int32, message: StaticString) {
            self.signal = signal
            self.status = status
            self.message = message
        }
    }

    /// A registered name, removed from the table (not from the file system) with `release`.
    public struct Registration: Sendable {
        let slot: Int
    }

    /// How many names can be registered at once (5 per database copy; batch runs a few at a time).
    public static let capacity = 256
    /// The longest path that can be registered, in bytes.
    public static let maxPathBytes = Int(PATH_MAX)

    private static let folderKind: CChar = 0x64 // "d"
    private static let fileKind: CChar = 0x66 // "f"
    private static let slotBytes = maxPathBytes + 2

    /// Per slot: 0 free, 1 being written, 2 published (to be removed).
    nonisolated(unsafe) private static let states: UnsafeMutablePointer<Atomic<Int>> = {
        let states = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
        for slot in 0..<capacity { (states + slot).initialize(to: Atomic<Int>(0)) }
        return states
    }()
    /// Per slot: the kind byte, then the NUL-terminated path.
    nonisolated(unsafe) private static let names = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * slotBytes)
    nonisolated(unsafe) private static let exits = UnsafeMutablePointer<SignalExit>.allocate(capacity: 8)
    private static let exitCount = Atomic<Int>(0)
    private static let atExitInstalled = Atomic<Bool>(false)

    /// Registers a file to remove; nil when the table is full or the path too long (the file is
    /// then removed only by its owner, not on a signal).
    public static func registerFile(_ path: String) -> Registration? {
        register(path, kind: fileKind)
    }

    /// Registers an (emptied) folder to remove, after every registered file.
    public static func registerFolder(_ path: String) -> Registration? {
        register(path, kind: folderKind)
    }

    private static func register(_ path: String, kind: CChar) -> Registration? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maxPathBytes, !bytes.contains(0) else { return nil }
        for slot in 0..<capacity {
            guard states[slot].compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged else { continue }
            let name = names + slot * slotBytes
            name[0] = kind
            for (index, byte) in bytes.enumerated() { name[1 + index] = CChar(bitPattern: byte) }
            name[1 + bytes.count] = 0
            states[slot].store(2, ordering: .releasing)
            return Registration(slot: slot)
        }
        return nil
    }

    /// Forgets a registration (its owner removed the name, or keeps it).
    public static func release(_ registration: Registration) {
        states[registration.slot].store(0, ordering: .releasing)
    }

    /// The names registered now, files and folders (for tests and messages).
    public static var registeredPaths: [String] {
        (0..<capacity).compactMap { slot in
            guard states[slot].load(ordering: .acquiring) == 2 else { return nil }
            return String(cString: names + slot * slotBytes + 1)
        }
    }

    /// Removes every registered name: files first, then folders. Async-signal-safe.
    public static func removeAll() {
        for pass in 0..<2 {
            for slot in 0..<capacity where states[slot].load(ordering: .acquiring) == 2 {
                let name = names + slot * slotBytes
                if pass == 0, name[0] == fileKind { _ = unlink(name + 1) }
                if pass == 1, name[0] == folderKind { _ = rmdir(name + 1) }
            }
        }
    }

    /// Installs the handlers: on each of `signalExits`' signals, the registered names are removed,
    /// the message is written and the process ends with the status. A signal the process was
    /// started with ignored (`nohup`, a background job) stays ignored. Also removes them at `exit`.
    public static func install(_ signalExits: [SignalExit]) {
        // Touch the lazily made tables now, never first in a handler.
        _ = states
        _ = names
        let count = min(signalExits.count, 8)
        for index in 0..<count { (exits + index).initialize(to: signalExits[index]) }
        exitCount.store(count, ordering: .releasing)
        if !atExitInstalled.exchange(true, ordering: .relaxed) {
            atexit { TemporaryCleanup.removeAll() }
        }
        for signalExit in signalExits.prefix(count) {
            var previous = sigaction()
            sigaction(signalExit.signal, nil, &previous)
            // SIG_IGN is the handler "1".
            if let handler = previous.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) == 1 { continue }
            var mask = sigset_t()
            sigemptyset(&mask)
            sigaddset(&mask, signalExit.signal)
            sigprocmask(SIG_UNBLOCK, &mask, nil)
            signal(signalExit.signal) { number in
                TemporaryCleanup.removeAll()
                TemporaryCleanup.exitFromSignal(number)
            }
        }
    }

    /// Writes the message installed for `number` and ends the process with its status (128 +
    /// the signal's number when none was installed). Async-signal-safe.
    public static func exitFromSignal(_ number: Int32) -> Never {
        let count = exitCount.load(ordering: .acquiring)
        for index in 0..<count where exits[index].signal == number {
            let message = exits[index].message
            _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
            _exit(exits[index].status)
        }
        _exit(128 + number)
    }
}
