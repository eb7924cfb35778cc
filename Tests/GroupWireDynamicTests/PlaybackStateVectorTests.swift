import Foundation
import GroupWire
import GroupWireDynamic
import Testing

/// The vectors that call themselves PlaybackState payloads are PlaybackState payloads of
/// Spec/Examples/WatchTogether.gwspec: they decode with it, under its type id, and the
/// dynamic codec writes the same bytes back (the generator writes them canonically).
@Suite struct PlaybackStateVectorTests {
    /// (vector file, type id, payload) for every vector whose description names
    /// PlaybackState or whose frame has its type id, 10.
    static func payloads() throws -> [(name: String, typeID: UInt64, payload: [UInt8])] {
        var found: [(String, UInt64, [UInt8])] = []
        for folder in ["frames", "compression"] {
            let url = TestSpecs.root.appendingPathComponent("Spec/vectors/\(folder)")
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where name.hasSuffix(".json") {
                let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent(name)))
                guard let vector = object as? [String: Any], let description = vector["description"] as? String,
                    let frame = vector["frame"] as? [String: Any], let typeID = frame["typeID"] as? Int,
                    description.contains("PlaybackState") || typeID == 10
                else { continue }
                let decompressed = vector["decompressed"] as? [String: Any]
                guard let hex = decompressed == nil ? frame["body"] as? String : decompressed?["payload"] as? String else {
                    continue  // a vector whose body does not decompress
                }
                found.append((name, UInt64(typeID), hexBytes(hex)))
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
