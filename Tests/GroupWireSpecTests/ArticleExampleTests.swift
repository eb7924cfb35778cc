import GroupWireSpec
import GroupWireTestSupport
import Testing

// GroupWireSpec.md: begin
/// The warnings of the spec at `path` (compiler-style), and one line per message: type
/// id, name, fingerprint.
func describeMessages(ofSpecAt path: String) throws -> (warnings: String, messages: [String]) {
    let compilation = try SpecCompiler().compile(entry: path, loader: FileSpecLoader())
    let spec = try compilation.checkedSpec()  // throws the errors, if any
    let lines = spec.messages.map { message in
        "\(message.typeID) \(message.name) \(spec.fingerprint(ofMessage: message.name).map { "\($0)" } ?? "")"
    }
    return (compilation.renderedDiagnostics, lines)
}
// GroupWireSpec.md: end

/// The module article's example, run on the example spec.
@Suite struct ArticleExampleTests {
    @Test func theExampleSpecsMessagesAreListedWithTheirFingerprints() throws {
        let path = RepositoryPaths.path("Spec/Examples/DrawTogether.gwspec")
        let (warnings, lines) = try describeMessages(ofSpecAt: path)
        #expect(warnings.isEmpty)
        let spec = try SpecCompiler().compile(entry: path, loader: FileSpecLoader()).checkedSpec()
        let strokes = try #require(spec.fingerprint(ofMessage: "UpsertStroke"))
        #expect(lines.count == 2)
        #expect(lines.first == "1 UpsertStroke \(strokes)")
        #expect(lines.last?.hasPrefix("2 CanvasSnapshot ") == true)
    }
}
