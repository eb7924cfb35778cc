import GroupWire
import Synchronization

/// Simulated time: a `Clock` that moves only when told to, so timers, delays and timeouts
/// in tests run instantly and replay exactly.
///
/// Inject it wherever a clock is taken (a ``InProcessHub``, a messenger's configuration,
/// a `Reassembler` through ``reassemblyClock``); `sleep(until:)` suspends until
/// ``advance(to:)`` or ``advance(by:)`` moves time past the deadline.
public final class VirtualClock: Clock, Sendable {
    /// A point in simulated time: the time since the clock's creation.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// The time since the clock's creation.
        public var offset: Duration

        /// Creates an instant `offset` after the clock's creation.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Orders instants by time.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let deadline: Duration
        let continuation: CheckedContinuation<Bool, any Error>
    }

    private struct State {
        var now: Duration = .zero
        var sleepers: [UInt64: Sleeper] = [:]
        var nextToken: UInt64 = 0
        /// Sleepers resumed by an advance whose task has not yet returned from the sleep.
        var woken = 0
    }

    private let state = Mutex(State())

    /// Creates a clock at time zero.
    public init() {}

    /// The current simulated time.
    public var now: Instant {
        Instant(offset: elapsed)
    }

    /// The current simulated time since the clock's creation.
    public var elapsed: Duration {
        state.withLock { $0.now }
    }

    /// How many tasks are asleep on this clock now, so a test can wait until a timer is set
    /// before it moves time.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// The deadlines the sleepers wait for now, earliest first (as times since the clock's
    /// creation): a test waits until the timer it means to fire is set, then moves time.
    public var deadlines: [Duration] {
        state.withLock { $0.sleepers.values.map(\.deadline).sorted() }
    }

    /// How many sleepers an advance woke whose tasks have not yet run (returned from their
    /// sleep): on a busy machine a woken task can wait a while for a thread, and a loop that
    /// drives time waits for this to reach zero before it moves time again.
    public var wokenCount: Int {
        state.withLock { $0.woken }
    }

    /// Simulated time has no resolution limit.
    public var minimumResolution: Duration { .zero }

    /// Suspends until simulated time reaches `deadline`.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let token = state.withLock { state in
            state.nextToken += 1
            return state.nextToken
        }
        // True when an advance woke it (counted in `woken` until this task runs again).
        let wasWoken = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    guard !Task.isCancelled else { return true }
                    guard deadline.offset > state.now else { return true }
                    state.sleepers[token] = Sleeper(deadline: deadline.offset, continuation: continuation)
                    return false
                }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(returning: false)
                    }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: token) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        if wasWoken { state.withLock { $0.woken -= 1 } }
    }

    /// Moves the clock to `time` (it never goes backwards), waking every sleeper whose
    /// deadline has passed, earliest first.
    public func advance(to time: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, time)
            let now = state.now
            let tokens = state.sleepers.filter { $0.value.deadline <= now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }.map(\.key)
            let due = tokens.compactMap { state.sleepers.removeValue(forKey: $0) }
            state.woken += due.count
            return due
        }
        for sleeper in due {
            sleeper.continuation.resume(returning: true)
        }
    }

    /// Moves the clock forward by `duration`.
    public func advance(by duration: Duration) {
        advance(to: elapsed + duration)
    }

    /// A clock for a `Reassembler` that reads this simulated time.
    public var reassemblyClock: ReassemblyClock {
        ReassemblyClock { [self] in elapsed }
    }
}
