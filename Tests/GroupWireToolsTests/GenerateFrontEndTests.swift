import Foundation
import GroupWireTestSupport
import Testing

/// `groupwire generate` and `groupwire-generate` (the plugins' tool) are one front end:
/// the same flags, output and exit codes, differing only in the tool named in the stamp.
@Suite struct GenerateFrontEndTests {
    /// Runs `groupwire generate ARGS` and `groupwire-generate ARGS`.
    private func runBoth(_ arguments: [String]) throws -> (groupwire: ChildProcess.Run, generate: ChildProcess.Run) {
        let generate = try #require(RepositoryPaths.builtProduct("groupwire-generate"), "build groupwire-generate first")
        return (try CLIRunner.run(["generate"] + arguments), try ChildProcess.run(generate, arguments))
    }

    private func tinySpec(in folder: URL, _ text: String) throws -> String {
        let url = folder.appendingPathComponent("Tiny.gwspec")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func bothToolsWriteTheSameFileOnceAndThenLeaveItUnchanged() throws {
        let folder = try RepositoryPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = try tinySpec(in: folder, "package tiny version 1\nmessage Hello @ 5 {\n    1 name: String\n}\n")
        let viaGroupwire = folder.appendingPathComponent("a").path
        let viaGenerate = folder.appendingPathComponent("b").path
        let first = try CLIRunner.run(["generate", spec, "--output", viaGroupwire, "--access-level", "package"])
        let generate = try #require(RepositoryPaths.builtProduct("groupwire-generate"))
        let second = try ChildProcess.run(generate, [spec, "--output", viaGenerate, "--access-level", "package"])
        #expect(first.status == 0 && second.status == 0, "\(first.errors)\(second.errors)")
        #expect(first.outputText == "wrote \(viaGroupwire)/Tiny.gwspec.swift\n")
        #expect(second.outputText == "wrote \(viaGenerate)/Tiny.gwspec.swift\n")
        let a = try String(contentsOfFile: viaGroupwire + "/Tiny.gwspec.swift", encoding: .utf8)
        let b = try String(contentsOfFile: viaGenerate + "/Tiny.gwspec.swift", encoding: .utf8)
        #expect(a.contains("package struct Hello: WireMessage"))
        #expect(a.replacingOccurrences(of: "groupwire generate", with: "groupwire-generate") == b)
        let again = try ChildProcess.run(generate, [spec, "--output", viaGenerate, "--access-level", "package"])
        #expect(again.outputText == "unchanged \(viaGenerate)/Tiny.gwspec.swift\n")
    }

    @Test func aSpecWithErrorsExitsTwoFromBothAndWritesNothing() throws {
        let folder = try RepositoryPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = try tinySpec(in: folder, "package bad version 1\nmessage M @ 1 {\n    1 x: Nope\n}\n")
        let output = folder.appendingPathComponent("out").path
        let runs = try runBoth([spec, "--output", output])
        #expect(runs.groupwire.status == 2)
        #expect(runs.generate.status == 2)
        #expect(runs.groupwire.errors == runs.generate.errors)
        #expect(runs.generate.errors.contains("groupwire: error: \(spec): the spec has errors"))
        #expect(!FileManager.default.fileExists(atPath: output + "/Tiny.gwspec.swift"))
    }

    @Test(arguments: [
        ["Tiny.gwspec"],
        ["--output", "out"],
        ["Tiny.gwspec", "--output", "out", "--access-level", "open"],
        ["Tiny.gwspec", "--output", "out", "--with-imports"],
    ])
    func commandLineMistakesExitWithTheSameUsageStatusFromBoth(arguments: [String]) throws {
        let runs = try runBoth(arguments)
        #expect(runs.groupwire.status == 2)
        #expect(runs.generate.status == 2)
        #expect(runs.groupwire.errors.hasPrefix("groupwire: error: "))
        #expect(runs.generate.errors.hasPrefix("groupwire-generate: error: "))
        // The same sentence after the tool's name (the usage lines below it name each tool).
        let sentence = { (text: String, name: String) in text.split(separator: "\n").first?.dropFirst(name.count) }
        #expect(sentence(runs.groupwire.errors, "groupwire") == sentence(runs.generate.errors, "groupwire-generate"))
    }

    @Test func bothAcceptTheSameFlags() throws {
        let runs = try runBoth(["--help"])
        #expect(runs.generate.status == 0)
        for flag in ["--output", "--access-level", "--entry-only"] {
            #expect(runs.groupwire.outputText.contains(flag))
            #expect(runs.generate.outputText.contains(flag))
        }
    }
}
