import Foundation
import GroupWire
import GroupWireCompression
import GroupWireDynamic
import GroupWireTools
import Testing

/// `groupwire dict train`: the tool as a value, and the built `groupwire` product run on
/// sample files and on a frame file.
@Suite struct DictTrainToolTests {
    @Test func trainingFromSampleFilesWritesADictionaryStampedWithTheGivenID() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (index, sample) in try Examples.playbackStateVariations().enumerated() {
            let url = folder.appendingPathComponent("\(index).bin")
            try Data(sample).write(to: url)
            paths.append(url.path)
        }
        let output = folder.appendingPathComponent("out.dict").path
        let run = try CLIRunner.run(["dict", "train"] + paths + ["-o", output, "--size", "4096", "--id", "777"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.outputText.hasPrefix("wrote \(output): dictionary id 777, "))
        #expect(run.outputText.split(separator: "\n").first?.hasSuffix(" bytes, 300 samples") == true)
        #expect(run.outputText.contains("on its training samples: dictionary 777"))
        let dictionary = try ZstdDictionary(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(dictionary.id == 777)
        #expect(dictionary.bytes.count <= 4096)
    }

    @Test func trainingFromAFrameFileUsesEachFramesPayload() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var writer = ByteWriter()
        for sample in try Examples.playbackStateVariations() {
            try FrameEncoder().encode(Frame(typeID: 4, body: sample), into: &writer)
        }
        let capture = folder.appendingPathComponent("capture.gw")
        try Data(writer.bytes).write(to: capture)
        let output = folder.appendingPathComponent("frames.dict").path
        let result = DictTrainTool(inputs: [capture.path], output: output).run()
        #expect(result.status == .ok, "\(result.messages)")
        #expect(result.outputText.split(separator: "\n").first?.hasSuffix(" bytes, 300 samples") == true)
        let dictionary = try ZstdDictionary(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(dictionary.bytes.count <= DictionaryTrainer.defaultSize)
    }

    @Test func usageAndInputErrorsExitWithStatusTwoAndAGroupwireErrorLine() throws {
        let missingOutput = DictTrainTool(inputs: ["/nonexistent/sample.bin"], output: nil).run()
        #expect(missingOutput.status == .failure)
        #expect(missingOutput.messages == "groupwire: error: missing -o DICT: say where to write the dictionary\n")
        let missingInput = try CLIRunner.run(["dict", "train", "/nonexistent/sample.bin", "-o", "/tmp/x.dict"])
        #expect(missingInput.status == 2)
        #expect(missingInput.errors.hasPrefix("groupwire: error: cannot open /nonexistent/sample.bin"))
        let badID = DictTrainTool(inputs: ["/nonexistent/sample.bin"], output: "/tmp/x.dict", id: "0").run()
        #expect(badID.status == .failure)
        #expect(badID.messages == "groupwire: error: --id 0 is not a dictionary id in 1...4294967295\n")
        let badSize = DictTrainTool(inputs: ["/nonexistent/sample.bin"], output: "/tmp/x.dict", size: "12").run()
        #expect(badSize.messages.hasPrefix("groupwire: error: --size 12 is not a size in "))
        let noInputs = DictTrainTool(inputs: [], output: "/tmp/x.dict").run()
        #expect(noInputs.status == .failure)
        #expect(noInputs.messages.contains("no INPUT files given"))
    }
}
