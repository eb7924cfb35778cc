import Foundation
import GroupWire
import GroupWireDynamic
import GroupWireTestSupport
import Testing

/// The vectors that call themselves PlaybackState payloads are PlaybackState payloads of
/// Spec/Examples/WatchTogether.gwspec: they decode with it, under its type id, and the
/// dynamic codec writes the same bytes back (the generator writes them canonically).
@Suite struct PlaybackStateVectorTests {
    /// What this suite reads of a frame or compression vector.
    struct Vector: Decodable {
        struct Fields: Decodable {
            let typeID: UInt64
            let body: String
        }
        struct Decompressed: Decodable {
            let payload: String?
        }
        let description: String
        let frame: Fields?
        let decompressed: Decompressed?
    }

    /// (vector file, type id, payload) for every vector whose description names
    /// PlaybackState or whose frame has its type id, 10.
    static func payloads() throws -> [(name: String, typeID: UInt64, payload: [UInt8])] {
        var found: [(String, UInt64, [UInt8])] = []
        for folder in ["frames", "compression"] {
            for url in try Vectors.files(under: "Spec/vectors/\(folder)") {
                let vector = try Vectors.load(Vector.self, from: url)
                guard let frame = vector.frame, vector.description.contains("PlaybackState") || frame.typeID == 10 else {
                    continue
                }
                guard let hex = vector.decompressed == nil ? frame.body : vector.decompressed?.payload else {
                    continue  // a vector whose body does not decompress
                }
                found.append((url.lastPathComponent, frame.typeID, try Hex.bytes(hex)))
            }
        }
        return found
    }

    @Test func everyPlaybackStateVectorDecodesWithTheWatchTogetherSpecAndReencodesToItsBytes() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("WatchTogether.gwspec"))
        let vectors = try Self.payloads()
        #expect(vectors.count >= 3)
        for (name, typeID, payload) in vectors {
            #expect(typeID == 10, "\(name)")
            let message = try #require(codec.message(typeID: typeID), "\(name)")
            #expect(message.name == "PlaybackState")
            let json = try codec.decode(payload, as: "PlaybackState")
            #expect(try codec.encode(json, as: "PlaybackState") == payload, "\(name)")
        }
    }
}
