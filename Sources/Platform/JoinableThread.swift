import Glibc

/// A thread that can be waited for until it has exited, not only until its work has returned:
/// `join()` returns when the thread is gone, its stack and thread-local storage freed. Foundation's
/// `Thread` cannot be joined, so a caller that waits on a flag can return while a thread is
/// still tearing down (LeakSanitizer then sees its last allocations as leaks).
public final class JoinableThread: @unchecked Sendable {
    private var handle = pthread_t()
    private var joined = false

    /// Starts `body` on a new thread (which may name itself, e.g. through Foundation's
    /// `Thread.current.name`).
    public init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body))
        let status = pthread_create(&handle, nil, { argument in
            Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        // Without a thread the work cannot run at all: a process that cannot start one is out of
        // resources, and there is no result to give without it.
        precondition(status == 0, "pthread_create failed: \(status)")
    }

    /// A thread never joined is detached, so that its resources go when it ends.
    deinit {
        if !joined { pthread_detach(handle) }
    }

    /// Waits until the thread has exited. Only the first call waits; later ones return at once.
    /// Never call it from the thread itself.
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(handle, nil)
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) {
            self.run = run
        }
    }
}
