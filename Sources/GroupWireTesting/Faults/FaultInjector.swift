import GroupWireSession

/// Decides, for each message on one link, whether it is dropped, duplicated, held back,
/// and when it arrives; seeded so that a failing run replays exactly.
public struct FaultInjector: Sendable {
    /// The faults to inject.
    public let plan: FaultPlan
    private var random: SeededRandom
    /// The latest delivery time scheduled, so a reliable link never reorders.
    private var lastDelivery: Duration = .zero
    /// For plans keyed by content: how often each content hash went over the link.
    private var occurrences: [UInt64: UInt64] = [:]
    private let link: UInt64

    /// Creates the injector for one link.
    /// - Parameters:
    ///   - plan: the faults and the seed.
    ///   - link: a number that identifies the link, so every link draws its own sequence.
    public init(plan: FaultPlan, link: UInt64) {
        self.plan = plan
        self.link = link
        random = SeededRandom(seed: plan.seed, stream: link)
    }

    /// Decides the fate of `bytes`, sent on the link at time `now`: by content when the
    /// plan is ``FaultPlan/keyedByContent``, else as ``decide(at:)``.
    public mutating func decide(_ bytes: [UInt8], at now: Duration) -> FaultDecision {
        guard plan.keyedByContent else { return decide(at: now) }
        // FNV-1a: a hash that is the same in every process (Hasher is seeded per process).
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let occurrence = occurrences[hash, default: 0]
        occurrences[hash] = occurrence &+ 1
        // safe because: wrapping mixes the values; any result is a valid seed.
        random = SeededRandom(seed: plan.seed ^ hash, stream: link &+ occurrence &* 0x9E37_79B9_7F4A_7C15)
        return decide(at: now)
    }

    /// Decides the fate of the next message sent on the link at time `now`.
    ///
    /// Every call draws the same number of random values, so one decision never shifts the
    /// ones after it.
    public mutating func decide(at now: Duration) -> FaultDecision {
        let drop = random.chance(plan.dropRate)
        let duplicate = random.chance(plan.duplicateRate)
        let reorder = random.chance(plan.reorderRate)
        let first = now + sampleDelay()
        let second = now + sampleDelay()
        guard plan.mode == .unreliable else {
            // Ties keep send order: the hub breaks equal times by sequence number.
            let due = max(first, lastDelivery)
            lastDelivery = due
            return FaultDecision(deliveries: [due], reordered: false)
        }
        if let window = plan.faultWindow, !window.contains(now) {
            return FaultDecision(deliveries: [first], reordered: false)
        }
        if drop {
            return FaultDecision(deliveries: [], reordered: false)
        }
        let held = reorder ? first + plan.reorderDelay : first
        return FaultDecision(deliveries: duplicate ? [held, second] : [held], reordered: reorder)
    }

    /// A latency drawn uniformly from the plan's delay range, at nanosecond resolution.
    private mutating func sampleDelay() -> Duration {
        let low = Self.nanoseconds(plan.delay.lowerBound)
        let high = Self.nanoseconds(plan.delay.upperBound)
        let value = random.next()
        guard high > low else { return .nanoseconds(low) }
        // safe because: high > low >= 0 here, so the span fits UInt64 and the sum stays <= high.
        let span = UInt64(high - low) &+ 1
        return .nanoseconds(low + Int64(value % span))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(0, seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000)
    }
}
