import Foundation
import GroupWire

/// A Codable type that touches every container kind: keyed, unkeyed, single values,
/// optionals, nested structs, arrays of structs, enums with raw values, bytes, UUIDs.
/// (No dictionaries: their iteration order would make re-encoded bytes differ.)
struct Sample: Codable, Equatable {
    enum Mood: String, Codable { case calm, busy, away }
    struct Point: Codable, Equatable {
        var x: Double
        var y: Double
    }

    var name: String
    var count: Int64
    var small: UInt8
    var ratio: Float
    var flags: [Bool]
    var mood: Mood
    var tags: [String]
    var points: [Point]
    var origin: Point?
    var id: UUID?
    var blob: Data
    var nested: [[Int32]]
}

/// libFuzzer entry point: `WireDecoder` on arbitrary bytes, for `Sample`.
///
/// Invariant: decoding never traps; a value that decodes re-encodes, the re-encoding
/// decodes, and encoding that value again gives the same bytes (compared as bytes so NaN
/// payloads, which are not equal to themselves, do not count as differences).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let decoder = WireDecoder(limits: .default)
    guard let value = try? decoder.decode(Sample.self, from: bytes) else { return 0 }
    guard let encoded = try? WireEncoder().encode(value) else {
        preconditionFailure("a decoded Sample does not re-encode")
    }
    guard let again = try? decoder.decode(Sample.self, from: encoded) else {
        preconditionFailure("a re-encoded Sample does not decode")
    }
    guard let encodedAgain = try? WireEncoder().encode(again) else {
        preconditionFailure("a decoded Sample does not re-encode the second time")
    }
    precondition(encodedAgain == encoded, "encode(decode(encode(x))) differs from encode(x)")
    return 0
}
