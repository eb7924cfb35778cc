import Synchronization

/// Whether a group session can be started now, as Apple's `GroupStateObserver`.
///
/// On Linux nobody is "on a call": a participant is eligible when its transport (hub or
/// relay) is connected and at least one other participant is reachable through it. An app
/// can override what ``GroupSessionCoordinator/prepareForActivation(_:)`` decides.
public final class GroupStateObserver: Sendable {
    private struct State {
        var eligible = false
        var watchers: [UInt64: AsyncStream<Bool>.Continuation] = [:]
        var nextToken: UInt64 = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Whether a group session can be started now.
    public var isEligibleForGroupSession: Bool { state.withLock { $0.eligible } }

    /// Eligibility now and after each change.
    public var eligibility: AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream<Bool>.makeStream()
        let now = state.withLock { state in
            state.nextToken += 1
            state.watchers[state.nextToken] = continuation
            return state.eligible
        }
        continuation.yield(now)
        return stream
    }

    func update(_ eligible: Bool) {
        let watchers = state.withLock { state -> [AsyncStream<Bool>.Continuation] in
            guard state.eligible != eligible else { return [] }
            state.eligible = eligible
            return Array(state.watchers.values)
        }
        for watcher in watchers {
            watcher.yield(eligible)
        }
    }
}
