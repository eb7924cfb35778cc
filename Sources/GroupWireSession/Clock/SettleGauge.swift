import Synchronization

/// A queue between two tasks of a system that runs on simulated time, which can tell
/// whether its reader has caught up: nothing waits in it, and the reader came back for
/// more after the last thing it took (so what it did with that is done, sends included).
@usableFromInline package protocol SettleProbe: AnyObject, Sendable {
    /// Whether the reader has handled everything handed to it (or has stopped reading).
    var isSettled: Bool { get }
}

/// The queues of one simulated system, so the loop that drives its virtual time can wait
/// until every hand-off between its tasks has been handled before it moves time on.
///
/// Waiting for the hub's mailboxes alone is not enough: a message taken from the hub still
/// passes the delivery layer's events, the messenger's streams and the task that reads
/// them, and one handled after time moved on reads the wrong instant (a clock reply read a
/// step late skews the group clock's estimate). A driver sets ``current`` while the system
/// is built; every queue made meanwhile registers itself, and the driver's settle waits for
/// all of them. Queues made outside such a scope register nowhere and cost nothing.
package final class SettleGauge: Sendable {
    /// The gauge the queues made in this task (and the tasks it starts) register with.
    @TaskLocal package static var current: SettleGauge?

    private struct Entry {
        weak var probe: (any SettleProbe)?
    }

    private let probes = Mutex<[Entry]>([])

    package init() {}

    /// Registers `probe` until it is gone.
    package func watch(_ probe: any SettleProbe) {
        probes.withLock { probes in
            probes.removeAll { $0.probe == nil }
            probes.append(Entry(probe: probe))
        }
    }

    /// How many registered queues still hold something their reader has not handled.
    package var unsettled: Int {
        let live = probes.withLock { probes in probes.compactMap(\.probe) }
        return live.count { !$0.isSettled }
    }
}

/// The timers of one component whose timer tasks are not otherwise visible to a
/// ``SettleGauge``: from the instant a timer is due until its task has done that instant's
/// work, the component is not settled. A driver of simulated time that wakes a timer
/// task can otherwise see every queue settled while the task runs, and move time on under
/// it (the task then reads a later instant than the one it woke for).
package final class SettleTimers: SettleProbe {
    private let clock: TimerClock
    private let due = Mutex<(next: UInt64, deadlines: [UInt64: Duration])>((0, [:]))

    private init(clock: TimerClock) {
        self.clock = clock
    }

    /// Timers registered with ``SettleGauge/current``, nil outside a gauge's scope (so they
    /// cost nothing in production). The caller keeps them: the gauge holds them weakly.
    package static func watched(on clock: TimerClock) -> SettleTimers? {
        guard let gauge = SettleGauge.current else { return nil }
        let timers = SettleTimers(clock: clock)
        gauge.watch(timers)
        return timers
    }

    /// A timer due at `deadline`, until ``done(_:)``.
    package func add(at deadline: Duration) -> UInt64 {
        due.withLock { due in
            due.next += 1
            due.deadlines[due.next] = deadline
            return due.next
        }
    }

    /// Timer `timer`, its work for the last instant done, is due next at `deadline`.
    package func move(_ timer: UInt64, to deadline: Duration) {
        due.withLock { $0.deadlines[timer] = deadline }
    }

    /// Timer `timer` is done (fired and its work done, cancelled, or stopped).
    package func done(_ timer: UInt64) {
        due.withLock { _ = $0.deadlines.removeValue(forKey: timer) }
    }

    /// Whether no timer's instant has come with its work undone.
    package var isSettled: Bool {
        let now = clock.now()
        return due.withLock { $0.deadlines.values.allSatisfy { now < $0 } }
    }
}
