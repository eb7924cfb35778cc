import Foundation
import GroupWireCodegen
import Testing

@testable import groupwire_generate

@Suite("groupwire-generate")
struct GenerateCommandTests {
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gw-generate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("Arguments parse into output, specs and options; mistakes are reported")
    func parsing() throws {
        guard case .success(let invocation) = GenerateCommand.parse(["--output", "out", "--access-level", "package", "a.gwspec"]) else {
            Issue.record("valid arguments were rejected")
            return
        }
        #expect(invocation.output == "out")
        #expect(invocation.specs == ["a.gwspec"])
        #expect(invocation.options.accessLevel == .package)
        #expect(invocation.options.files == GeneratorOptions.FileSelection.entryOnly)
        guard case .failure(let level) = GenerateCommand.parse(["--output", "o", "--access-level", "open", "a.gwspec"]) else {
            Issue.record("an unknown access level was accepted")
            return
        }
        #expect(level.message.contains("open"))
        guard case .failure(let missing) = GenerateCommand.parse(["a.gwspec"]) else {
            Issue.record("a missing --output was accepted")
            return
        }
        #expect(missing.message.contains("--output"))
    }

    @Test("Generating writes one file per spec and leaves unchanged files untouched")
    func writesOnlyChangedFiles() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("Tiny.gwspec")
        try Data("package tiny version 1\nmessage Hello @ 5 {\n    1 name: String\n}\n".utf8).write(to: spec)
        let output = folder.appendingPathComponent("out")
        let invocation = Invocation(output: output.path, specs: [spec.path], options: GeneratorOptions(files: .entryOnly))
        #expect(GenerateCommand.run(invocation) == 0)
        let generated = output.appendingPathComponent("Tiny.swift")
        let text = try String(contentsOf: generated, encoding: .utf8)
        #expect(text.contains("struct Hello: WireMessage"))
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: generated.path)
        #expect(GenerateCommand.run(invocation) == 0)
        let modified = try FileManager.default.attributesOfItem(atPath: generated.path)[.modificationDate] as? Date
        #expect(modified == past)
    }

    @Test("A spec with errors exits with status 2 and writes nothing")
    func specErrorsExitWithTwo() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("Bad.gwspec")
        try Data("package bad version 1\nmessage M @ 1 {\n    1 x: Nope\n}\n".utf8).write(to: spec)
        let output = folder.appendingPathComponent("out")
        #expect(GenerateCommand.run(Invocation(output: output.path, specs: [spec.path], options: GeneratorOptions())) == 2)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("Bad.swift").path))
    }
}

typealias Invocation = GenerateCommand.Invocation
