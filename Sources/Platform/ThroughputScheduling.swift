import Glibc

/// Linux's batch scheduling for threads that work through data and wait only for one another.
///
/// A thread woken under the default policy preempts the one running, so a reader and its
/// parse workers, which wake each other for every piece, also switched each other out: on the
/// 1 GB export with two cores, about 3,700 voluntary and 2,400 involuntary context switches.
/// `SCHED_BATCH` keeps the woken thread waiting for the running one's time slice instead (no
/// wake-up preemption; `sched(7)`): about 1,000 and 100, and a fifth less wall time. It needs
/// no privilege, and the nice value stays as the user set it.
public enum ThroughputScheduling {
    /// Puts the calling thread under `SCHED_BATCH`; threads it starts afterwards inherit it
    /// (glibc's `pthread_create` copies the creator's policy by default).
    /// Advice only: where the call fails (another kernel), the thread stays as it was.
    public static func useForThisThread() {
        var parameters = sched_param()
        parameters.sched_priority = 0
        _ = sched_setscheduler(0, batchPolicy, &parameters)
    }

    /// `SCHED_BATCH` of `<bits/sched.h>`: declared only under `_GNU_SOURCE`, which the Glibc
    /// module Swift imports does not define. Linux's number since 2.6.16.
    private static var batchPolicy: Int32 { 3 }
}
