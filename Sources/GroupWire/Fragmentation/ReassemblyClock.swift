/// The time source a ``Reassembler`` measures timeouts with: monotonic time since an
/// arbitrary origin. Tests and simulated transports inject their own.
public struct ReassemblyClock: Sendable {
    /// Returns the current time since the clock's origin; must never go backwards.
    public let now: @Sendable () -> Duration

    /// Creates a clock from a function returning monotonic time since any fixed origin.
    public init(now: @escaping @Sendable () -> Duration) {
        self.now = now
    }

    /// The system's continuous clock, with its origin at the moment this is called.
    public static func continuous() -> ReassemblyClock {
        let origin = ContinuousClock.now
        return ReassemblyClock { ContinuousClock.now - origin }
    }

    /// Reads `clock` (a real clock, or a virtual one in tests), with its origin at the
    /// moment this is called.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        self.init { origin.duration(to: clock.now) }
    }
}
