import Foundation
import Testing

@testable import GroupWireCapture

@Suite struct CaptureToolsTests {
    private func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "groupwire-tools-\(UUID().uuidString)-\(name)"
    }

    @Test func inspectingTheDemoFileExitsWithZero() throws {
        let path = temporaryPath("demo.gwf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let demo = CaptureTools.demo(outputPath: path, fileFormat: .raw)
        #expect(demo.exitCode == 0)
        #expect(demo.standardOutput == "wrote 3 frames (224 bytes, raw) to \(path)\n")
        let output = CaptureTools.inspect(path: path, json: false, fileFormat: nil)
        #expect(output.exitCode == 0)
        #expect(output.standardError == "")
        #expect(output.standardOutput.hasSuffix("summary: 3 valid frames, 0 invalid\n"))
    }

    @Test func aMissingFileExitsWithTwoAndACompilerStyleMessage() {
        let output = CaptureTools.inspect(path: "/nonexistent/x.gwf", json: false, fileFormat: nil)
        #expect(output.exitCode == 2)
        #expect(output.standardOutput == "")
        #expect(output.standardError == "groupwire: error: /nonexistent/x.gwf: no such file\n")
    }

    @Test func badHexExitsWithTwoNamingTheLineAndColumn() throws {
        let path = temporaryPath("bad.hex")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FrameFileWriter.write(Array("# frames\nc7 01 zz\n".utf8), toPath: path)
        let output = CaptureTools.inspect(path: path, json: true, fileFormat: nil)
        #expect(output.exitCode == 2)
        #expect(output.standardError == "\(path):2:7: error: 'z' is not a hex digit\n")
    }

    @Test func invalidFramesExitWithOneAndJSONOutputListsThemOnStandardError() throws {
        let path = temporaryPath("bad.gwf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (bytes, first, second) = try InspectionReportTests.corruptedDemoBytes()
        try FrameFileWriter.write(bytes, toPath: path)
        let output = CaptureTools.inspect(path: path, json: true, fileFormat: nil)
        #expect(output.exitCode == 1)
        #expect(output.standardError.hasPrefix("\(path): error: invalid bytes \(first)..<\(first + second): checksumMismatch"))
        #expect(output.standardOutput.contains("\"invalidCount\": 1"))
    }

    @Test func forcingRawReadsAHexFileAsGarbage() throws {
        let path = temporaryPath("demo.hex")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(CaptureTools.demo(outputPath: path, fileFormat: .hex).exitCode == 0)
        #expect(CaptureTools.inspect(path: path, json: false, fileFormat: nil).exitCode == 0)
        let forced = CaptureTools.inspect(path: path, json: false, fileFormat: .raw)
        #expect(forced.exitCode == 1)
        #expect(forced.standardOutput.contains("badMagic"))
    }

    @Test func theDemoCannotWriteIntoAMissingDirectory() {
        let output = CaptureTools.demo(outputPath: "/nonexistent/dir/demo.gwf", fileFormat: .raw)
        #expect(output.exitCode == 2)
        #expect(output.standardError.hasPrefix("groupwire: error: /nonexistent/dir/demo.gwf: cannot write the file"))
    }
}
