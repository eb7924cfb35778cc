import GroupWire
import GroupWireNegotiation
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// The agreement two hellos make: per type verdicts equal `groupwire spec diff`'s in the
/// direction that applies, it is the same seen from both sides, and codecs, dictionaries,
/// sizes and versions follow the documented rules.
@Suite struct AgreementTests {
    static let drawVersions = ["DrawTogether", "DrawTogether-v2", "DrawTogether-v3"]

    static func hello(_ spec: SpecSet, codecs: [HelloCodec] = [HelloCodec(codec: 1)]) throws -> Hello {
        Hello(codecs: codecs, schema: try HelloSchema(spec: spec))
    }

    static func broken() throws -> SpecSet {
        try SpecCompiler().compile(
            entry: RepositoryPaths.path("Tests/Specs/Negotiation/DrawTogether-breaking.gwspec"),
            loader: FileSpecLoader()
        ).checkedSpec()
    }

    /// The verdict `spec diff` gives a reader of `reader` on data written by `writer`, as
    /// the agreement names it.
    static func diffVerdict(reader: SpecSet, writer: SpecSet, typeID: UInt64) -> TypeVerdict? {
        let readerIsOld = (reader.package?.version ?? 0) < (writer.package?.version ?? 0)
        let report =
            readerIsOld
            ? CompatibilityChecker.compare(old: reader, new: writer)
            : CompatibilityChecker.compare(old: writer, new: reader)
        guard let message = report.messages.first(where: { $0.typeID == typeID }) else { return nil }
        let verdict = readerIsOld ? message.oldReaderNewData : message.newReaderOldData
        let readerName = readerIsOld ? message.oldName : message.newName
        guard let verdict else { return nil }
        if readerName == nil { return .unknown }
        switch verdict {
        case .same: return .same
        case .compatible: return .compatible
        case .incompatible(let failures): return .incompatible(failures)
        }
    }

    static var pairs: [(String, String)] {
        drawVersions.flatMap { a in drawVersions.map { b in (a, b) } }
    }

    @Test(arguments: pairs)
    func everyTypeVerdictEqualsSpecDiffInEachDirection(_ localName: String, _ remoteName: String) throws {
        let local = try ExampleSpecs.spec(localName)
        let remote = try ExampleSpecs.spec(remoteName)
        let agreement = Agreement(local: try Self.hello(local), remote: try Self.hello(remote))
        #expect(agreement.status == .agreed)
        #expect(agreement.types.map(\.typeID) == [1, 2])
        for type in agreement.types {
            #expect(type.sending == Self.diffVerdict(reader: remote, writer: local, typeID: type.typeID))
            #expect(type.receiving == Self.diffVerdict(reader: local, writer: remote, typeID: type.typeID))
        }
        let expected: TypeVerdict = localName == remoteName ? .same : .compatible
        #expect(agreement.types.allSatisfy { $0.sending == expected && $0.receiving == expected })
    }

    @Test func anIncompatibleTypeNamesItsRuleAndAnUnknownTypeIsUnknownNotIncompatible() throws {
        let v1 = try ExampleSpecs.spec("DrawTogether")
        let broken = try Self.broken()
        let agreement = Agreement(local: try Self.hello(v1), remote: try Self.hello(broken))
        #expect(agreement.status == .agreed)
        #expect(agreement.types.map(\.typeID) == [1, 2, 9])
        let upsert = try #require(agreement.type(1))
        guard case .incompatible(let failures)? = upsert.sending else {
            Issue.record("UpsertStroke should be incompatible, got \(String(describing: upsert.sending))")
            return
        }
        #expect(failures.map(\.rule) == [.fieldWireTypeChanged])
        #expect(failures.map(\.path) == ["UpsertStroke.color"])
        #expect(upsert.sending == Self.diffVerdict(reader: broken, writer: v1, typeID: 1))
        #expect(upsert.receiving == Self.diffVerdict(reader: v1, writer: broken, typeID: 1))
        #expect(agreement.type(2)?.sending == .unknown && agreement.type(2)?.receiving == nil)
        #expect(agreement.type(2)?.localName == "CanvasSnapshot" && agreement.type(2)?.remoteName == nil)
        #expect(agreement.type(9)?.sending == nil && agreement.type(9)?.receiving == .unknown)
        #expect(agreement.type(9)?.name == "EraseAll")
    }

    @Test(arguments: pairs + [("DrawTogether", "Broken"), ("Broken", "DrawTogether-v3")])
    func bothSidesComputeTheSameAgreementFromOppositeEnds(_ a: String, _ b: String) throws {
        let first = try Self.hello(a == "Broken" ? try Self.broken() : try ExampleSpecs.spec(a))
        let second = try Self.hello(b == "Broken" ? try Self.broken() : try ExampleSpecs.spec(b))
        let here = Agreement(local: first, remote: second)
        let there = Agreement(local: second, remote: first)
        #expect(here.status == there.status && here.envelopeVersion == there.envelopeVersion)
        #expect(here.sending == there.receiving && here.receiving == there.sending)
        #expect(here.types.map(\.typeID) == there.types.map(\.typeID))
        for (mine, theirs) in zip(here.types, there.types) {
            #expect(mine.sending == theirs.receiving && mine.receiving == theirs.sending)
            #expect(mine.localName == theirs.remoteName && mine.remoteName == theirs.localName)
        }
    }

    @Test func aPeerWithoutZstdIsSentUncompressedAndStillAgrees() throws {
        let spec = try ExampleSpecs.spec("DrawTogether-v2")
        let withZstd = try Self.hello(spec)
        let without = try Self.hello(spec, codecs: [])
        let agreement = Agreement(local: withZstd, remote: without)
        #expect(agreement.status == .agreed)
        #expect(agreement.sending.codec == nil && agreement.receiving.codec == nil)
        #expect(agreement.types.allSatisfy { $0.sending == .same })
        #expect(Agreement(local: withZstd, remote: withZstd).sending.codec == 1)
    }

    @Test func theWritersFirstSharedDictionaryIsUsedAndOneIdWithTwoContentsNever() throws {
        let a = HelloDictionary(id: 7, contentHash: DictionaryHash(value: 0xAAAA))
        let b = HelloDictionary(id: 8, contentHash: DictionaryHash(value: 0xBBBB))
        let bOther = HelloDictionary(id: 8, contentHash: DictionaryHash(value: 0xCCCC))
        let local = Hello(codecs: [HelloCodec(codec: 1, dictionaries: [b, a])])
        let remote = Hello(codecs: [HelloCodec(codec: 1, dictionaries: [a, bOther])])
        let agreement = Agreement(local: local, remote: remote)
        // 8 comes first in the local list, but the peer's 8 is another dictionary.
        #expect(agreement.sending.codec == 1 && agreement.sending.dictionaryID == 7)
        #expect(agreement.receiving.codec == 1 && agreement.receiving.dictionaryID == 7)
        #expect(agreement.dictionaryConflicts == [8])
        let only8 = Agreement(
            local: Hello(codecs: [HelloCodec(codec: 1, dictionaries: [b])]),
            remote: Hello(codecs: [HelloCodec(codec: 1, dictionaries: [bOther])]))
        #expect(only8.sending.dictionaryID == 0 && only8.sending.codec == 1 && only8.dictionaryConflicts == [8])
    }

    @Test func sizesAreTheReadersAndTheVersionIsTheHighestShared() throws {
        let local = Hello(envelopeVersions: 1...3, maxFrameSize: 1_200, maxMessageSize: 4_096)
        let remote = Hello(envelopeVersions: 2...5, maxFrameSize: 9_000, maxMessageSize: 1 << 20)
        let agreement = Agreement(local: local, remote: remote)
        #expect(agreement.envelopeVersion == 3)
        #expect(agreement.sending.maxFrameSize == 9_000 && agreement.sending.maxMessageSize == 1 << 20)
        #expect(agreement.receiving.maxFrameSize == 1_200 && agreement.receiving.maxMessageSize == 4_096)
    }

    @Test func noSharedVersionOrAnotherPackageMakesThePeerIncompatibleWithTheReason() throws {
        let disjoint = Agreement(local: Hello(envelopeVersions: 1...1), remote: Hello(envelopeVersions: 2...4))
        #expect(disjoint.envelopeVersion == nil)
        #expect(
            disjoint.status
                == .incompatible(
                    NegotiationFailure(
                        .noCommonVersion, "envelope versions 1 here and 2-4 there do not overlap")))
        let draw = try Self.hello(try ExampleSpecs.spec("DrawTogether"))
        let watch = try Self.hello(try ExampleSpecs.spec("WatchTogether"))
        guard case .incompatible(let failure) = Agreement(local: draw, remote: watch).status else {
            Issue.record("two packages should not agree")
            return
        }
        #expect(failure.kind == .otherPackage)
        #expect(failure.reason == "this peer speaks draw.together 1, the other watch.together 1")
    }
}
