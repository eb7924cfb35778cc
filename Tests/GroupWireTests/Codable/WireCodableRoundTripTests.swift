import Foundation
import Testing

@testable import GroupWire

@Suite struct WireCodableRoundTripTests {
    @Test func everyScalarTypeRoundTripsAtItsExtremes() throws {
        #expect(try wireRoundTrip(AllScalars.extremes) == AllScalars.extremes)
        #expect(try wireRoundTrip(AllScalars.others) == AllScalars.others)
    }

    @Test func oneHundredTwentyEightBitIntegersRoundTripInBothForms() throws {
        let signed: [Int128] = [0, -1, 42, Int128(Int64.min), Int128(Int64.max) + 1, .min, .max]
        let unsigned: [UInt128] = [0, 7, UInt128(UInt64.max), UInt128(UInt64.max) + 1, .max]
        #expect(try wireRoundTrip(signed) == signed)
        #expect(try wireRoundTrip(unsigned) == unsigned)
        // Values that fit 64 bits stay varints; larger ones are fixed128.
        #expect(
            try WireEncoder().encode(Int128(Int64.min) - 1) == [0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
                + [UInt8](repeating: 0xFF, count: 8))
        #expect(try WireEncoder().encode(Int128(-1)) == [0x00, 0x01])
        #expect(try WireEncoder().encode(UInt128.max) == [0x04] + [UInt8](repeating: 0xFF, count: 16))
    }

    @Test func nanPayloadsAndInfinitiesKeepTheirBitPatterns() throws {
        let doubles = [Double(nan: 0x1234, signaling: false), -Double.nan, .infinity, -.infinity, -0.0]
        let floats = [Float(nan: 0x12, signaling: false), .infinity, -.infinity, -0.0]
        #expect(try wireRoundTrip(doubles).map(\.bitPattern) == doubles.map(\.bitPattern))
        #expect(try wireRoundTrip(floats).map(\.bitPattern) == floats.map(\.bitPattern))
    }

    @Test func stringsOfEveryShapeRoundTrip() throws {
        let strings = ["", "a", String(repeating: "long ", count: 10_000), "é", "e\u{301}", "👩‍👩‍👧", "\u{0}", "日本語テキスト"]
        let back = try wireRoundTrip(strings)
        #expect(back == strings)
        #expect(back.map { Array($0.utf8) } == strings.map { Array($0.utf8) })
    }

    @Test func foundationValuesUseTheirCompactFormsAndRoundTrip() throws {
        let value = FoundationValues(
            id: UUID(), when: Date(timeIntervalSinceReferenceDate: 123_456.789_012_345),
            blob: Data([0, 1, 2, 255]), link: try #require(URL(string: "https://example.com/a?b=c#d")),
            amount: try #require(Decimal(string: "-12345678901234567890.123456789")))
        #expect(try wireRoundTrip(value) == value)
        let decimals: [Decimal] = [
            0, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -.greatestFiniteMagnitude,
            try #require(Decimal(string: "0.000001")),
        ]
        #expect(try wireRoundTrip(decimals) == decimals)
        #expect(try wireRoundTrip(Decimal.nan).isNaN)
        #expect(try wireRoundTrip(Data()) == Data())
    }

    @Test func collectionsWithStringIntEnumAndUUIDKeysRoundTrip() throws {
        let value = Collections(
            strings: ["x", "", "yz"], byName: ["a": 1, "": -2, "ü": 3], byNumber: [1: "one", -7: "minus seven"],
            byColour: [.red: 1, .blue: 3], byID: [UUID(): Point(x: 1, y: 2), UUID(): Point(x: -1, y: 0)],
            nested: [[1, nil, 3], [], [nil]], set: [3, 1, 2], optionals: [nil, "a", nil])
        #expect(try wireRoundTrip(value) == value)
        let empty = Collections(
            strings: [], byName: [:], byNumber: [:], byColour: [:], byID: [:],
            nested: [], set: [], optionals: [])
        #expect(try wireRoundTrip(empty) == empty)
    }

    @Test func enumsWithAndWithoutAssociatedValuesRoundTrip() throws {
        let shapes: [Shape] = [
            .dot, .circle(center: Point(x: 1, y: 2), radius: 3), .polyline([]),
            .polyline([Point(x: 0, y: 0), Point(x: 1, y: 1)]), .labelled("l", nil), .labelled("", 5),
        ]
        #expect(try wireRoundTrip(shapes) == shapes)
        #expect(try wireRoundTrip([Colour.green, .red]) == [.green, .red])
        #expect(try wireRoundTrip(Priority.high) == .high)
    }

    @Test func optionalsNestedInsideOptionalsRoundTrip() throws {
        struct Holder: Codable, Equatable {
            var a: Int??
            var b: [Int?]?
            var c: Point?
        }
        let values = [
            Holder(a: .some(nil), b: [nil], c: nil), Holder(a: 1, b: nil, c: Point(x: 1, y: 1)),
            Holder(a: nil, b: [], c: nil),
        ]
        // Int?? .some(nil) collapses to nil, as it does in JSON.
        let back = try wireRoundTrip(values)
        #expect(back[0].a == nil && back[0].b == [nil] && back[0].c == nil)
        #expect(back[1] == values[1])
        #expect(back[2] == values[2])
    }

    @Test func topLevelScalarsAndDeeplyNestedValuesRoundTrip() throws {
        #expect(try wireRoundTrip(42) == 42)
        #expect(try wireRoundTrip("top") == "top")
        #expect(try wireRoundTrip([[[[["deep"]]]]]) == [[[[["deep"]]]]])
        #expect(try wireRoundTrip(["k": ["k2": [1.5]]]) == ["k": ["k2": [1.5]]])
    }

    @Test func nestedContainersFilledAfterTheirSiblingsRoundTrip() throws {
        let value = OutOfOrder(first: [1, 2, 3], inner: "inner", last: -9, late: Point(x: 4, y: 5))
        let back = try wireRoundTrip(value)
        #expect(back == value)
    }

    @Test func superEncodersKeyedAndUnkeyedRoundTripClassHierarchies() throws {
        let value = Derived(base: 7, extra: "more", tail: [Point(x: 1, y: 2)])
        let back = try wireRoundTrip(value)
        #expect(back.base == 7 && back.extra == "more" && back.tail == [Point(x: 1, y: 2)])
        let list = SuperList(values: ["a", "b"], head: 3)
        #expect(try wireRoundTrip(list) == list)
    }

    @Test func aSecondContainerRequestForTheSameValueContinuesTheFirst() throws {
        let value = TwoContainers(a: 1, b: "two")
        #expect(try wireRoundTrip(value) == value)
    }

    @Test func aValueThatEncodesNothingBecomesAnEmptyKeyedContainer() throws {
        struct Nothing: Codable, Equatable {
            func encode(to encoder: any Encoder) throws {}
            init() {}
            init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: WireCodingKey.self) }
        }
        #expect(try WireEncoder().encode(Nothing()) == [0x02, 0x00])
        #expect(try wireRoundTrip([Nothing()]) == [Nothing()])
    }

    @Test func userInfoReachesTheTypesBeingEncodedAndDecoded() throws {
        let key = try #require(CodingUserInfoKey(rawValue: "scale"))
        let bytes = try WireEncoder(userInfo: [key: 10]).encode(Scaled(value: 3))
        let back = try WireDecoder(userInfo: [key: 100]).decode(Scaled.self, from: bytes)
        #expect(back.value == 300)
    }

    @Test func dataConveniencesProduceTheSameBytes() throws {
        let data = try WireEncoder().encodeData(Point(x: 1, y: 2))
        #expect([UInt8](data) == (try WireEncoder().encode(Point(x: 1, y: 2))))
        #expect(try WireDecoder().decode(Point.self, from: data) == Point(x: 1, y: 2))
    }

    @Test func writingToAContainerAfterItsValueFinishedIsAnEncodingError() throws {
        #expect(throws: EncodingError.self) { try WireEncoder().encode(Escaping()) }
    }
}

/// Fills a nested keyed and a nested unkeyed container after writing siblings, and a super
/// encoder last of all.
struct OutOfOrder: Codable, Equatable {
    var first: [Int]
    var inner: String
    var last: Int
    var late: Point

    enum CodingKeys: String, CodingKey { case list, box, last, late }
    enum BoxKeys: String, CodingKey { case inner }

    init(first: [Int], inner: String, last: Int, late: Point) {
        self.first = first
        self.inner = inner
        self.last = last
        self.late = late
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        var box = container.nestedContainer(keyedBy: BoxKeys.self, forKey: .box)
        let lateEncoder = container.superEncoder(forKey: .late)
        try container.encode(last, forKey: .last)
        try box.encode(inner, forKey: .inner)
        for value in first {
            try list.encode(value)
        }
        try late.encode(to: lateEncoder)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        last = try container.decode(Int.self, forKey: .last)
        late = try Point(from: container.superDecoder(forKey: .late))
        inner = try container.nestedContainer(keyedBy: BoxKeys.self, forKey: .box).decode(String.self, forKey: .inner)
        var list = try container.nestedUnkeyedContainer(forKey: .list)
        var values: [Int] = []
        while !list.isAtEnd {
            values.append(try list.decode(Int.self))
        }
        first = values
    }
}

class Base: Codable {
    var base: Int
    init(base: Int) { self.base = base }
}

final class Derived: Base, @unchecked Sendable {
    var extra: String
    var tail: [Point]
    enum CodingKeys: String, CodingKey { case extra, tail }

    init(base: Int, extra: String, tail: [Point]) {
        self.extra = extra
        self.tail = tail
        super.init(base: base)
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try super.encode(to: container.superEncoder())
        var tailList = container.nestedUnkeyedContainer(forKey: .tail)
        try container.encode(extra, forKey: .extra)
        for point in tail {
            var pointBox = tailList.nestedContainer(keyedBy: Point.CodingKeys.self)
            try pointBox.encode(point.x, forKey: .x)
            try pointBox.encode(point.y, forKey: .y)
        }
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        extra = try container.decode(String.self, forKey: .extra)
        var tailList = try container.nestedUnkeyedContainer(forKey: .tail)
        var points: [Point] = []
        while !tailList.isAtEnd {
            let box = try tailList.nestedContainer(keyedBy: Point.CodingKeys.self)
            points.append(Point(x: try box.decode(Double.self, forKey: .x), y: try box.decode(Double.self, forKey: .y)))
        }
        tail = points
        try super.init(from: container.superDecoder())
    }
}

extension Point {
    enum CodingKeys: String, CodingKey { case x, y }
}

/// An unkeyed container whose first element is written through `superEncoder()`.
struct SuperList: Codable, Equatable {
    var values: [String]
    var head: Int

    init(values: [String], head: Int) {
        self.values = values
        self.head = head
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        let headEncoder = container.superEncoder()
        for value in values { try container.encode(value) }
        var single = headEncoder.singleValueContainer()
        try single.encode(head)
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        head = try container.superDecoder().singleValueContainer().decode(Int.self)
        var values: [String] = []
        while !container.isAtEnd { values.append(try container.decode(String.self)) }
        self.values = values
    }
}

/// Asks the encoder for its keyed container twice, as subclasses sharing a container do.
struct TwoContainers: Codable, Equatable {
    var a: Int
    var b: String
    enum KeysA: String, CodingKey { case a }
    enum KeysB: String, CodingKey { case b }

    init(a: Int, b: String) {
        self.a = a
        self.b = b
    }

    func encode(to encoder: any Encoder) throws {
        var first = encoder.container(keyedBy: KeysA.self)
        try first.encode(a, forKey: .a)
        var second = encoder.container(keyedBy: KeysB.self)
        try second.encode(b, forKey: .b)
    }

    init(from decoder: any Decoder) throws {
        b = try decoder.container(keyedBy: KeysB.self).decode(String.self, forKey: .b)
        a = try decoder.container(keyedBy: KeysA.self).decode(Int.self, forKey: .a)
    }
}

/// Multiplies by a factor found in `userInfo` on both sides.
struct Scaled: Codable {
    var value: Int
    static let key = CodingUserInfoKey(rawValue: "scale")

    init(value: Int) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        let factor = Scaled.key.flatMap { encoder.userInfo[$0] as? Int } ?? 1
        try container.encode(value * factor)
    }

    init(from decoder: any Decoder) throws {
        let factor = Scaled.key.flatMap { decoder.userInfo[$0] as? Int } ?? 1
        value = try decoder.singleValueContainer().decode(Int.self) * factor / 10
    }
}

/// Keeps its parent's container and writes to it from inside a nested value.
struct Escaping: Encodable {
    struct Child: Encodable {
        let parent: KeyedEncodingContainer<WireCodingKey>
        func encode(to encoder: any Encoder) throws {
            var parent = self.parent
            try parent.encode(1, forKey: WireCodingKey(stringValue: "sneaky"))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireCodingKey.self)
        try container.encode(Child(parent: container), forKey: WireCodingKey(stringValue: "child"))
    }
}
