import GroupWireSession

/// The faults a simulated transport injects, and the seed that makes them replay.
///
/// Decisions are drawn per link (sender → receiver) from a generator derived from
/// ``seed``, so a run replays exactly whatever the interleaving of other links.
public struct FaultPlan: Sendable, Hashable {
    /// The seed every fault decision derives from.
    public var seed: UInt64
    /// `DeliveryMode/reliable` keeps every message, once, in per-sender order (only
    /// ``delay`` applies); `DeliveryMode/unreliable` applies every fault below.
    public var mode: DeliveryMode
    /// Probability that a message is lost (unreliable mode).
    public var dropRate: Double
    /// Probability that a message is delivered twice (unreliable mode).
    public var duplicateRate: Double
    /// Probability that a message is held back by ``reorderDelay`` so later ones overtake it
    /// (unreliable mode).
    public var reorderRate: Double
    /// The latency of each delivery, drawn uniformly from this range.
    public var delay: ClosedRange<Duration>
    /// The extra latency of a reordered message.
    public var reorderDelay: Duration
    /// Whether each message's fate is drawn from its content (and how many times the same
    /// bytes went over the link before) instead of from its place in the link's sequence.
    /// Then a message is dropped, doubled or delayed alike in every run, even when the
    /// participants' tasks (a delivery layer's timers and acknowledgements) interleave
    /// differently and send other messages in between; a simulated session replays.
    public var keyedByContent = false
    /// When the faults happen, on the hub's clock: messages sent outside this window are
    /// neither dropped, duplicated nor reordered, only delayed; nil (the default) for
    /// faults all along. A test of recovery sets it: "a good link, 50% drop from 1 s to
    /// 31 s, then a good link again".
    public var faultWindow: Range<Duration>?

    /// Creates a plan.
    public init(
        seed: UInt64, mode: DeliveryMode, dropRate: Double = 0, duplicateRate: Double = 0, reorderRate: Double = 0,
        delay: ClosedRange<Duration> = .zero ... .zero, reorderDelay: Duration = .milliseconds(50)
    ) {
        self.seed = seed
        self.mode = mode
        self.dropRate = dropRate
        self.duplicateRate = duplicateRate
        self.reorderRate = reorderRate
        self.delay = delay
        self.reorderDelay = reorderDelay
    }

    /// A reliable ordered link with latency drawn from `delay`.
    public static func reliable(seed: UInt64 = 0, delay: ClosedRange<Duration> = .zero ... .zero) -> FaultPlan {
        FaultPlan(seed: seed, mode: .reliable, delay: delay)
    }

    /// A lossy link: messages dropped, duplicated and reordered at these rates.
    public static func unreliable(
        seed: UInt64, drop: Double = 0, duplicate: Double = 0, reorder: Double = 0,
        delay: ClosedRange<Duration> = .milliseconds(1) ... .milliseconds(20)
    ) -> FaultPlan {
        FaultPlan(seed: seed, mode: .unreliable, dropRate: drop, duplicateRate: duplicate, reorderRate: reorder, delay: delay)
    }
}
