import Foundation
import Testing

@testable import GroupWire

/// Encodes with ``WireEncoder`` and decodes the bytes back as the same type.
func wireRoundTrip<T: Codable>(_ value: T, limits: Limits = .default) throws -> T {
    let bytes = try WireEncoder().encode(value)
    return try WireDecoder(limits: limits).decode(T.self, from: bytes)
}

/// The WireError `body` throws, or nil when it throws something else or nothing.
func wireError(_ body: () throws -> Void) -> WireError? {
    do {
        try body()
        return nil
    } catch let error as WireError {
        return error
    } catch {
        return nil
    }
}

struct Point: Codable, Equatable, Hashable {
    var x: Double
    var y: Double
}

enum Shape: Codable, Equatable, Hashable {
    case dot
    case circle(center: Point, radius: Double)
    case polyline([Point])
    case labelled(String, Int?)
}

enum Colour: String, Codable, Hashable, CaseIterable {
    case red, green, blue
}

enum Priority: Int, Codable, Hashable {
    case low = 1, high = 9
}

struct AllScalars: Codable, Equatable {
    var bool: Bool
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var float: Float
    var double: Double
    var string: String

    static let extremes = AllScalars(
        bool: true, int: .min, int8: .min, int16: .min, int32: .min, int64: .min,
        uint: .max, uint8: .max, uint16: .max, uint32: .max, uint64: .max,
        float: -.greatestFiniteMagnitude, double: .leastNonzeroMagnitude, string: "")
    static let others = AllScalars(
        bool: false, int: .max, int8: .max, int16: .max, int32: .max, int64: .max,
        uint: 0, uint8: 0, uint16: 0, uint32: 0, uint64: 0,
        float: .infinity, double: -.infinity, string: "naïve café 日本語 👩‍👩‍👧")
}

struct FoundationValues: Codable, Equatable {
    var id: UUID
    var when: Date
    var blob: Data
    var link: URL
    var amount: Decimal
}

struct Collections: Codable, Equatable {
    var strings: [String]
    var byName: [String: Int]
    var byNumber: [Int: String]
    var byColour: [Colour: Int]
    var byID: [UUID: Point]
    var nested: [[Int?]]
    var set: Set<Int>
    var optionals: [String?]
}
