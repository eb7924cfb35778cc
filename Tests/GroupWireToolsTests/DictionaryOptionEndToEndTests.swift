import Foundation
import GroupWire
import GroupWireCompression
import GroupWireDynamic
import Testing

/// `decode` and `inspect` with `--dictionary`: bodies compressed with a dictionary are
/// decompressed when it is given and reported with its id when it is not.
@Suite(.serialized) struct DictionaryOptionEndToEndTests {
    static let watch = "Spec/Examples/WatchTogether.gwspec"
    static let dictionaryID: UInt32 = 4242

    /// The PlaybackState sample, compressed with a dictionary trained on variations of it,
    /// as one frame; the dictionary written to a file in `folder`.
    private func fixture(in folder: URL) throws -> (sample: [UInt8], frame: [UInt8], dictionaryPath: String, payloadSize: Int) {
        let sample = try CLIRunner.file("Spec/Examples/Samples/PlaybackState.json")
        let codec = DynamicCodec(spec: try Examples.watch())
        let text = String(decoding: sample, as: UTF8.self)
        let variations = try (0..<300).map { index in
            let varied = text.replacingOccurrences(of: "1234.5", with: "\(index * 7).25")
                .replacingOccurrences(of: "The Long Film", with: "The Long Film, part \(index)")
            return try codec.encode(try JSONParser().parse(Array(varied.utf8)), as: "PlaybackState")
        }
        let dictionary = try DictionaryTrainer.train(samples: variations, size: 4096, id: Self.dictionaryID)
        let dictionaryURL = folder.appendingPathComponent("playback.dict")
        try Data(dictionary.bytes).write(to: dictionaryURL)
        let payload = try codec.encode(try JSONParser().parse(sample), as: "PlaybackState")
        let compressor = try PayloadCompressor(
            policy: CompressionPolicy(threshold: 0, dictionaryID: Self.dictionaryID), dictionaries: DictionaryStore([dictionary]))
        let body = try #require(try compressor.compress(payload))
        #expect(body.info.dictionaryID == Self.dictionaryID)
        let frame = try FrameEncoder().encode(Frame(kind: .data, typeID: 10, compression: body.info, body: body.bytes))
        return (sample, frame, dictionaryURL.path, payload.count)
    }

    @Test func decodeUsesTheGivenDictionaryAndNamesTheMissingOne() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try fixture(in: folder)

        let with = try CLIRunner.run(
            ["decode", "--spec", Self.watch, "--pretty", "--dictionary", fixture.dictionaryPath], input: fixture.frame)
        #expect(with.status == 0, "\(with.errors)")
        #expect(with.output == fixture.sample)

        let without = try CLIRunner.run(["decode", "--spec", Self.watch], input: fixture.frame)
        #expect(without.status == 1)
        #expect(without.output.isEmpty)
        #expect(
            without.errors.contains(
                "frame at offset 0 (type id 10): unknownDictionary: frame was compressed with dictionary 4242"))
    }

    @Test func inspectDumpsTheDecompressedPayloadWithTheDictionary() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try fixture(in: folder)
        let framePath = folder.appendingPathComponent("playback.gw").path
        try Data(fixture.frame).write(to: URL(fileURLWithPath: framePath))

        let with = try CLIRunner.run(["inspect", framePath, "--dictionary", fixture.dictionaryPath])
        #expect(with.status == 0, "\(with.errors)")
        #expect(with.outputText.contains("compression: codec 1 (zstd), dictionary 4242, content size \(fixture.payloadSize)"))
        #expect(with.outputText.contains("(decompressed, \(fixture.payloadSize) bytes)"))

        let without = try CLIRunner.run(["inspect", framePath, "--format", "json"])
        #expect(without.status == 0)
        #expect(without.outputText.contains(#""decompressedLength":null"#))
        #expect(without.outputText.contains("compressed with dictionary 4242, which this receiver does not have"))
    }

    @Test func unreadableOrInvalidDictionaryFilesExitTwoNamingTheFile() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try fixture(in: folder)
        let missing = folder.appendingPathComponent("missing.dict").path
        let notADictionary = folder.appendingPathComponent("not.dict")
        try Data("plain text, not a dictionary".utf8).write(to: notADictionary)

        let absent = try CLIRunner.run(["decode", "--spec", Self.watch, "--dictionary", missing], input: fixture.frame)
        #expect(absent.status == 2)
        #expect(absent.output.isEmpty)
        #expect(absent.errors == "groupwire: error: cannot open \(missing): No such file or directory\n")

        let invalid = try CLIRunner.run(["inspect", fixture.dictionaryPath, "--dictionary", notADictionary.path])
        #expect(invalid.status == 2)
        #expect(invalid.output.isEmpty)
        #expect(
            invalid.errors
                == "groupwire: error: \(notADictionary.path): not a zstd dictionary: it must start with the magic 37 A4 30 EC and an id\n"
        )
    }

    @Test func twoDifferentDictionariesUnderOneIDAreRefused() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try fixture(in: folder)
        // Same id, different content: the trained bytes with one content byte changed.
        var other = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture.dictionaryPath)))
        other[other.count - 1] ^= 0xFF
        let otherURL = folder.appendingPathComponent("other.dict")
        try Data(other).write(to: otherURL)

        let run = try CLIRunner.run(
            ["decode", "--spec", Self.watch, "--dictionary", fixture.dictionaryPath, "--dictionary", otherURL.path],
            input: fixture.frame)
        #expect(run.status == 2)
        #expect(
            run.errors
                == "groupwire: error: \(otherURL.path): dictionary id 4242 is already taken by \(fixture.dictionaryPath), a different dictionary\n"
        )
        // The same file twice is one dictionary.
        let twice = try CLIRunner.run(
            ["decode", "--spec", Self.watch, "--dictionary", fixture.dictionaryPath, "--dictionary", fixture.dictionaryPath],
            input: fixture.frame)
        #expect(twice.status == 0, "\(twice.errors)")
    }
}
