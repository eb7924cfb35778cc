import Testing

@testable import GroupWireSession

/// The `Duration` helpers the delivery layer's estimators use instead of `Duration`'s own
/// operators: the same values to the attosecond, and the seconds they read.
@Suite struct DurationArithmeticTests {
    /// Durations from attoseconds to minutes, with fractions of a nanosecond, and negative.
    let durations: [Duration] = [
        .zero, Duration(attoseconds: 1), Duration(attoseconds: 7), .nanoseconds(1), .nanoseconds(12_345),
        Duration(attoseconds: 60_000_000_000_013), .microseconds(60), .milliseconds(1), .milliseconds(100) / 3,
        .seconds(1.6), .seconds(600), .nanoseconds(-12_345), Duration(attoseconds: -7),
    ]

    @Test func scaledIsWhatMultiplyingThenDividingGives() {
        for duration in durations {
            for (numerator, denominator) in [(1, 1), (1, 2), (1, 8), (4, 1), (9, 8), (3, 4), (7, 8), (2, 3)] {
                #expect(
                    duration.scaled(Int128(numerator), Int128(denominator)) == duration * numerator / denominator,
                    "\(duration) × \(numerator) / \(denominator)")
            }
        }
    }

    @Test func secondsReadsBothComponents() {
        #expect(Duration.milliseconds(1500).seconds == 1.5)
        #expect(Duration.microseconds(60).seconds == 60e-6)
        #expect(Duration.seconds(-2).seconds == -2)
        #expect(Duration(attoseconds: 1).seconds == 1e-18)
        #expect(Duration(attoseconds: 2_500_000_000_000_000_001).seconds == 2.5)
        #expect(Duration.nanoseconds(-1_500_000_000).seconds == -1.5)
    }
}
