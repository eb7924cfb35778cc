import Foundation
import Testing
import GroupWireSpec

@Suite struct SmokeTests {
    @Test func theDrawTogetherExampleParses() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Spec/Examples/DrawTogether.gwspec").path
        let result = try SpecCompiler().compile(entry: path, loader: FileSpecLoader())
        print(result.renderedDiagnostics)
        #expect(result.diagnostics.isEmpty)
        #expect(result.spec.messages.map(\.name) == ["UpsertStroke", "CanvasSnapshot"])
        let bad = SpecCompiler().compile(source: "package a version 1\nmessage M @ 1 {\n x: Int32\n 2 y Int32\n 3 z: [Int32\n}\nstruct {\n}\nfoo bar\n")
        print(bad.renderedDiagnostics)
    }
}
