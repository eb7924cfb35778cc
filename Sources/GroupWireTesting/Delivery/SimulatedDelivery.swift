import GroupWireSession
import Synchronization

extension DeliveryConfiguration {
    /// A configuration for simulations: timers on `clock` (share the hub's) and stream
    /// incarnations drawn from `seed`, so a run replays byte for byte.
    public static func simulated(clock: VirtualClock, seed: UInt64) -> DeliveryConfiguration {
        let random = Mutex(SeededRandom(seed: seed, stream: 0xDE11))
        return DeliveryConfiguration(clock: TimerClock(clock)) {
            random.withLock { UInt32.random(in: 1...(UInt32.max >> 1), using: &$0) }
        }
    }
}
