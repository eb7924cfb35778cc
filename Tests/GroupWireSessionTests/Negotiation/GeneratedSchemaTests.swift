import GroupWire
import GroupWireExamples
import GroupWireNegotiation
import GroupWireSession
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// A generated message set carries the spec it was generated from, so a messenger
/// announces exactly what its compiled types read and write, without a spec file at run time.
@Suite struct GeneratedSchemaTests {
    private func schema(ofFile path: String) throws -> HelloSchema {
        let compilation = try SpecCompiler().compile(entry: RepositoryPaths.url(path).path, loader: FileSpecLoader())
        return try HelloSchema(spec: compilation.checkedSpec())
    }

    @Test func aGeneratedSetAnnouncesTheSchemaItsSpecFileCompilesTo() throws {
        let embedded = try HelloSchema(messages: DrawTogetherMessage.self)
        #expect(embedded == (try schema(ofFile: "Sources/GroupWireExamples/DrawTogether.gwspec")))
        #expect(embedded.package == "draw.together")
        #expect(embedded.version == 1)
        #expect(embedded.entries.contains { $0.name == "UpsertStroke" && $0.kind == .message })
        #expect(DrawTogetherMessage.specSource?.entry == "DrawTogether.gwspec")
        #expect(try NegotiationSettings(messages: DrawTogetherMessage.self).schema == embedded)
    }

    @Test func aSetWhoseSpecImportsAnotherCarriesBothFiles() throws {
        let source = try #require(WatchTogetherMessage.specSource)
        #expect(source.files.keys.sorted() == ["Common.gwspec", "WatchTogether.gwspec"])
        #expect(
            try HelloSchema(messages: WatchTogetherMessage.self)
                == (try schema(ofFile: "Sources/GroupWireExamples/WatchTogether.gwspec")))
    }

    enum HandMade: WireMessageSet {
        case stroke(UpsertStroke)
        static let messageTypes: [any MessageCodable.Type] = [UpsertStroke.self]
        init?(_ message: any MessageCodable) {
            guard let stroke = message as? UpsertStroke else { return nil }
            self = .stroke(stroke)
        }
        var message: any MessageCodable {
            switch self {
            case .stroke(let stroke): stroke
            }
        }
    }

    @Test func aSetWithoutSpecTextIsRefusedWithInvalidSchema() {
        #expect(HandMade.specSource == nil)
        let error = #expect(throws: WireError.self) { try NegotiationSettings(messages: HandMade.self) }
        #expect(error?.kind == .invalidSchema)
        #expect(error?.context.contains("carries no spec text") == true)
    }
}
