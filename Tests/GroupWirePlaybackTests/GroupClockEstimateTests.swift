import GroupWirePlayback
import GroupWireTesting
import Testing

/// The clock estimate from exchanges alone, without a network: delays drawn from a seeded
/// generator, a device clock off by a known offset and drift.
@Suite struct GroupClockEstimateTests {
    /// `count` exchanges every `interval` against a clock that is `offset` behind the group
    /// clock and `drift` slow; returns the estimate's error at the last exchange and 5 s after.
    static func run(
        offset: Double, drift: Double, count: Int, interval: Double, delays: ClosedRange<Double>, seed: UInt64
    ) -> (now: Double, ahead: Double) {
        var random = SeededRandom(seed: seed)
        var estimate = GroupClockEstimate()
        // Group time g, local time l = g − offset − drift·g.
        func local(_ group: Double) -> Double { group - offset - drift * group }
        var group = 1.0
        for _ in 0..<count {
            let out = Double.random(in: delays, using: &random)
            let back = Double.random(in: delays, using: &random)
            let t1 = local(group)
            let t2 = group + out
            let t3 = t2
            let t4 = local(t3 + back)
            estimate.add(t1: .seconds(t1), t2: .seconds(t2), t3: .seconds(t3), t4: .seconds(t4))
            group += interval
        }
        func error(at group: Double) -> Double {
            let estimated = estimate.groupTime(atLocal: .seconds(local(group)))
            let seconds = Double(estimated.components.seconds) + Double(estimated.components.attoseconds) / 1e18
            return seconds - group
        }
        return (error(at: group), error(at: group + 5))
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func theOffsetIsFoundWithinAFewMillisecondsWhateverTheDrift(seed: UInt64) {
        for drift in [-100e-6, 0, 100e-6] {
            let result = Self.run(offset: 0.5, drift: drift, count: 32, interval: 5, delays: 0.005...0.050, seed: seed)
            #expect(abs(result.now) < 0.006 && abs(result.ahead) < 0.006, "drift \(drift): \(result)")
        }
    }
}
