import Foundation
import GroupWireTesting
import Testing

@testable import GroupWire

/// A value with a bit of everything, for the JSON differential test and the fuzz test.
struct KitchenSink: Codable, Equatable {
    var int: Int
    var int8: Int8
    var int16: Int16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var bool: Bool
    var string: String
    var optionalString: String?
    var points: [Point]
    var byName: [String: [Int]]
    var byNumber: [Int: Bool]
    var byColour: [Colour: String]
    var byID: [UUID: Int16]
    var shape: Shape
    var shapes: [Shape?]
    var colour: Colour
    var priority: Priority?
    var id: UUID
    var date: Date
    var data: Data
    var url: URL
    var decimal: Decimal
    var matrix: [[Float]]
    var flags: Set<Bool>
    var nested: [String: [String: Point?]]

    static func random(using rng: inout SeededRandom) -> KitchenSink {
        func int<T: FixedWidthInteger>(_: T.Type) -> T {
            switch rng.next() % 4 {
            case 0: return T.random(in: -3...3 as ClosedRange<T>, using: &rng)
            case 1: return T.min
            case 2: return T.max
            default: return T.random(in: .min ... .max, using: &rng)
            }
        }
        func double() -> Double {
            switch rng.next() % 5 {
            case 0: return Double(Int.random(in: -1000...1000, using: &rng))
            case 1: return Double.random(in: -1...1, using: &rng)
            case 2: return Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)  // finite
            case 3: return Double.random(in: -1e300...1e300, using: &rng)
            default: return [0.0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1][Int(rng.next() % 5)]
            }
        }
        func string() -> String {
            let ranges: [ClosedRange<UInt32>] = [
                0x20...0x7E, 0x00...0x1F, 0xA0...0x2FF, 0x300...0x36F,
                0x4E00...0x9FFF, 0x1F300...0x1FAFF, 0xE000...0xF8FF,
            ]
            var text = ""
            for _ in 0..<Int(rng.next() % 24) {
                let range = ranges[Int(rng.next() % UInt64(ranges.count))]
                if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &rng)) {
                    text.unicodeScalars.append(scalar)
                }
            }
            return text
        }
        func point() -> Point { Point(x: double(), y: double()) }
        func count(_ max: UInt64 = 6) -> Int { Int(rng.next() % max) }
        func shape() -> Shape {
            switch rng.next() % 4 {
            case 0: return .dot
            case 1: return .circle(center: point(), radius: double())
            case 2: return .polyline((0..<count()).map { _ in point() })
            default: return .labelled(string(), rng.next() % 2 == 0 ? nil : int(Int.self))
            }
        }
        func colour() -> Colour { Colour.allCases[Int(rng.next() % 3)] }
        func uuid() -> UUID {
            var generator = rng
            defer { rng = generator }
            let high = generator.next(), low = generator.next()
            return withUnsafeBytes(of: (high, low)) { raw in
                UUID(
                    uuid: (
                        raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                        raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                    ))
            }
        }
        let significand = Decimal(UInt64.random(in: 0...UInt64(1e15), using: &rng))
        return KitchenSink(
            int: int(Int.self), int8: int(Int8.self), int16: int(Int16.self), uint32: int(UInt32.self),
            uint64: int(UInt64.self), double: double(), float: Float(double() / 1e280),
            bool: rng.next() % 2 == 0, string: string(), optionalString: rng.next() % 2 == 0 ? nil : string(),
            points: (0..<count(20)).map { _ in point() },
            byName: Dictionary(
                (0..<count()).map { _ in (string(), (0..<count()).map { _ in int(Int.self) }) },
                uniquingKeysWith: { first, _ in first }),
            byNumber: Dictionary(
                (0..<count()).map { _ in (int(Int.self), rng.next() % 2 == 0) },
                uniquingKeysWith: { first, _ in first }),
            byColour: Dictionary((0..<count()).map { _ in (colour(), string()) }, uniquingKeysWith: { first, _ in first }),
            byID: Dictionary((0..<count()).map { _ in (uuid(), int(Int16.self)) }, uniquingKeysWith: { first, _ in first }),
            shape: shape(), shapes: (0..<count()).map { _ in rng.next() % 3 == 0 ? nil : shape() },
            colour: colour(), priority: [nil, .low, .high][Int(rng.next() % 3)], id: uuid(),
            date: Date(timeIntervalSinceReferenceDate: Double.random(in: -1e10...1e10, using: &rng)),
            data: Data((0..<count(40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }),
            url: URL(string: "https://example.com/p\(rng.next() % 1000)?q=\(rng.next() % 7)") ?? URL(fileURLWithPath: "/"),
            decimal: Decimal(
                sign: rng.next() % 2 == 0 ? .plus : .minus, exponent: Int(rng.next() % 40) - 20,
                significand: significand),
            matrix: (0..<count()).map { _ in (0..<count()).map { _ in Float(Int16.random(in: .min ... .max, using: &rng)) / 8 } },
            flags: Set((0..<count(3)).map { _ in rng.next() % 2 == 0 }),
            nested: Dictionary(
                (0..<count(4)).map { _ in
                    (
                        string(),
                        Dictionary(
                            (0..<count(4)).map { _ in (string(), rng.next() % 2 == 0 ? nil : point()) },
                            uniquingKeysWith: { first, _ in first })
                    )
                }, uniquingKeysWith: { first, _ in first }))
    }
}

@Suite struct WireCodableDifferentialTests {
    /// Round-trips `value` through JSON; returns it when that is lossless, else nil.
    private func jsonRoundTrips<T: Codable & Equatable>(_ value: T) -> Bool {
        guard let json = try? JSONEncoder().encode(value),
            let back = try? JSONDecoder().decode(T.self, from: json)
        else { return false }
        return back == value
    }

    @Test func everyValueThatRoundTripsThroughJSONRoundTripsThroughWire() throws {
        var rng = SeededRandom(seed: 0xC0DA_B1E)
        var compared = 0
        for _ in 0..<400 {
            let value = KitchenSink.random(using: &rng)
            guard jsonRoundTrips(value) else { continue }
            compared += 1
            let bytes = try WireEncoder().encode(value)
            let back = try WireDecoder().decode(KitchenSink.self, from: bytes)
            #expect(back == value, "seeded sample \(compared) differs after a wire round trip")
        }
        // Most samples must survive JSON, or this test would compare nothing.
        #expect(compared >= 300)
    }

    @Test func scalarsThatRoundTripThroughJSONRoundTripThroughWire() throws {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<2_000 {
            let double = Double(bitPattern: rng.next())
            if jsonRoundTrips([double]) {
                #expect(try wireRoundTrip([double]) == [double])
            }
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
            if jsonRoundTrips(["f": float]) {
                #expect(try wireRoundTrip(["f": float]) == ["f": float])
            }
            let integer = Int64(bitPattern: rng.next()) >> (rng.next() % 64)
            #expect(jsonRoundTrips(integer))
            #expect(try wireRoundTrip(integer) == integer)
        }
    }
}
