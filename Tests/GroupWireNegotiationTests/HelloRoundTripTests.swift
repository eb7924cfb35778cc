import GroupWire
import GroupWireNegotiation
import GroupWireSpec
import Testing

/// Hellos built from the example specs: what they carry, that they survive the wire, and that
/// the model a peer reads back decides compatibility exactly as the original specs do.
@Suite struct HelloRoundTripTests {
    static let names = ExampleSpecs.paths.map(\.name)

    @Test(arguments: names)
    func aHelloBuiltFromAnExampleSpecDecodesToTheSameHelloAndBytes(_ name: String) throws {
        let spec = try ExampleSpecs.spec(name)
        let hello = Hello(
            envelopeVersions: 1...1,
            codecs: [
                HelloCodec(
                    codec: 1, dictionaries: [HelloDictionary(id: 4242, contentHash: DictionaryHash(value: 0x0123_4567_89ab_cdef))]
                )
            ],
            maxFrameSize: 1_200, maxMessageSize: 1 << 20, schema: try HelloSchema(spec: spec))
        let body = try hello.payload()
        let decoded = try Hello(payload: body)
        #expect(decoded == hello)
        #expect(try decoded.payload() == body)
        let schema = try #require(decoded.schema)
        #expect(schema.spec.fingerprint == spec.fingerprint)
        #expect(schema.spec.canonicalText == spec.canonicalText)
        for message in spec.messages {
            #expect(schema.spec.fingerprint(ofMessage: message.name) == spec.fingerprint(ofMessage: message.name))
            #expect(schema.messages.first { $0.typeID == message.typeID }?.name == message.name)
        }
    }

    @Test func aPeerWithoutZstdListsNoCodecAndTheDefaultsCostNothing() throws {
        let body = try Hello().payload()
        #expect(body == [0x08, 0x01, 0x10, 0x01])
        let decoded = try Hello(payload: body)
        #expect(decoded.codecs.isEmpty)
        #expect(decoded.maxFrameSize == 65_536 && decoded.maxMessageSize == 16 << 20 && decoded.schema == nil)
        // The engine a participant falls back on when its own hello cannot be made announces this body.
        #expect(NegotiationEngine<Int>.inert.helloBody == body && NegotiationEngine<Int>.inert.hello == Hello())
    }

    /// Every pair of DrawTogether versions, in both directions: the verdicts on models read
    /// back from hellos equal those on the compiled specs (`groupwire spec diff`'s).
    @Test(arguments: [
        ("DrawTogether", "DrawTogether-v2"), ("DrawTogether", "DrawTogether-v3"), ("DrawTogether-v2", "DrawTogether-v3"),
        ("DrawTogether-v3", "DrawTogether"), ("WatchTogether", "DrawTogether"),
    ])
    func theModelReadFromAHelloGivesTheVerdictsAndRulesOfTheOriginalSpecs(_ old: String, _ new: String) throws {
        let oldSpec = try ExampleSpecs.spec(old)
        let newSpec = try ExampleSpecs.spec(new)
        let oldRead = try #require(try Hello(payload: try Hello(schema: try HelloSchema(spec: oldSpec)).payload()).schema).spec
        let newRead = try #require(try Hello(payload: try Hello(schema: try HelloSchema(spec: newSpec)).payload()).schema).spec
        let original = CompatibilityChecker.compare(old: oldSpec, new: newSpec)
        let readBack = CompatibilityChecker.compare(old: oldRead, new: newRead)
        #expect(readBack.messages == original.messages)
        #expect(readBack.verdict == original.verdict)
        #expect(readBack.changes.map { [$0.rule.id, $0.path] } == original.changes.map { [$0.rule.id, $0.path] })
        for (reader, writer) in [(oldSpec, newSpec), (newSpec, oldSpec)] {
            let readerRead = reader == oldSpec ? oldRead : newRead
            let writerRead = writer == oldSpec ? oldRead : newRead
            #expect(
                ReaderWriterCompatibility(reader: readerRead, writer: writerRead).messages
                    == ReaderWriterCompatibility(reader: reader, writer: writer).messages)
        }
    }

    @Test func drawTogetherV3SaysWhyAV1ReaderCannotReadItsSnapshots() throws {
        let v1 = try #require(
            try Hello(payload: try Hello(schema: try HelloSchema(spec: try ExampleSpecs.spec("DrawTogether"))).payload()).schema)
        let v3 = try #require(
            try Hello(payload: try Hello(schema: try HelloSchema(spec: try ExampleSpecs.spec("DrawTogether-v3"))).payload())
                .schema)
        let verdicts = ReaderWriterCompatibility(reader: v1.spec, writer: v3.spec)
        #expect(verdicts.messages.map(\.writerName) == ["UpsertStroke", "CanvasSnapshot"])
        #expect(verdicts.messages.allSatisfy { $0.verdict != .same })
    }
}
