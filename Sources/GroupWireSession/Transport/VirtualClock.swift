import Foundation
import GroupWire

/// Simulated time: it moves only when told to, so tests with delays and timeouts run
/// instantly and replay exactly.
public final class VirtualClock: Sendable {
    private let lock = NSLock()
    // safe because: every access holds `lock`.
    nonisolated(unsafe) private var current: Duration = .zero

    /// Creates a clock at time zero.
    public init() {}

    /// The current simulated time since the clock's creation.
    public var now: Duration {
        lock.withLock { current }
    }

    /// Moves the clock to `time`; it never goes backwards.
    public func advance(to time: Duration) {
        lock.withLock { current = max(current, time) }
    }

    /// A clock for a ``Reassembler`` that reads this simulated time.
    public var reassemblyClock: ReassemblyClock {
        ReassemblyClock { [self] in now }
    }
}
