import Foundation
import GroupWireSpec
import Testing

@Suite struct SpecLoaderTests {
    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gwspec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func theFileLoaderReadsImportsFromDiskAndReportsTheirRealPaths() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "package a version 1\nimport \"b.gwspec\"\nstruct A {\n    1 b: B\n}\n"
            .write(to: folder.appendingPathComponent("a.gwspec"), atomically: true, encoding: .utf8)
        try "package b version 1\nstruct B {\n    1 x: Nope\n}\n"
            .write(to: folder.appendingPathComponent("b.gwspec"), atomically: true, encoding: .utf8)
        let compilation = try SpecCompiler().compile(
            entry: folder.appendingPathComponent("a.gwspec").path, loader: FileSpecLoader())
        #expect(compilation.diagnostics.map(\.description) == ["\(folder.path)/b.gwspec:3:10: error: unknown type 'Nope'"])
        #expect(compilation.renderedDiagnostics.contains("    1 x: Nope\n         ^\n"))
    }

    @Test func theFileLoaderRefusesFilesOverItsSizeLimit() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("big.gwspec").path
        try String(repeating: "/", count: 100).write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try SpecCompiler().compile(entry: path, loader: FileSpecLoader(maxFileSize: 50))
            Issue.record("expected a limit error")
        } catch {
            #expect(error.kind == .limitExceeded)
            #expect(error.context == "'\(path)' is larger than 50 bytes")
        }
    }

    @Test func aMissingFileOnDiskIsNotFoundRatherThanUnreadable() throws {
        #expect(try FileSpecLoader().load("/nonexistent/\(UUID().uuidString).gwspec") == nil)
    }

    @Test func anOversizedInMemoryEntryBecomesADiagnostic() {
        let compiler = SpecCompiler(limits: SpecLimits(maxFileSize: 10))
        let compilation = compiler.compile(source: "package t version 1\n", path: "t.gwspec")
        #expect(compilation.diagnostics.map(\.description) == ["t.gwspec:1:1: error: 't.gwspec' is larger than 10 bytes"])
    }

    @Test func parsingAloneSkipsImportsAndSemanticChecks() {
        let (file, found) = SpecCompiler().parse(
            source: "package t version 1\nimport \"x.gwspec\"\nstruct S {\n    1 a: Missing\n}\n",
            path: "t.gwspec")
        #expect(found.isEmpty)
        #expect(file.imports.map(\.path) == ["x.gwspec"])
        #expect(file.declaration(named: "S")?.fields.first?.type == .named("Missing"))
    }

    @Test func aDiamondOfImportsLoadsTheSharedFileOnce() throws {
        let spec = try validSpec(
            "package a version 1\nimport \"b.gwspec\"\nimport \"c.gwspec\"\n", path: "a.gwspec",
            otherFiles: [
                "b.gwspec": "package b version 1\nimport \"d.gwspec\"\n",
                "c.gwspec": "package c version 1\nimport \"d.gwspec\"\n",
                "d.gwspec": "package d version 1\nstruct D {\n}\n",
            ])
        #expect(spec.files.map(\.path) == ["a.gwspec", "b.gwspec", "d.gwspec", "c.gwspec"])
    }
}
