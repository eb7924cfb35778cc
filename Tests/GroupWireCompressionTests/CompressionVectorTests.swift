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

    static var files: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static func all() -> [CompressionVector] {
        files.compactMap { url in
            (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(CompressionVector.self, from: $0) }
        }
    }

    /// A store holding the dictionaries the vector's receiver has.
    func store() throws -> DictionaryStore {
        try DictionaryStore(
            decompressed.dictionaries.map { name in
                try ZstdDictionary(bytes: Array(try Data(contentsOf: Self.folder.appendingPathComponent(name))))
            })
    }
}

/// Bytes from lowercase or uppercase hex; nil when the text is not hex.
func hexBytes(_ text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let pair = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
            return nil
        }
        result.append(pair)
    }
    return result
}

@Suite struct CompressionVectorTests {
    @Test func thereAreAtLeastTwelveCompressionVectorsAndEveryFileParses() {
        #expect(CompressionVector.files.count >= 12)
        #expect(CompressionVector.all().count == CompressionVector.files.count)
        #expect(CompressionVector.all().filter { $0.decompressed.error != nil }.count >= 4)
    }

    @Test(arguments: CompressionVector.all().filter { $0.decompressed.payload != nil })
    func aValidBodyDecompressesToItsPayload(vector: CompressionVector) throws {
        let frame = try FrameDecoder().decode(try #require(hexBytes(vector.hex)))
        let payloads = try PayloadCompressor(dictionaries: try vector.store())
        let expected = try #require(hexBytes(vector.decompressed.payload ?? ""))
        #expect(try payloads.payload(of: frame) == expected)
    }

    @Test(arguments: CompressionVector.all().filter { $0.decompressed.error != nil })
    func anInvalidBodyFailsWithItsErrorKind(vector: CompressionVector) throws {
        let frame = try FrameDecoder().decode(try #require(hexBytes(vector.hex)))
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
        let vector = try #require(CompressionVector.all().first { $0.name == "zstd-playback-dictionary" })
        let store = try vector.store()
        let payload = try #require(hexBytes(vector.decompressed.payload ?? "-"))
        let sender = try PayloadCompressor(policy: CompressionPolicy(dictionaryID: 4242), dictionaries: store)
        let frame = try sender.makeFrame(typeID: 3, payload: payload)
        #expect(frame.compression == CompressionInfo(codec: 1, dictionaryID: 4242, contentSize: UInt64(payload.count)))
        let theirs = try FrameDecoder().decode(try #require(hexBytes(vector.hex)))
        // Same zstd frame header as `zstd --no-dictID --no-check --stream-size`: magic,
        // descriptor (single segment, 1-byte content size), content size.
        #expect(Array(frame.body.prefix(6)) == Array(theirs.body.prefix(6)))
        #expect(try sender.payload(of: frame) == payload)
    }
}
