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

/// Sample values whose encodings seed `corpus/FuzzWireDecoder`.
let seedSamples: [Sample] = [
    Sample(
        name: "", count: 0, small: 0, ratio: 0, flags: [], mood: .calm, tags: [], points: [],
        origin: nil, id: nil, blob: Data(), nested: []),
    Sample(
        name: "Movie night", count: -42, small: 255, ratio: 1.5, flags: [true, false, true], mood: .busy,
        tags: ["a", "b\u{00E9}"], points: [Point(x: 10.5, y: 20.25), Point(x: -4, y: 0.125)],
        origin: Point(x: 0, y: 0),
        id: UUID(
            uuid: (
                0x6B, 0xA7, 0xB8, 0x10, 0x9D, 0xAD, 0x11, 0xD1,
                0x80, 0xB4, 0x00, 0xC0, 0x4F, 0xD4, 0x30, 0xC8
            )),
        blob: Data([0, 1, 2, 0xFF]), nested: [[1, 2], [], [Int32.min, Int32.max]]),
    Sample(
        name: String(repeating: "x", count: 200), count: .max, small: 1, ratio: -.infinity, flags: [false],
        mood: .away, tags: [""], points: [], origin: nil, id: nil, blob: Data(repeating: 7, count: 130),
        nested: [[0]]),
]

typealias Point = Sample.Point

/// When GROUPWIRE_FUZZ_SEED_DIR is set, writes the encodings of ``seedSamples`` there
/// and exits: `GROUPWIRE_FUZZ_SEED_DIR=Fuzz/corpus/FuzzWireDecoder .build-fuzz/debug/FuzzWireDecoder`.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzWireDecoderInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["GROUPWIRE_FUZZ_SEED_DIR"] else { return 0 }
    for (index, sample) in seedSamples.enumerated() {
        guard let bytes = try? WireEncoder().encode(sample) else {
            preconditionFailure("seed sample \(index) does not encode")
        }
        let url = URL(fileURLWithPath: directory).appendingPathComponent("sample-\(index).bin")
        do {
            try Data(bytes).write(to: url)
        } catch {
            preconditionFailure("cannot write \(url.path): \(error)")
        }
    }
    print("wrote \(seedSamples.count) seeds to \(directory)")
    exit(0)
}
