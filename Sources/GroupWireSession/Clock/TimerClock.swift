/// The time every GroupWire timer reads and sleeps on: the delivery layer's
/// retransmissions and peer timeout, negotiation's retries, the relay's reconnect grace,
/// drain timeout, close wait and rate limit, and its client's connect timeout and
/// reconnect backoff.
///
/// It wraps any `Clock` measured in `Duration` and counts from its own origin, the moment
/// it was made. Production code takes ``continuous`` (the system's monotonic clock); tests
/// pass a virtual clock (GroupWireTesting's `VirtualClock`) and move time themselves, so a
/// test about what a timer means runs in no real time and cannot be fooled by a busy machine.
public struct TimerClock: Sendable {
    /// The time since the clock's origin.
    public let now: @Sendable () -> Duration
    /// Sleeps until `now()` reaches the given time.
    public let sleep: @Sendable (Duration) async throws -> Void

    /// A clock over `clock`, whose origin is the moment of this call.
    public init<C: Clock & Sendable>(_ clock: C) where C.Duration == Duration, C.Instant: Sendable {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
    }

    /// The system's continuous clock.
    public static var continuous: TimerClock { TimerClock(ContinuousClock()) }

    /// Sleeps for `duration` from now.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleep(now() + duration)
    }
}

/// The delivery layer's clock, now the one clock of every GroupWire timer.
@available(*, deprecated, renamed: "TimerClock")
public typealias DeliveryClock = TimerClock

extension Duration {
    /// The duration in seconds, as a `Double`.
    package var seconds: Double {
        // One division of the 128-bit count, not two (`Double(attoseconds)` is slower still).
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `self × numerator / denominator`, to the attosecond as `self * numerator / denominator`
    /// is, in about a fifth of the time: `Duration`'s operators multiply and divide through
    /// the standard library's 128-bit integer in software, `Int128` through the machine's.
    /// The delivery layer's round-trip estimate takes a dozen of these per acknowledgement.
    package func scaled(_ numerator: Int128, _ denominator: Int128 = 1) -> Duration {
        Duration(attoseconds: attoseconds * numerator / denominator)
    }
}
