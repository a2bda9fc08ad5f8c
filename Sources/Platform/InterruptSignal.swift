import Glibc
import Synchronization

/// Set by the SIGINT handler: whether Ctrl-C was pressed. Long work polls it at safe points.
public let interruptRequested = Atomic<Bool>(false)

/// What the SIGINT handler writes; set once, before the handler is installed.
nonisolated(unsafe) private var interruptMessage: StaticString = "\n"

/// Ctrl-C: the first one asks to stop at the next safe point (and writes a message to standard
/// error), the second removes the temporary files (`TemporaryCleanup`) and ends the process at
/// once with status 130.
public enum InterruptSignal {
    /// Installs the handler, which writes `message` to standard error on the first Ctrl-C.
    public static func install(message: StaticString) {
        interruptMessage = message
        // A parent may have blocked SIGINT, and the mask is inherited: unblock it, or Ctrl-C would be lost.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigprocmask(SIG_UNBLOCK, &mask, nil)
        signal(SIGINT) { _ in
            if interruptRequested.exchange(true, ordering: .relaxed) {
                // A second Ctrl-C: stop now, leaving no temporary file behind.
                TemporaryCleanup.removeAll()
                _exit(130)
            }
            // Only async-signal-safe calls here: write(2) of a static string.
            _ = write(2, interruptMessage.utf8Start, interruptMessage.utf8CodeUnitCount)
        }
    }
}
