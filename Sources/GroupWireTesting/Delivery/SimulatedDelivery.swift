import GroupWireSession
import Synchronization

extension DeliveryConfiguration {
    /// A configuration for simulations: stream incarnations drawn from `seed`, so a run
    /// replays byte for byte, and timers on the transport's clock (a virtual hub's).
    public static func simulated(seed: UInt64) -> DeliveryConfiguration {
        let random = Mutex(SeededRandom(seed: seed, stream: 0xDE11))
        return DeliveryConfiguration {
            random.withLock { UInt32.random(in: 1...(UInt32.max >> 1), using: &$0) }
        }
    }

    /// As ``simulated(seed:)``, with timers on `clock` whatever the transport's.
    public static func simulated(clock: VirtualClock, seed: UInt64) -> DeliveryConfiguration {
        var configuration = simulated(seed: seed)
        configuration.clock = TimerClock(clock)
        return configuration
    }
}
