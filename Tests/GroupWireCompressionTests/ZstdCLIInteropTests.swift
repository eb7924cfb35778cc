import Foundation
import GroupWire
import Testing

@testable import GroupWireCompression

/// Bodies made by the real `zstd` tool decode through our layer, and ours decode with it.
@Suite(.enabled(if: ZstdCLI.isAvailable, "the zstd command-line tool is not installed at /usr/bin/zstd"))
struct ZstdCLIInteropTests {
    let dictionary: ZstdDictionary
    let payloads: [[UInt8]]
    let directory: URL
    let dictionaryPath: String

    init() throws {
        var samples = SamplePayloads(seed: 50)
        dictionary = try DictionaryTrainer.train(samples: (0..<500).map { _ in samples.playbackState() }, size: 8192)
        payloads = [samples.playbackState(), samples.canvasSnapshot(strokes: 8), samples.randomBytes(300), []]
        directory = try ZstdCLI.makeTemporaryDirectory()
        dictionaryPath = directory.appendingPathComponent("playback.dict").path
        try Data(dictionary.bytes).write(to: URL(fileURLWithPath: dictionaryPath))
    }

    @Test func bodiesMadeByTheCLIDecodeThroughOurLayer() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        for payload in payloads {
            // From stdin the CLI writes no content size unless told the stream size.
            let streamed = try ZstdCLI.zstd(["-3"], input: payload)
            let sized = try ZstdCLI.zstd(["-19", "--stream-size=\(payload.count)"], input: payload)
            #expect(try ZstdDecompressor().decompress(streamed) == payload)
            #expect(try ZstdDecompressor().decompress(streamed, expectedSize: payload.count) == payload)
            #expect(try ZstdDecompressor().decompress(sized, expectedSize: payload.count) == payload)
        }
    }

    @Test func dictionaryBodiesMadeByTheCLIDecodeThroughOurLayer() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DictionaryStore([dictionary])
        let compressor = try PayloadCompressor(dictionaries: store)
        for payload in payloads.prefix(2) {
            let body = try ZstdCLI.zstd(["-D", dictionaryPath, "--stream-size=\(payload.count)"], input: payload)
            let info = CompressionInfo(dictionaryID: dictionary.id, contentSize: UInt64(payload.count))
            #expect(try compressor.decompress(body, info: info) == payload)
            // From a pipe, without a content size: the streaming path, with the dictionary.
            let streamed = try ZstdCLI.zstd(["-D", dictionaryPath], input: payload)
            #expect(ZstdFrameHeader(streamed)?.contentSize == nil)
            #expect(try compressor.decompress(streamed, info: info) == payload)
        }
    }

    @Test func ourBodiesDecodeWithTheCLI() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        for payload in payloads {
            let body = try ZstdCompressor().compress(payload)
            #expect(try ZstdCLI.zstd(["-d"], input: body) == payload)
            let withDictionary = try ZstdCompressor(level: 5).compress(payload, dictionary: dictionary)
            #expect(try ZstdCLI.zstd(["-d", "-D", dictionaryPath], input: withDictionary) == payload)
        }
    }

    @Test func aCLIBodyMadeWithAnotherDictionaryIsADictionaryMismatch() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let other = try dictionary.withID(dictionary.id &+ 1)  // safe because any different id will do.
        let otherPath = directory.appendingPathComponent("other.dict").path
        try Data(other.bytes).write(to: URL(fileURLWithPath: otherPath))
        let payload = payloads[0]
        let body = try ZstdCLI.zstd(["-D", otherPath], input: payload)
        let error = #expect(throws: WireError.self) {
            try ZstdDecompressor().decompress(body, expectedSize: payload.count, dictionary: dictionary)
        }
        #expect(error?.kind == .dictionaryMismatch)
        let none = #expect(throws: WireError.self) { try ZstdDecompressor().decompress(body) }
        #expect(none?.kind == .unknownDictionary)
        #expect(none?.context.contains("\(other.id)") == true)
    }

    @Test func dictionariesTrainedByTheCLIAreAcceptedByTheStore() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var samples = SamplePayloads(seed: 51)
        let sampleDirectory = directory.appendingPathComponent("samples")
        try FileManager.default.createDirectory(at: sampleDirectory, withIntermediateDirectories: true)
        for index in 0..<300 {
            try Data(samples.playbackState()).write(to: sampleDirectory.appendingPathComponent("\(index).bin"))
        }
        let trainedPath = directory.appendingPathComponent("cli.dict").path
        try ZstdCLI.run(
            ZstdCLI.path, ["-q", "--train", "-r", sampleDirectory.path, "-o", trainedPath, "--maxdict=4096", "--dictID=4242"])
        let trained = try ZstdDictionary(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: trainedPath))))
        #expect(trained.id == 4242)
        let payload = samples.playbackState()
        let body = try ZstdCompressor().compress(payload, dictionary: trained)
        #expect(try ZstdCLI.zstd(["-d", "-D", trainedPath], input: body) == payload)
    }
}
