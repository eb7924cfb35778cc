import Synchronization

/// Whether a group session can be started now, as Apple's `GroupStateObserver`.
///
/// On Linux nobody is "on a call": a participant is eligible when its transport (hub or
/// relay) is connected and at least one other participant is reachable through it. An app
/// can override what ``SharedSessionCoordinator/prepareForActivation(_:)`` decides.
public final class SharedStateObserver: Sendable {
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
        let (token, now) = state.withLock { state in
            state.nextToken += 1
            state.watchers[state.nextToken] = continuation
            return (state.nextToken, state.eligible)
        }
        // A watcher that stops listening is forgotten.
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.watchers.removeValue(forKey: token) } }
        continuation.yield(now)
        return stream
    }

    /// Returns once a group session can be started: at once when it can now, else when
    /// the transport is connected and someone else is reachable. Call it before
    /// ``SharedSessionCoordinator/prepareForActivation(_:)`` at startup, when nobody has
    /// been seen yet.
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    public func waitUntilEligible() async throws {
        for await eligible in eligibility where eligible { return }
        throw CancellationError()
    }

    /// How many eligibility streams are listened to now.
    var watcherCount: Int { state.withLock { $0.watchers.count } }

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
