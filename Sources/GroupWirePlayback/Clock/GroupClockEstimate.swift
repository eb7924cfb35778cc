import GroupWireSession

/// This participant's estimate of the group clock from clock exchanges with the group's
/// timekeeper (Spec/PLAYBACK.md, "The group clock").
///
/// An exchange has NTP's four timestamps: the request leaves at `t1` (local clock), arrives
/// at `t2` (group clock), the reply leaves at `t3` (group) and arrives at `t4` (local).
/// Whatever the two delays were, the offset (group minus local) lies between `t3 − t4`
/// and `t2 − t1`: each exchange bounds it from both sides, and the exchange whose request
/// went fastest gives the tightest upper bound, the one whose reply went fastest the
/// tightest lower bound, even when no single exchange was fast both ways. The estimate is
/// the middle of the tightest bounds of the exchanges kept; once they span 20 seconds, the
/// bounds are taken along a line whose slope is the drift (a weighted least-squares line
/// through the exchanges' middles, the quick exchanges weighing most, within ±1,000 ppm),
/// so that a clock running fast or slow is followed.
public struct GroupClockEstimate: Sendable, Equatable {
    /// One exchange: when it happened on the local clock (halfway between `t1` and `t4`),
    /// the bounds it puts on the offset, and its round trip.
    public struct Sample: Sendable, Equatable {
        /// When the exchange happened on the local clock (halfway between `t1` and `t4`).
        public var localTime: Duration
        /// The lower bound on the offset: `t3 − t4`.
        public var lower: Duration
        /// The upper bound on the offset: `t2 − t1`.
        public var upper: Duration
        /// The round trip without the replier's time: the bounds' distance.
        public var roundTrip: Duration { upper - lower }
    }

    /// The exchanges kept, oldest first (at most ``capacity``).
    public private(set) var samples: [Sample] = []
    /// How many exchanges are kept.
    public let capacity: Int
    /// The estimate: the offset at local time ``anchor`` and its change per second (drift).
    public private(set) var anchor: Duration = .zero
    /// The estimated offset (group minus local) at ``anchor``.
    public private(set) var anchorOffset: Duration = .zero
    /// The estimated change of the offset per second of local time (the drift, ±0.001 at most).
    public private(set) var drift: Double = 0
    /// How wide the common interval of the kept exchanges is at the estimate's slope: the
    /// estimate is within half of it of the true offset (when it is not negative).
    public private(set) var uncertainty: Duration = .zero

    /// An estimate with no exchange yet.
    public init(capacity: Int = 48) {
        self.capacity = max(2, capacity)
    }

    /// Whether any exchange has been made.
    public var isEstimated: Bool { !samples.isEmpty }

    /// Adds one exchange: `t1` and `t4` on the local clock (request sent, reply received),
    /// `t2` and `t3` on the group clock (request received, reply sent). An exchange whose
    /// times are out of order (a reply before its request) is ignored and false returned.
    @discardableResult
    public mutating func add(t1: Duration, t2: Duration, t3: Duration, t4: Duration) -> Bool {
        guard t4 >= t1, t3 >= t2, (t4 - t1) >= (t3 - t2) else { return false }
        samples.append(Sample(localTime: t1 + (t4 - t1) / 2, lower: t3 - t4, upper: t2 - t1))
        if samples.count > capacity { samples.removeFirst(samples.count - capacity) }
        fit()
        return true
    }

    /// The group clock's time at local time `local`.
    public func groupTime(atLocal local: Duration) -> Duration {
        local + offset(atLocal: local)
    }

    /// The local time at which the group clock reads `group` (the inverse of ``groupTime(atLocal:)``).
    public func localTime(atGroup group: Duration) -> Duration {
        // offset(l) = a + d (l − anchor); g = l + offset(l) ⇒ l = (g − a + d·anchor) / (1 + d).
        let seconds = (group - anchorOffset).seconds + drift * anchor.seconds
        return .seconds(seconds / (1 + drift))
    }

    /// Group minus local at local time `local`.
    public func offset(atLocal local: Duration) -> Duration {
        anchorOffset + .seconds(drift * (local - anchor).seconds)
    }

    /// The drift, then the middle of the common interval of the bounds along it.
    private mutating func fit() {
        guard let first = samples.first?.localTime.seconds, let last = samples.last?.localTime.seconds else { return }
        let center = (first + last) / 2
        let times = samples.map { $0.localTime.seconds - center }
        let lowers = samples.map(\.lower.seconds)
        let uppers = samples.map(\.upper.seconds)
        func bounds(_ slope: Double) -> (lower: Double, upper: Double) {
            var lower = -Double.infinity
            var upper = Double.infinity
            for index in times.indices {
                lower = max(lower, lowers[index] - slope * times[index])
                upper = min(upper, uppers[index] - slope * times[index])
            }
            return (lower, upper)
        }
        var slope = 0.0
        if last - first >= 20 {
            // The drift: a line through each exchange's middle, the quick ones weighing most
            // (a middle is off by half the difference of its two delays).
            let weights = samples.map { sample -> Double in
                let roundTrip = max(sample.roundTrip.seconds, 0.000_1)
                return 1 / (roundTrip * roundTrip)
            }
            let middles = samples.map { ($0.lower.seconds + $0.upper.seconds) / 2 }
            var total = 0.0
            var meanTime = 0.0
            var meanMiddle = 0.0
            for index in times.indices {
                total += weights[index]
                meanTime += weights[index] * times[index]
                meanMiddle += weights[index] * middles[index]
            }
            meanTime /= total
            meanMiddle /= total
            var covariance = 0.0
            var variance = 0.0
            for index in times.indices {
                covariance += weights[index] * (times[index] - meanTime) * (middles[index] - meanMiddle)
                variance += weights[index] * (times[index] - meanTime) * (times[index] - meanTime)
            }
            if variance > 0 { slope = min(0.001, max(-0.001, covariance / variance)) }
        }
        let (lower, upper) = bounds(slope)
        anchor = .seconds(center)
        anchorOffset = .seconds((lower + upper) / 2)
        drift = slope
        uncertainty = .seconds(upper - lower)
    }
}
