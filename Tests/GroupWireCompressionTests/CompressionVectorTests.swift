import Foundation
import GroupWire
import GroupWireTestSupport
import Testing

@testable import GroupWireCompression

/// One vector from Spec/vectors/compression (written by Spec/vectors/generate_compression.py
/// from bodies the zstd tool made): a valid frame and what its body decompresses to.
struct CompressionVector: Decodable, CustomTestStringConvertible, Sendable {
    struct Decompressed: Decodable, Sendable {
        struct Failure: Decodable, Sendable {
            let kind: String
        }
        let dictionaries: [String]
        let payload: String?
        let error: Failure?
    }

    let name: String
    let hex: String
    let decompressed: Decompressed

    var testDescription: String { name }

    static let folder = RepositoryPaths.url("Spec/vectors/compression")

    /// The vector files; throws when there is none.
    static func files() throws -> [URL] {
        try Vectors.files(under: folder)
    }

    /// Every compression vector; throws at a vector file that does not decode.
    static func all() throws -> [CompressionVector] {
        try Vectors.loadAll(CompressionVector.self, under: folder)
    }

    /// A store holding the dictionaries the vector's receiver has.
    func store() throws -> DictionaryStore {
        try DictionaryStore(
            decompressed.dictionaries.map { name in
                try ZstdDictionary(bytes: Array(try Data(contentsOf: Self.folder.appendingPathComponent(name))))
            })
    }
}

@Suite struct CompressionVectorTests {
    @Test func thereAreAtLeastTwelveCompressionVectorsAndEveryFileParses() throws {
        let files = try CompressionVector.files()
        let vectors = try CompressionVector.all()
        #expect(files.count >= 12)
        #expect(vectors.count == files.count)
        #expect(vectors.filter { $0.decompressed.error != nil }.count >= 4)
    }

    @Test(arguments: try CompressionVector.all().filter { $0.decompressed.payload != nil })
    func aValidBodyDecompressesToItsPayload(vector: CompressionVector) throws {
        let frame = try FrameDecoder().decode(try Hex.bytes(vector.hex))
        let payloads = try PayloadCompressor(dictionaries: try vector.store())
        let expected = try Hex.bytes(try #require(vector.decompressed.payload))
        #expect(try payloads.payload(of: frame) == expected)
    }

    @Test(arguments: try CompressionVector.all().filter { $0.decompressed.error != nil })
    func anInvalidBodyFailsWithItsErrorKind(vector: CompressionVector) throws {
        let frame = try FrameDecoder().decode(try Hex.bytes(vector.hex))
        let payloads = try PayloadCompressor(dictionaries: try vector.store())
        let expected = try #require(vector.decompressed.error?.kind)
        do {
            let payload = try payloads.payload(of: frame)
            Issue.record("\(vector.name) decompressed to \(payload.count) bytes")
        } catch {
            #expect(error.kind.name == expected, "\(error)")
        }
    }

    @Test func ourWriterProducesTheSameHeaderForTheDictionaryVectorsPayload() throws {
        let vector = try #require(try CompressionVector.all().first { $0.name == "zstd-playback-dictionary" })
        let store = try vector.store()
        let payload = try Hex.bytes(try #require(vector.decompressed.payload))
        let sender = try PayloadCompressor(policy: CompressionPolicy(dictionaryID: 4242), dictionaries: store)
        let frame = try sender.makeFrame(typeID: 3, payload: payload)
        #expect(frame.compression == CompressionInfo(codec: 1, dictionaryID: 4242, contentSize: UInt64(payload.count)))
        let theirs = try FrameDecoder().decode(try Hex.bytes(vector.hex))
        // Same zstd frame header as `zstd --no-dictID --no-check --stream-size`: magic,
        // descriptor (single segment, 1-byte content size), content size.
        #expect(Array(frame.body.prefix(6)) == Array(theirs.body.prefix(6)))
        #expect(try sender.payload(of: frame) == payload)
    }
}
