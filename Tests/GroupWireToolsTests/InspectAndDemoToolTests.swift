import Foundation
import GroupWireCapture
import GroupWireTools
import Testing

/// `InspectTool` and `DemoTool` run in process: output, messages and exit status.
@Suite struct InspectAndDemoToolTests {
    @Test func inspectingTheDemoFileExitsWithZero() throws {
        let path = DemoFixtures.temporaryPath("demo.gwf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let demo = DemoTool.run(outputPath: path, fileFormat: .raw)
        #expect(demo.status.rawValue == 0)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let frameCount = try DemoMessages.frames().count
        #expect(frameCount >= 5)
        #expect(demo.outputText == "wrote \(frameCount) frames (\(written.count) bytes, raw) to \(path)\n")
        let output = InspectTool.run(path: path, json: false, fileFormat: nil)
        #expect(output.status.rawValue == 0)
        #expect(output.messages == "")
        #expect(output.outputText.hasSuffix("summary: \(frameCount) valid frames, 0 invalid, \(written.count) bytes\n"))
    }

    @Test func aMissingFileExitsWithTwoAndACompilerStyleMessage() {
        let output = InspectTool.run(path: "/nonexistent/x.gwf", json: false, fileFormat: nil)
        #expect(output.status.rawValue == 2)
        #expect(output.outputText == "")
        #expect(output.messages == "groupwire: error: /nonexistent/x.gwf: no such file\n")
    }

    @Test func badHexExitsWithTwoNamingTheLineAndColumn() throws {
        let path = DemoFixtures.temporaryPath("bad.hex")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FrameFileWriter.write(Array("# frames\nc7 01 zz\n".utf8), toPath: path)
        let output = InspectTool.run(path: path, json: true, fileFormat: nil)
        #expect(output.status.rawValue == 2)
        #expect(output.messages == "\(path):2:7: error: 'z' is not a hex digit\n")
    }

    @Test func invalidFramesExitWithOneAndJSONOutputListsThemOnStandardError() throws {
        let path = DemoFixtures.temporaryPath("bad.gwf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (bytes, first, second) = try DemoFixtures.corruptedDemoBytes()
        try FrameFileWriter.write(bytes, toPath: path)
        let output = InspectTool.run(path: path, json: true, fileFormat: nil)
        #expect(output.status.rawValue == 1)
        #expect(output.messages.hasPrefix("\(path): error: invalid bytes \(first)..<\(first + second): checksumMismatch"))
        #expect(output.outputText.contains("\"invalidCount\": 1"))
    }

    @Test func forcingRawReadsAHexFileAsGarbage() throws {
        let path = DemoFixtures.temporaryPath("demo.hex")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(DemoTool.run(outputPath: path, fileFormat: .hex).status.rawValue == 0)
        #expect(InspectTool.run(path: path, json: false, fileFormat: nil).status.rawValue == 0)
        let forced = InspectTool.run(path: path, json: false, fileFormat: .raw)
        #expect(forced.status.rawValue == 1)
        #expect(forced.outputText.contains("badMagic"))
    }

    @Test func theDemoCannotWriteIntoAMissingDirectory() {
        let output = DemoTool.run(outputPath: "/nonexistent/dir/demo.gwf", fileFormat: .raw)
        #expect(output.status.rawValue == 2)
        #expect(output.messages.hasPrefix("groupwire: error: /nonexistent/dir/demo.gwf: cannot write the file"))
    }
}
