import GroupWireSession

/// Decides, for each message on one link, whether it is dropped, duplicated, held back,
/// and when it arrives; seeded so that a failing run replays exactly.
public struct FaultInjector: Sendable {
    /// The faults to inject.
    public let plan: FaultPlan
    private var random: SeededRandom
    /// The latest delivery time scheduled, so a reliable link never reorders.
    private var lastDelivery: Duration = .zero

    /// Creates the injector for one link.
    /// - Parameters:
    ///   - plan: the faults and the seed.
    ///   - link: a number that identifies the link, so every link draws its own sequence.
    public init(plan: FaultPlan, link: UInt64) {
        self.plan = plan
        random = SeededRandom(seed: plan.seed, stream: link)
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
