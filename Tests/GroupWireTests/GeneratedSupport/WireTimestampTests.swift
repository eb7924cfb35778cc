import Foundation
import GroupWire
import GroupWireTestSupport
import GroupWireTesting
import Testing

/// A vector from Spec/vectors/timestamps, written by generate_timestamps.py.
struct TimestampVector: Decodable, CustomTestStringConvertible {
    let name: String
    let seconds: String
    let nanoseconds: Int64
    let directions: [String]

    var testDescription: String { name }

    /// The Date the vector's Double bits stand for (`seconds`: their 16 hex digits, most
    /// significant first).
    func date() throws -> Date {
        let bytes = try Hex.bytes(seconds)
        try #require(bytes.count == 8, "seconds \(seconds) is not 8 bytes")
        let bits = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
    }

    static let folder = "Spec/vectors/timestamps"

    /// Every timestamp vector; throws at a vector file that does not decode.
    static func all() throws -> [TimestampVector] {
        try Vectors.loadAll(TimestampVector.self, under: folder)
    }
}

/// Timestamp <-> Date conversion: nearest value both ways, so Dates come back `==`.
@Suite struct WireTimestampTests {
    /// 2^23 s: from this far from 2001 on, a Date's Double is no finer than a nanosecond.
    static let exactFromSecondsSince2001 = 8_388_608.0

    @Test func everyTimestampVectorFileParsesAndBothDirectionsAreCovered() throws {
        let files = try Vectors.files(under: TimestampVector.folder)
        let vectors = try TimestampVector.all()
        #expect(vectors.count == files.count)
        #expect(vectors.filter { $0.directions.contains("encode") }.count >= 20)
        #expect(vectors.filter { $0.directions.contains("decode") }.count >= 20)
    }

    @Test(arguments: try TimestampVector.all())
    func aTimestampVectorConvertsAsThePythonImplementationSays(vector: TimestampVector) throws {
        let date = try vector.date()
        if vector.directions.contains("encode") {
            #expect(_WireTimestamp.nanoseconds(from: date) == vector.nanoseconds)
        }
        if vector.directions.contains("decode") {
            let decoded = _WireTimestamp.date(nanoseconds: vector.nanoseconds)
            #expect(
                decoded.timeIntervalSinceReferenceDate.bitPattern
                    == date.timeIntervalSinceReferenceDate.bitPattern)
        }
    }

    @Test func aMillionRandomDatesOfTheYears1900To2200ComeBackEqual() {
        var generator = SeededRandom(seed: 0xDA7E)
        let start = Date(timeIntervalSince1970: -2_208_988_800).timeIntervalSinceReferenceDate
        let end = Date(timeIntervalSince1970: 7_258_118_400).timeIntervalSinceReferenceDate
        var failures = 0
        var tested = 0
        while tested < 1_000_000 {
            let seconds = Double.random(in: start..<end, using: &generator)
            guard seconds.magnitude >= Self.exactFromSecondsSince2001 else { continue }
            tested += 1
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            if _WireTimestamp.date(nanoseconds: _WireTimestamp.nanoseconds(from: date)) != date {
                failures += 1
                if failures < 5 { Issue.record("\(seconds.bitPattern) did not come back") }
            }
        }
        #expect(failures == 0)
    }

    @Test func aMillionRandomBitPatternsDecodeToDatesThatComeBackEqual() {
        // Any Double (in range or not, near 2001 or not): the Date its Timestamp decodes
        // to comes back equal, so decoding, re-encoding and decoding again is stable.
        var generator = SeededRandom(seed: 0xB175)
        for _ in 0..<1_000_000 {
            let date = Date(timeIntervalSinceReferenceDate: Double(bitPattern: generator.next()))
            let nanoseconds = _WireTimestamp.nanoseconds(from: date)
            let decoded = _WireTimestamp.date(nanoseconds: nanoseconds)
            let again = _WireTimestamp.nanoseconds(from: decoded)
            if _WireTimestamp.date(nanoseconds: again) != decoded {
                Issue.record("bits \(date.timeIntervalSinceReferenceDate.bitPattern) unstable")
                return
            }
        }
    }

    @Test func decodingMatchesTheCorrectlyRoundedDecimalParse() {
        // Double(String) rounds a decimal correctly, an oracle independent of the code
        // under test: "S.nnnnnnnnn" seconds since 2001 is exactly the Timestamp.
        var generator = SeededRandom(seed: 0x0DEC)
        var values: [Int64] = [
            .max, .min, 0, 978_307_200_000_000_000, 978_307_200_000_000_001,
            978_307_199_999_999_999, 1 << 53, -(1 << 53),
        ]
        for _ in 0..<100_000 { values.append(Int64(bitPattern: generator.next())) }
        for _ in 0..<100_000 {
            // Near 2001, where a Double is finer than a nanosecond.
            values.append(978_307_200_000_000_000 + Int64.random(in: -(1 << 55)...(1 << 55), using: &generator))
        }
        for nanoseconds in values {
            let since2001 = Int128(nanoseconds) - 978_307_200_000_000_000
            let sign = since2001 < 0 ? "-" : ""
            let magnitude = since2001.magnitude
            let fraction = String(magnitude % 1_000_000_000)
            let text = "\(sign)\(magnitude / 1_000_000_000).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)"
            let expected = Double(text)
            #expect(_WireTimestamp.date(nanoseconds: nanoseconds).timeIntervalSinceReferenceDate == expected, "\(nanoseconds)")
        }
    }

    @Test func nearTwoThousandOneTheDatesNearestToWholeNanosecondsComeBack() {
        var generator = SeededRandom(seed: 0x2001)
        for _ in 0..<100_000 {
            // Within 2^23 s of 2001, where a Double is finer than a nanosecond.
            let nanoseconds =
                978_307_200_000_000_000 + Int64.random(in: -8_388_607_999_999_999...8_388_607_999_999_999, using: &generator)
            let date = _WireTimestamp.date(nanoseconds: nanoseconds)
            #expect(_WireTimestamp.nanoseconds(from: date) == nanoseconds)
        }
    }

    @Test func nearTwoThousandOneADateFinerThanANanosecondComesBackAsTheNearestNanosecond() {
        let date = Date(timeIntervalSinceReferenceDate: 0.001 + 0x1p-60)
        let decoded = _WireTimestamp.date(nanoseconds: _WireTimestamp.nanoseconds(from: date))
        #expect(decoded != date)
        #expect(decoded == Date(timeIntervalSinceReferenceDate: 0.001))
    }

    @Test func datesOfNowComeBackEqual() {
        for _ in 0..<1_000 {
            let date = Date()
            #expect(_WireTimestamp.date(nanoseconds: _WireTimestamp.nanoseconds(from: date)) == date)
        }
    }

    @Test func aTimestampComesBackAsTheNanosecondNearestToItsDate() {
        // In 2023 a Date's Double steps by 2^-23 s (119 ns): the wire value 789 ns lands
        // on the Date nearest to it, which re-encodes as its own nearest nanosecond.
        let date = _WireTimestamp.date(nanoseconds: 1_700_000_000_123_456_789)
        #expect(_WireTimestamp.nanoseconds(from: date) == 1_700_000_000_123_456_836)
        #expect(_WireTimestamp.date(nanoseconds: 1_700_000_000_123_456_836) == date)
        // Near 2001 the Double is finer than a nanosecond, and every count survives.
        #expect(
            _WireTimestamp.nanoseconds(from: _WireTimestamp.date(nanoseconds: 978_307_200_000_000_001)) == 978_307_200_000_000_001
        )
    }

    @Test func theEndsClampAndNaNIsZero() {
        #expect(_WireTimestamp.nanoseconds(from: .distantFuture) == .max)
        #expect(_WireTimestamp.nanoseconds(from: .distantPast) == .min)
        #expect(_WireTimestamp.nanoseconds(from: Date(timeIntervalSinceReferenceDate: .infinity)) == .max)
        #expect(_WireTimestamp.nanoseconds(from: Date(timeIntervalSinceReferenceDate: -.infinity)) == .min)
        #expect(_WireTimestamp.nanoseconds(from: Date(timeIntervalSinceReferenceDate: .nan)) == 0)
        for end in [Int64.max, .min] {
            let date = _WireTimestamp.date(nanoseconds: end)
            #expect(_WireTimestamp.date(nanoseconds: _WireTimestamp.nanoseconds(from: date)) == date)
        }
    }

    @Test func theDefaultIsTheUnixEpoch() {
        #expect(_WireTimestamp.nanoseconds(from: _WireTimestamp.epoch) == 0)
        #expect(_WireTimestamp.date(nanoseconds: 0) == _WireTimestamp.epoch)
    }
}
