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
