import Foundation
import GroupWireTestSupport
import GroupWireTesting
import Testing

@testable import GroupWire

/// Writes its value through the value's own `encode(to:)`, reads it back through
/// `singleValueContainer()`: the forwarding idiom of hand-written wrappers.
struct ForwardsEncoding<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
    init(_ value: Value) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

/// The reverse idiom: writes through `singleValueContainer()`, reads through `init(from:)`.
struct ForwardsDecoding<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
    init(_ value: Value) { self.value = value }
    init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// What a coder does with a value: gives it back, throws, or gives something else back.
enum RoundTripOutcome: Equatable, CustomStringConvertible {
    case same, threw, different

    var description: String {
        switch self {
        case .same: "same"
        case .threw: "threw"
        case .different: "different"
        }
    }

    static func of<T: Codable & Equatable>(_ value: T, encode: (T) throws -> Data, decode: (Data) throws -> T) -> Self {
        guard let bytes = try? encode(value), let back = try? decode(bytes) else { return .threw }
        return back == value ? .same : .different
    }

    static func json<T: Codable & Equatable>(_ value: T) -> Self {
        of(value, encode: { try JSONEncoder().encode($0) }, decode: { try JSONDecoder().decode(T.self, from: $0) })
    }

    static func wire<T: Codable & Equatable>(_ value: T) -> Self {
        of(value, encode: { try WireEncoder().encodeData($0) }, decode: { try WireDecoder().decode(T.self, from: $0) })
    }
}

/// A row written through one `nestedContainer` per element.
struct RowsThroughNestedContainers: Encodable {
    var rows: [Row]
    func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        for row in rows {
            var nested = list.nestedContainer(keyedBy: Row.CodingKeys.self)
            try nested.encode(row.id, forKey: .id)
            try nested.encode(row.name, forKey: .name)
        }
    }
}

/// The same rows keyed by position, each through `nestedContainer(keyedBy:forKey:)`.
struct RowsByKeyThroughNestedContainers: Encodable {
    var rows: [Row]
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: WireCodingKey.self)
        for (index, row) in rows.enumerated() {
            var nested = keyed.nestedContainer(keyedBy: Row.CodingKeys.self, forKey: WireCodingKey(stringValue: "r\(index)"))
            try nested.encode(row.id, forKey: .id)
            try nested.encode(row.name, forKey: .name)
        }
    }
}

struct Row: Codable, Equatable {
    var id: Int
    var name: String
    enum CodingKeys: String, CodingKey { case id, name }
}

/// A value nested two levels (itself and its array) per step.
struct Nest: Codable, Equatable {
    var children: [Nest]

    static func deep(_ steps: Int) -> Nest {
        var nest = Nest(children: [])
        for _ in 0..<steps { nest = Nest(children: [nest]) }
        return nest
    }
}

/// A chain of `nestedUnkeyedContainer`s `depth` long, with no value encoded in between.
struct NestedContainerChain: Encodable {
    var depth: Int
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for _ in 0..<depth {
            container = container.nestedUnkeyedContainer()
        }
        try container.encode(1)
    }
}

/// Asks for a keyed and then an unkeyed container of one value.
struct KeyedThenUnkeyed: Encodable {
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: WireCodingKey.self)
        try keyed.encode(1, forKey: WireCodingKey(stringValue: "a"))
        var list = encoder.unkeyedContainer()
        try list.encode(2)
    }
}

@Suite struct WireCodableJSONParityTests {
    /// Checks one value under both idioms and inside a keyed and an unkeyed container:
    /// the wire coder never gives a different value back, and round-trips whatever JSON does.
    private func compare<Value: Codable & Equatable>(_ value: Value, _ label: String) {
        func check<T: Codable & Equatable>(_ sample: T, _ idiom: String) {
            let json = RoundTripOutcome.json(sample)
            let wire = RoundTripOutcome.wire(sample)
            #expect(wire != .different, "\(label) \(idiom): the wire coder misread the value")
            if json == .same {
                #expect(wire == .same, "\(label) \(idiom): JSON round-trips, the wire coder \(wire)")
            }
        }
        check(ForwardsEncoding(value), "forwarding encode(to:)")
        check(ForwardsDecoding(value), "forwarding init(from:)")
        check(["k": ForwardsEncoding(value)], "forwarding encode(to:) in a keyed container")
        check([ForwardsDecoding(value), ForwardsDecoding(value)], "forwarding init(from:) in an unkeyed container")
        check([ForwardsEncoding([value])], "forwarding an array")
    }

    @Test func forwardingWrappersMatchJSONOrThrowForEveryFoundationTypeAndScalar() {
        var rng = SeededRandom(seed: 0xF0_4A2D)
        for round in 0..<300 {
            let uuid = UUID(
                uuid: withUnsafeBytes(of: (rng.next(), rng.next())) { raw in
                    (
                        raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                        raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                    )
                })
            compare(uuid, "UUID \(round)")
            // One in four dates is exact as a Float, the case the reader once refused.
            let seconds =
                round % 4 == 0
                ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()) & 0x4FFF_FFFF))
                : Double.random(in: -1e10...1e10, using: &rng)
            compare(Date(timeIntervalSinceReferenceDate: seconds), "Date \(round)")
            compare(Date(), "Date() \(round)")
            compare(Data((0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }), "Data \(round)")
            compare(URL(string: "https://example.com/p\(rng.next() % 1000)?q=\(rng.next() % 7)")!, "URL \(round)")
            compare(
                Decimal(
                    sign: rng.next() % 2 == 0 ? .plus : .minus, exponent: Int(rng.next() % 20) - 10,
                    significand: Decimal(rng.next() % 1_000_000_000)), "Decimal \(round)")
            compare("text \(rng.next())", "String \(round)")
            compare(Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF), "Double \(round)")
            compare(Int64(bitPattern: rng.next()), "Int64 \(round)")
            compare(UInt8(truncatingIfNeeded: rng.next()), "UInt8 \(round)")
        }
    }

    @Test func aForwardedUUIDDateAndDataRoundTripAsJSONDoesOrThrow() throws {
        let uuid = UUID("00112233-4455-6677-8899-AABBCCDDEEFF")
        #expect(try wireRoundTrip(ForwardsEncoding(uuid)) == ForwardsEncoding(uuid))
        #expect(try wireRoundTrip(ForwardsDecoding(uuid)) == ForwardsDecoding(uuid))
        // 2^-1 s is exact as a Float: Date's own encode(to:) writes it as fixed32.
        let date = Date(timeIntervalSinceReferenceDate: 0.5)
        #expect(try WireEncoder().encode(ForwardsEncoding(date)) == [5, 0, 0, 0, 0x3f])
        #expect(try wireRoundTrip(ForwardsEncoding(date)) == ForwardsEncoding(date))
        // Data's own encode(to:) writes an unkeyed container of bytes; it reads back as such.
        let data = Data([1, 0, 5, 255])
        #expect(try wireRoundTrip(ForwardsEncoding(data)) == ForwardsEncoding(data))
        // The compact Data form (opaque) is never taken for Data's unkeyed form.
        #expect(wireError { _ = try wireRoundTrip(ForwardsDecoding(data)) }?.kind == .typeMismatch)
        #expect(wireError { _ = try wireRoundTrip(ForwardsDecoding(URL(string: "https://a.example")!)) }?.kind == .typeMismatch)
    }

    @Test func manyNestedContainersWriteTheBytesOfTheSameRowsEncodedAsValues() throws {
        let rows = (0..<3_000).map { Row(id: $0 * 7 - 1_000, name: "row \($0)") }
        #expect(try WireEncoder().encode(RowsThroughNestedContainers(rows: rows)) == WireEncoder().encode(rows))
        let keyed = try WireEncoder().encode(RowsByKeyThroughNestedContainers(rows: rows))
        let back = try WireDecoder().decode([String: Row].self, from: keyed)
        #expect(back.count == rows.count)
        #expect(back["r2999"] == rows[2999])
        #expect(back["r0"] == rows[0])
    }

    @Test func theEncoderRefusesExactlyTheValuesTooDeepForTheDecoder() throws {
        let limits = Limits.default
        // deep(n): the innermost (empty) array sits at depth 2n + 1.
        let deepest = (limits.maxNestingDepth - 1) / 2
        let fits = Nest.deep(deepest)
        #expect(try WireDecoder().decode(Nest.self, from: WireEncoder().encode(fits)) == fits)
        let tooDeep = try WireEncoder(limits: Limits(maxNestingDepth: 1_000)).encode(Nest.deep(deepest + 1))
        #expect(wireError { _ = try WireDecoder().decode(Nest.self, from: tooDeep) }?.kind == .depthExceeded)
        // JSONEncoder throws rather than overflowing the stack up to about 10,000 levels.
        for steps in [deepest + 1, 2_500, 4_500] {
            do {
                _ = try WireEncoder().encode(Nest.deep(steps))
                Issue.record("\(steps) steps were encoded")
            } catch let error as EncodingError {
                guard case .invalidValue(_, let context) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(context.debugDescription == "nesting deeper than maxNestingDepth \(limits.maxNestingDepth)")
                // The path to the value that would have held the too-deep one.
                #expect(context.codingPath.count == limits.maxNestingDepth)
            }
        }
    }

    @Test func aChainOfNestedContainersIsBoundedLikeNestedValues() throws {
        let limits = Limits.default
        let fits = try WireEncoder().encode(NestedContainerChain(depth: limits.maxNestingDepth))
        #expect(fits.count > limits.maxNestingDepth)
        for depth in [limits.maxNestingDepth + 1, 50_000] {
            do {
                _ = try WireEncoder().encode(NestedContainerChain(depth: depth))
                Issue.record("a chain of \(depth) was encoded")
            } catch let error as EncodingError {
                guard case .invalidValue(_, let context) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(context.debugDescription == "nesting deeper than maxNestingDepth \(limits.maxNestingDepth)")
            }
        }
    }

    @Test func aKeyedThenAnUnkeyedContainerReportsTheRecordedMisuse() {
        do {
            _ = try WireEncoder().encode(KeyedThenUnkeyed())
            Issue.record("encoded")
        } catch let error as EncodingError {
            guard case .invalidValue(_, let context) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(context.debugDescription == "unkeyed container requested for a value already encoded as keyed")
        } catch {
            Issue.record("\(error)")
        }
    }
}
