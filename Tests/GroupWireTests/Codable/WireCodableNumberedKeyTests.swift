import Foundation
import GroupWireTestSupport
import Testing

@testable import GroupWire

/// Keys with an `intValue` that their type rebuilds are written as numbers
/// (Spec/FORMAT.md, "Keyed containers").
@Suite struct WireCodableNumberedKeyTests {
    struct Track: Codable, Equatable {
        var id: UUID
        var title: String
        var rate: Double
        var tags: [String]
        var cover: Point?
        enum CodingKeys: Int, CodingKey { case id = 1, title, rate, tags, cover }
    }

    struct TrackV2: Codable, Equatable {
        var id: UUID
        var title: String
        var rate: Double
        var tags: [String]
        var cover: Point?
        var chapters: [Int]?
        var note: String?
        enum CodingKeys: Int, CodingKey { case id = 1, title, rate, tags, cover, chapters = 40, note = 300 }
    }

    struct TrackByName: Codable, Equatable {
        var id: UUID
        var title: String
        var rate: Double
        var tags: [String]
        var cover: Point?
    }

    /// String and Int keys in one container: `label` goes by name, the rest by number.
    struct Mixed: Codable, Equatable {
        var count: Int
        var label: String
        var ratio: Double

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init?(stringValue: String) {
                switch stringValue {
                case "count": self.init(stringValue: "count", intValue: 7)
                case "ratio": self.init(stringValue: "ratio", intValue: 0)
                default: self.init(stringValue: stringValue, intValue: nil)
                }
            }
            init?(intValue: Int) {
                switch intValue {
                case 7: self.init(stringValue: "count", intValue: 7)
                case 0: self.init(stringValue: "ratio", intValue: 0)
                default: return nil
                }
            }
            private init(stringValue: String, intValue: Int?) {
                self.stringValue = stringValue
                self.intValue = intValue
            }
            static let count = Key(stringValue: "count", intValue: 7)
            static let label = Key(stringValue: "label", intValue: nil)
            static let ratio = Key(stringValue: "ratio", intValue: 0)
        }

        init(count: Int, label: String, ratio: Double) {
            self.count = count
            self.label = label
            self.ratio = ratio
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(count, forKey: Key.count)
            try container.encode(label, forKey: Key.label)
            try container.encode(ratio, forKey: Key.ratio)
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            ratio = try container.decode(Double.self, forKey: Key.ratio)
            label = try container.decode(String.self, forKey: Key.label)
            count = try container.decode(Int.self, forKey: Key.count)
        }
    }

    private let sample = Track(
        id: UUID("00112233-4455-6677-8899-AABBCCDDEEFF"),
        title: "Intro", rate: 1.25, tags: ["a", "b"], cover: Point(x: 0.1, y: 2))

    @Test func aTypeWithIntCodingKeysRoundTripsAndIsSmallerThanByName() throws {
        let numbered = try WireEncoder().encode(sample)
        #expect(try WireDecoder().decode(Track.self, from: numbered) == sample)
        let named = try WireEncoder().encode(
            TrackByName(
                id: sample.id, title: sample.title, rate: sample.rate,
                tags: sample.tags, cover: sample.cover))
        // Per entry 2 bytes (header, number) instead of header + name: id 3, title 6,
        // rate 5, tags 5, cover 6 bytes by name.
        #expect(named.count - numbered.count == (3 + 6 + 5 + 5 + 6) - 5 * 2)
    }

    @Test func namedAndNumberedKeysMixInOneContainerAndAreFoundInAnyOrder() throws {
        let value = Mixed(count: -4, label: "x", ratio: 0.1)
        let bytes = try WireEncoder().encode(value)
        // count: 00 08 07 (number 7), label: 2a "label" 01 78, ratio: 01 01 + 8 bytes (number 0).
        #expect(Array(bytes.prefix(5)) == [0x02, 0x15, 0x00, 0x08, 0x07])
        #expect(Array(bytes[5..<13]) == [0x2A, 0x6C, 0x61, 0x62, 0x65, 0x6C, 0x01, 0x78])
        #expect(Array(bytes[13..<15]) == [0x01, 0x01])
        #expect(bytes.count == 23)
        #expect(try WireDecoder().decode(Mixed.self, from: bytes) == value)
    }

    @Test func intKeyedDictionariesRoundTripIncludingNegativeAndExtremeKeys() throws {
        let dictionary: [Int: String] = [0: "zero", 1: "one", -1: "minus one", .max: "max", .min: "min", 127: "a", 128: "b"]
        #expect(try wireRoundTrip(dictionary) == dictionary)
        let nested: [Int: [Int: Double]] = [5: [1: 0.5, 2: 0.1], 6: [:]]
        #expect(try wireRoundTrip(nested) == nested)
    }

    @Test func stringKeyedDictionariesKeepKeysThatLookLikeNumbers() throws {
        // "042" has intValue 42 but would come back as "42" by number: it stays by name.
        let dictionary = ["042": 1, "42": 2, "+5": 3, "-0": 4, "7": 5, "": 6, "x": 7]
        #expect(try wireRoundTrip(dictionary) == dictionary)
        // "42" is numbered (header 00, tag 43, svarint 1); "042" is named (header 3 << 3, text).
        #expect(try WireEncoder().encode(["42": 1]) == [0x02, 0x03, 0x00, 0x2B, 0x02])
        #expect(try WireEncoder().encode(["042": 1]) == [0x02, 0x05, 0x18, 0x30, 0x34, 0x32, 0x02])
    }

    @Test func allKeysRebuildsNumberedKeysFromTheirNumbers() throws {
        struct Keys: Decodable {
            var keys: [String]
            init(from decoder: any Decoder) throws {
                keys = try decoder.container(keyedBy: Track.CodingKeys.self).allKeys.map(\.stringValue)
            }
        }
        let bytes = try WireEncoder().encode(sample)
        #expect(try WireDecoder().decode(Keys.self, from: bytes).keys == ["id", "title", "rate", "tags", "cover"])
    }

    @Test func unknownNumberedKeysAreSkippedAndMissingOptionalOnesReadAsNil() throws {
        let newer = TrackV2(id: sample.id, title: "T", rate: 2, tags: [], cover: nil, chapters: [1, 2], note: "n")
        let older = try WireDecoder().decode(Track.self, from: try WireEncoder().encode(newer))
        #expect(older == Track(id: sample.id, title: "T", rate: 2, tags: [], cover: nil))
        let upgraded = try WireDecoder().decode(TrackV2.self, from: try WireEncoder().encode(sample))
        #expect(upgraded.chapters == nil && upgraded.note == nil && upgraded.cover == sample.cover)
    }

    @Test func aMissingRequiredNumberedKeyNamesTheKeyAndItsNumber() throws {
        struct Partial: Codable {
            var id: UUID
            enum CodingKeys: Int, CodingKey { case id = 1 }
        }
        struct Needs: Codable {
            var id: UUID
            var title: String
            enum CodingKeys: Int, CodingKey { case id = 1, title }
        }
        let bytes = try WireEncoder().encode(Partial(id: sample.id))
        let error = try #require(wireError { _ = try WireDecoder().decode(Needs.self, from: bytes) })
        #expect(error.kind == .missingField)
        #expect(error.context.contains("\"title\" (number 2)"))
        #expect(error.offset == 2)
    }

    @Test func switchingFromNamedToNumberedKeysIsABreakingChange() throws {
        let named = try WireEncoder().encode(TrackByName(id: sample.id, title: "T", rate: 1, tags: [], cover: nil))
        let error = try #require(wireError { _ = try WireDecoder().decode(Track.self, from: named) })
        #expect(error.kind == .missingField)
    }

    @Test func errorsInsideNumberedEntriesShowTheKeyNameInTheCodingPath() throws {
        struct Wrong: Codable {
            var title: Int
            enum CodingKeys: Int, CodingKey { case title = 2 }
        }
        let bytes = try WireEncoder().encode(sample)
        let error = try #require(wireError { _ = try WireDecoder().decode(Wrong.self, from: bytes) })
        #expect(error.kind == .typeMismatch)
        #expect(error.context.hasSuffix("(coding path: title)"))
    }

    @Test func aNumberOverIntMaxIsAnInvalidValueAtTheNumber() {
        // One entry: header 00 (key length 0, varint), tag 2^64 - 1 (10 bytes), value 0.
        let bytes: [UInt8] = [0x02, 0x0C, 0x00] + [UInt8](repeating: 0xFF, count: 9) + [0x01, 0x00]
        let error = wireError { _ = try WireDecoder().decode([Int: Int].self, from: bytes) }
        #expect(error?.kind == .invalidValue)
        #expect(error?.offset == 3)
    }

    @Test func aTruncatedOrNonMinimalNumberIsRejectedWithItsOffset() {
        // Header 00, then the container ends before the number.
        let truncated = wireError { _ = try WireDecoder().decode(Track.self, from: [0x02, 0x01, 0x00]) }
        #expect(truncated?.kind == .truncated)
        #expect(truncated?.offset == 3)
        // Number 1 written as 81 00.
        let padded = wireError { _ = try WireDecoder().decode(Track.self, from: [0x02, 0x04, 0x00, 0x81, 0x00, 0x00]) }
        #expect(padded?.kind == .malformedVarint)
        #expect(padded?.offset == 3)
        // A numbered entry whose value has an undefined wire type.
        let undefined = wireError { _ = try WireDecoder().decode(Track.self, from: [0x02, 0x02, 0x07, 0x02]) }
        #expect(undefined?.kind == .unknownWireType)
        #expect(undefined?.offset == 2)
    }
}

/// Doubles exactly representable as Float are written as fixed32 (Spec/FORMAT.md, "Swift values").
@Suite struct WireCodableDoubleNarrowingTests {
    private func encoded(_ value: Double) throws -> [UInt8] {
        try WireEncoder().encode(value)
    }

    private func roundTripsBitExactly(_ value: Double) throws -> Bool {
        try WireDecoder().decode(Double.self, from: encoded(value)).bitPattern == value.bitPattern
    }

    @Test func exactValuesBecomeFixed32AndOthersStayFixed64() throws {
        #expect(try encoded(12.5) == [0x05, 0x00, 0x00, 0x48, 0x41])
        #expect(try encoded(0.1).first == CodableWireType.fixed64)
        #expect(try encoded(0.1).count == 9)
        #expect(try encoded(1e300).count == 9)
        #expect(try encoded(Double(Float.greatestFiniteMagnitude)).count == 5)
        for value in [12.5, 0.1, 1e300, 16_777_217, 16_777_216, 1234.567_891] {
            #expect(try roundTripsBitExactly(value), "\(value)")
        }
        #expect(try encoded(16_777_216).count == 5)
        #expect(try encoded(16_777_217).count == 9)
    }

    @Test func signedZerosAndInfinitiesAreNarrowedWithTheirSign() throws {
        #expect(try encoded(-0.0) == [0x05, 0x00, 0x00, 0x00, 0x80])
        #expect(try encoded(0.0) == [0x05, 0x00, 0x00, 0x00, 0x00])
        #expect(try encoded(.infinity) == [0x05, 0x00, 0x00, 0x80, 0x7F])
        #expect(try encoded(-.infinity) == [0x05, 0x00, 0x00, 0x80, 0xFF])
        for value in [-0.0, 0.0, Double.infinity, -.infinity] {
            #expect(try roundTripsBitExactly(value))
        }
    }

    @Test func nanPayloadsAreNarrowedOnlyWhenTheyFitAndAlwaysKeepTheirBits() throws {
        // A payload in the low bits of the binary64 mantissa cannot survive binary32.
        let lowPayload = Double(nan: 0x1234, signaling: false)
        #expect(try encoded(lowPayload).count == 9)
        #expect(try roundTripsBitExactly(lowPayload))
        // A NaN made from a Float NaN keeps its payload in the bits binary32 has.
        let floatPayload = Double(Float(nan: 0x12, signaling: false))
        #expect(try roundTripsBitExactly(floatPayload))
        #expect(try roundTripsBitExactly(-Double.nan))
        #expect(try roundTripsBitExactly(Double.signalingNaN))
    }

    @Test func subnormalsNarrowOnlyWhenFloatHoldsThemExactly() throws {
        // Float's smallest subnormal is a normal Double, exactly representable.
        let floatSubnormal = Double(Float.leastNonzeroMagnitude)
        #expect(try encoded(floatSubnormal).count == 5)
        #expect(try roundTripsBitExactly(floatSubnormal))
        // Double subnormals are far below Float's range.
        #expect(try encoded(.leastNonzeroMagnitude).count == 9)
        #expect(try roundTripsBitExactly(.leastNonzeroMagnitude))
        #expect(try encoded(Double(Float.leastNonzeroMagnitude) * 1.5).count == 9)
        #expect(try roundTripsBitExactly(Double(Float.leastNonzeroMagnitude) * 1.5))
    }

    @Test func narrowedDoublesInsideContainersRoundTrip() throws {
        let values: [Double] = [1, 0.1, -0.0, .infinity, 2.5, .pi]
        #expect(try wireRoundTrip(values).map(\.bitPattern) == values.map(\.bitPattern))
        // count 6; per element a type byte and 4 or 8 bytes: 0.1 and pi take 8.
        #expect(try WireEncoder().encode(values).count == 2 + 1 + 6 + 4 * 4 + 2 * 8)
    }

    @Test func aFloatFieldDoesNotAcceptFixed64() {
        let error = wireError { _ = try WireDecoder().decode(Float.self, from: [0x01, 0, 0, 0, 0, 0, 0, 0, 0]) }
        #expect(error?.kind == .typeMismatch)
        #expect(error?.offset == 1)
    }
}
