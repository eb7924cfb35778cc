import GroupWirePlayback
import GroupWireSession
import Synchronization

/// A player for tests and simulations of coordinated playback: its media advances on a
/// clock of the test's (a hub's virtual clock), running fast or slow by ``drift``, as a
/// device's audio clock does; it seeks and changes rate at once, and stalls when told.
public final class SimulatedPlayer: CoordinatedPlayer {
    /// Media seconds per second of the clock, minus one (100 ppm is 0.0001).
    public let drift: Double
    private let now: @Sendable () -> Duration
    private let state = Mutex(State())
    private let continuation: AsyncStream<CoordinatedPlayerEvent>.Continuation
    /// What the player reports: its stalls and recoveries.
    public let events: AsyncStream<CoordinatedPlayerEvent>

    private struct State {
        var item: String?
        var anchor: Duration = .zero
        var position = 0.0
        var rate = 0.0
        var stalled = false
        var seeks = 0
        var rateChanges = 0
    }

    /// A player reading `now` (the test's clock), its media running `drift` fast.
    public init(drift: Double = 0, now: @escaping @Sendable () -> Duration) {
        self.drift = drift
        self.now = now
        (events, continuation) = AsyncStream.makeStream()
    }

    /// The position now: where it was last moved, advanced at its rate on its drifting clock (frozen while stalled).
    public var currentTime: Double { state.withLock { position($0, at: now()) } }
    /// The rate it was last asked for (its position stands still while stalled).
    public var rate: Double { state.withLock { $0.rate } }
    /// The item loaded.
    public var item: String? { state.withLock { $0.item } }
    /// How many seeks and rate changes it was asked for (a load counts as a seek).
    public var seeks: Int { state.withLock { $0.seeks } }
    /// How many rate changes it was asked for.
    public var rateChanges: Int { state.withLock { $0.rateChanges } }
    /// Whether it is stalled.
    public var isStalled: Bool { state.withLock { $0.stalled } }

    private func position(_ state: State, at time: Duration) -> Double {
        guard !state.stalled else { return state.position }
        return max(0, state.position + state.rate * (time - state.anchor).seconds * (1 + drift))
    }

    /// Fixes the position at now, before a change.
    private func reanchor(_ state: inout State) {
        let time = now()
        state.position = position(state, at: time)
        state.anchor = time
    }

    /// Plays at `rate` from where it is.
    public func setRate(_ rate: Double) {
        state.withLock { state in
            guard state.rate != rate else { return }
            reanchor(&state)
            state.rate = rate
            state.rateChanges += 1
        }
    }

    /// Moves to `time` (at least 0).
    public func seek(to time: Double) {
        state.withLock { state in
            reanchor(&state)
            state.position = max(0, time)
            state.seeks += 1
        }
    }

    /// Loads `item` at `time`.
    public func load(item: String?, at time: Double) {
        state.withLock { state in
            reanchor(&state)
            state.item = item
            state.position = max(0, time)
            state.seeks += 1
        }
    }

    /// The user moves the player with its own controls: it seeks, and tells its coordinator.
    public func userSeek(to time: Double) {
        seek(to: time)
        continuation.yield(.userSeeked(to: time))
    }

    /// The user pauses (0) or changes the rate with the player's own controls.
    public func userSetRate(_ rate: Double) {
        setRate(rate)
        continuation.yield(.userChangedRate(rate))
    }

    /// Runs out of media: the position stands still until ``recover()``, and the player
    /// tells its coordinator.
    public func stall() {
        state.withLock { state in
            reanchor(&state)
            state.stalled = true
        }
        continuation.yield(.stalled)
    }

    /// Plays again from where it stalled, and tells its coordinator.
    public func recover() {
        state.withLock { state in
            state.anchor = now()
            state.stalled = false
        }
        continuation.yield(.recovered)
    }
}
