import Foundation
import GroupWire
import Testing

@testable import GroupWireCompression

/// The debug build of the `groupwire` tool, if it has been built.
enum GroupWireExecutable {
    static let path: String? = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent(".build/debug/groupwire").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()
}

/// `groupwire dict train`, run as the built executable (`swift build` puts it next to the
/// test bundle), on sample files and on a frame file.
@Suite(.enabled(if: GroupWireExecutable.path != nil, "the groupwire executable is not built in .build/debug"))
struct DictTrainCommandTests {

    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    func run(_ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(GroupWireExecutable.path))
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func trainingFromSampleFilesWritesADictionaryStampedWithTheGivenID() throws {
        let directory = try ZstdCLI.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var samples = SamplePayloads(seed: 100)
        var paths: [String] = []
        for index in 0..<300 {
            let url = directory.appendingPathComponent("\(index).bin")
            try Data(samples.playbackState()).write(to: url)
            paths.append(url.path)
        }
        let output = directory.appendingPathComponent("out.dict").path
        let outcome = try run(["dict", "train"] + paths + ["-o", output, "--size", "4096", "--id", "777"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("dictionary id 777"))
        let dictionary = try ZstdDictionary(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(dictionary.id == 777)
        #expect(dictionary.bytes.count <= 4096)
    }

    @Test func trainingFromAFrameFileUsesEachFramesPayload() throws {
        let directory = try ZstdCLI.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var samples = SamplePayloads(seed: 101)
        var writer = ByteWriter()
        for _ in 0..<300 {
            try FrameEncoder().encode(Frame(typeID: 4, body: samples.playbackState()), into: &writer)
        }
        let capture = directory.appendingPathComponent("capture.gw")
        try Data(writer.bytes).write(to: capture)
        let output = directory.appendingPathComponent("frames.dict").path
        let outcome = try run(["dict", "train", capture.path, "-o", output])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("300 samples"))
    }

    @Test func usageAndInputErrorsExitWithStatusTwoAndACompilerStyleMessage() throws {
        let missingOutput = try run(["dict", "train", "/nonexistent/sample.bin"])
        #expect(missingOutput.status == 2)
        #expect(missingOutput.stderr.hasPrefix("groupwire: error: missing -o DICT"))
        let missingInput = try run(["dict", "train", "/nonexistent/sample.bin", "-o", "/tmp/x.dict"])
        #expect(missingInput.status == 2)
        #expect(missingInput.stderr.hasPrefix("groupwire: error: cannot read /nonexistent/sample.bin"))
        let badID = try run(["dict", "train", "/nonexistent/sample.bin", "-o", "/tmp/x.dict", "--id", "0"])
        #expect(badID.status == 2)
        #expect(badID.stderr.contains("--id 0"))
    }
}
