import Foundation
import GroupWire
import GroupWireCompression
import GroupWireTools
import Testing

/// `groupwire encode` writing what a messenger writes (fragments over --max-frame,
/// compression with --compress and --dictionary) and `groupwire dict gain`.
@Suite struct EncodeFragmentsAndDictGainTests {
    static let draw = "Spec/Examples/DrawTogether.gwspec"

    /// A CanvasSnapshot of `strokes` strokes of 50 points each, as JSON.
    static func snapshotJSON(strokes: Int) -> [UInt8] {
        let all = (0..<strokes).map { index in
            let points = (0..<50).map { point in "{\"x\":\(index * 3 + point),\"y\":\(point * 2 + 1)}" }.joined(separator: ",")
            return
                "{\"color\":\"red\",\"id\":\"00000000-0000-4000-8000-\(String(format: "%012d", index))\",\"points\":[\(points)]}"
        }
        return Array("{\"pointCount\":\(strokes * 50),\"strokes\":[\(all.joined(separator: ","))]}".utf8)
    }

    static func frames(_ bytes: [UInt8]) throws -> [Frame] {
        try FrameDecoder().decodeAll(bytes).map { event throws -> Frame in try event.result.get() }
    }

    @Test func aMessageOverMaxFrameGoesOutInFragmentsThatDecodeBack() throws {
        let json = Self.snapshotJSON(strokes: 40)
        let whole = try CLIRunner.run(["encode", "--spec", Self.draw, "--type", "CanvasSnapshot"], input: json)
        #expect(whole.status == 0, "\(whole.errors)")
        #expect(try Self.frames(whole.output).count == 1)
        let split = try CLIRunner.run(
            ["encode", "--spec", Self.draw, "--type", "CanvasSnapshot", "--max-frame", "1000", "--message-id", "7"],
            input: json)
        #expect(split.status == 0, "\(split.errors)")
        let frames = try Self.frames(split.output)
        #expect(frames.count > 1)
        #expect(
            frames.allSatisfy {
                $0.kind == .fragment && $0.fragment?.messageID == 7 && $0.fragment?.count == UInt32(frames.count)
            })
        #expect(FrameDecoder().decodeAll(split.output).allSatisfy { $0.length <= 1000 })
        // The fragments' bodies are the whole frame's body, in order.
        #expect(frames.flatMap(\.body) == (try Self.frames(whole.output))[0].body)
        let decoded = try CLIRunner.run(["decode", "--spec", Self.draw], input: split.output)
        let direct = try CLIRunner.run(["decode", "--spec", Self.draw], input: whole.output)
        #expect(decoded.status == 0 && decoded.outputText == direct.outputText && !decoded.output.isEmpty, "\(decoded.errors)")
        let tooSmall = try CLIRunner.run(
            ["encode", "--spec", Self.draw, "--type", "CanvasSnapshot", "--max-frame", "10"], input: json)
        #expect(tooSmall.status == 2 && tooSmall.errors == "groupwire: error: --max-frame 10 is outside 64...16777216 bytes\n")
    }

    @Test func compressAndDictionaryCompressLikeTheLibrary() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = Self.snapshotJSON(strokes: 40)
        let compressed = try CLIRunner.run(
            ["encode", "--spec", Self.draw, "--type", "CanvasSnapshot", "--compress", "--max-frame", "2000"], input: json)
        #expect(compressed.status == 0, "\(compressed.errors)")
        let frames = try Self.frames(compressed.output)
        #expect(frames.allSatisfy { $0.compression?.codec == CompressionInfo.zstdCodec && $0.compression?.dictionaryID == 0 })
        let plain = try CLIRunner.run(["encode", "--spec", Self.draw, "--type", "CanvasSnapshot"], input: json)
        #expect(compressed.output.count < plain.output.count)
        let decoded = try CLIRunner.run(["decode", "--spec", Self.draw], input: compressed.output)
        #expect(decoded.outputText == (try CLIRunner.run(["decode", "--spec", Self.draw], input: plain.output)).outputText)

        // A small stroke: under 1 KiB, so --compress leaves it; a dictionary compresses it from 128 bytes.
        var samples: [String] = []
        for index in 0..<200 {
            let sample = folder.appendingPathComponent("s\(index).json")
            try Data(Self.snapshotJSON(strokes: 1 + index % 3)).write(to: sample)
            let one = try CLIRunner.run(
                ["encode", "--spec", Self.draw, "--type", "CanvasSnapshot"], input: Self.snapshotJSON(strokes: 1 + index % 3))
            let frame = folder.appendingPathComponent("f\(index).gw")
            try Data(one.output).write(to: frame)
            samples.append(frame.path)
        }
        let dictionary = folder.appendingPathComponent("snap.dict").path
        let trained = try CLIRunner.run(["dict", "train"] + samples + ["-o", dictionary, "--id", "42", "--size", "4096"])
        #expect(trained.status == 0, "\(trained.errors)")
        let small = Self.snapshotJSON(strokes: 1)
        let withDictionary = try CLIRunner.run(
            ["encode", "--spec", Self.draw, "--type", "CanvasSnapshot", "--dictionary", dictionary], input: small)
        #expect(withDictionary.status == 0, "\(withDictionary.errors)")
        let frame = try #require(try Self.frames(withDictionary.output).first)
        #expect(frame.compression?.dictionaryID == 42)
        let back = try CLIRunner.run(["decode", "--spec", Self.draw, "--dictionary", dictionary], input: withDictionary.output)
        #expect(back.status == 0)
        #expect(
            back.outputText
                == (try CLIRunner.run(
                    ["decode", "--spec", Self.draw],
                    input: try CLIRunner.run(
                        ["encode", "--spec", Self.draw, "--type", "CanvasSnapshot"], input: small
                    ).output)).outputText)
        let missing = try CLIRunner.run(
            ["encode", "--spec", Self.draw, "--type", "CanvasSnapshot", "--dictionary", "/nonexistent.dict"], input: small)
        #expect(missing.status == 2)
    }

    @Test func dictGainReportsBothWaysAndWarnsAboutSmallSamples() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Strokes are 40-odd bytes: under the dictionary threshold.
        var paths: [String] = []
        var samples: [[UInt8]] = []
        for index in 0..<300 {
            let json = Array(
                "{\"color\":\"green\",\"id\":\"00000000-0000-4000-8000-\(String(format: "%012d", index % 40))\",\"point\":{\"x\":\(index),\"y\":\(index * 2)}}"
                    .utf8)
            let frame = try CLIRunner.run(["encode", "--spec", Self.draw, "--type", "UpsertStroke"], input: json)
            let url = folder.appendingPathComponent("\(index).gw")
            try Data(frame.output).write(to: url)
            paths.append(url.path)
            samples.append(try FrameDecoder().decode(frame.output).body)
        }
        let dictionary = folder.appendingPathComponent("strokes.dict").path
        let trained = try CLIRunner.run(["dict", "train"] + paths + ["-o", dictionary, "--id", "9", "--size", "2048"])
        #expect(trained.status == 0, "\(trained.errors)")
        #expect(trained.outputText.contains("warning: most samples are under the 128-byte threshold"), "\(trained.outputText)")
        let gain = try CLIRunner.run(["dict", "gain", dictionary] + paths)
        #expect(gain.status == 0, "\(gain.errors)")
        let expected = try DictionaryGain.measure(
            samples, dictionary: try ZstdDictionary(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: dictionary)))))
        #expect(gain.outputText == expected.report(name: "dictionary 9 (\(dictionary))"))
        #expect(expected.samples == 300 && expected.underThreshold == 300)
        #expect(expected.withDictionary == expected.payloadBytes, "the policy leaves every stroke uncompressed")
        #expect(expected.underThresholdWithDictionary < expected.underThresholdBytes, "forced, the dictionary would help")
        #expect(gain.outputText.contains("300 of the samples (\(expected.underThresholdBytes) bytes) are under 128 bytes"))
        let usage = try CLIRunner.run(["dict", "gain", dictionary])
        #expect(usage.status == 2)
    }
}
