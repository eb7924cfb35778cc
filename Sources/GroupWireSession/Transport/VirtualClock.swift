import GroupWire
import Synchronization

/// Simulated time: it moves only when told to, so tests with delays and timeouts run
/// instantly and replay exactly.
public final class VirtualClock: Sendable {
    private let current = Mutex<Duration>(.zero)

    /// Creates a clock at time zero.
    public init() {}

    /// The current simulated time since the clock's creation.
    public var now: Duration {
        current.withLock { $0 }
    }

    /// Moves the clock to `time`; it never goes backwards.
    public func advance(to time: Duration) {
        current.withLock { $0 = max($0, time) }
    }

    /// A clock for a `Reassembler` that reads this simulated time.
    public var reassemblyClock: ReassemblyClock {
        ReassemblyClock { [self] in now }
    }
}
