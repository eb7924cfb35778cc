import Foundation
import GroupWire
import Testing
import GroupWireTesting

/// Timestamp <-> Date conversion: whole microseconds both ways, so decoding is stable.
@Suite struct WireTimestampTests {
    @Test(arguments: [
        Int64(0), 1, 499, 500, -500, -501, 1_700_000_000_123_456_789, 0x3D00_0000_0000_0000,
        Int64(bitPattern: 0xFF40_0000_FF40_0000), .max, .min,
    ])
    func aDecodedTimestampReencodesAndDecodesToTheSameDate(_ nanoseconds: Int64) {
        let date = _WireTimestamp.date(nanoseconds: nanoseconds)
        let again = _WireTimestamp.date(nanoseconds: _WireTimestamp.nanoseconds(from: date))
        #expect(again == date)
    }

    @Test func decodingRoundsToTheNearestMicrosecondHalfAwayFromZero() {
        #expect(_WireTimestamp.nanoseconds(from: _WireTimestamp.date(nanoseconds: 1_700_000_000_123_456_499)) == 1_700_000_000_123_456_000)
        #expect(_WireTimestamp.nanoseconds(from: _WireTimestamp.date(nanoseconds: 1_700_000_000_123_456_500)) == 1_700_000_000_123_457_000)
        #expect(_WireTimestamp.nanoseconds(from: _WireTimestamp.date(nanoseconds: -1_500)) == -2_000)
    }

    @Test func wholeMicrosecondsSurviveARoundTripExactly() {
        for nanoseconds: Int64 in [0, 1_000, -1_000, 1_700_000_000_123_456_000, -2_208_988_800_000_000_000] {
            #expect(_WireTimestamp.nanoseconds(from: _WireTimestamp.date(nanoseconds: nanoseconds)) == nanoseconds)
        }
    }

    @Test func farFromTwoThousandOneDecodingStillReencodesToTheSameDate() {
        // Beyond about 2^52 microseconds a Double cannot hold every microsecond; the
        // fuzzer found 0x4A00_0000_0000_0000 ns (about the year 2138) decoding unstably.
        var generator = SeededRandom(seed: 0x71AE)
        var values: [Int64] = [0x4A00_0000_0000_0000, -0x4A00_0000_0000_0000, 0x7FFF_FFFF_FFFF_0000]
        for _ in 0..<20_000 {
            values.append(Int64(bitPattern: generator.next()))
        }
        for nanoseconds in values {
            let date = _WireTimestamp.date(nanoseconds: nanoseconds)
            let again = _WireTimestamp.date(nanoseconds: _WireTimestamp.nanoseconds(from: date))
            #expect(again == date, "\(nanoseconds)")
        }
    }
}
