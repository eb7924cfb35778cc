/// A small, fast, seeded random number generator (SplitMix64), so that simulated faults
/// and property tests replay exactly from their seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; the same seed always yields the same sequence.
    public init(seed: UInt64) {
        state = seed
    }

    /// Creates a generator for one of many independent streams derived from one seed.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SeededRandom(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))  // safe because: wrapping by design
        state = mixer.next()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        // SplitMix64 (Steele, Lea, Flood 2014); all arithmetic wraps by design.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `probability` (0 ... 1).
    public mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) * 0x1.0p-53 < probability
    }
}
