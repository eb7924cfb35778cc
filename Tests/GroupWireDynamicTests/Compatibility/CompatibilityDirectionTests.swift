import GroupWire
import GroupWireDynamic
import GroupWireSpec
import Testing

/// Every compatibility rule, in both directions, against what the dynamic codec really does:
/// bytes written with one spec version are decoded with the other, and what happens (decodes
/// the same value, decodes with a default, throws, decodes a wrong value) must be what the
/// rule's ``ReaderEffect`` for that direction says, error kind included.
@Suite struct CompatibilityDirectionTests {
    @Test(arguments: DirectionCase.all)
    func aNewReaderOfOldBytesFaresAsTheRuleSays(_ example: DirectionCase) throws {
        try check(example, newReader: true)
    }

    @Test(arguments: DirectionCase.all)
    func anOldReaderOfNewBytesFaresAsTheRuleSays(_ example: DirectionCase) throws {
        try check(example, newReader: false)
    }

    /// Writes the case's value with one version, reads it with the other, and compares what
    /// happened with the change's effect for that direction and with both message views.
    private func check(_ example: DirectionCase, newReader: Bool) throws {
        let pair = try example.specs()
        let change = try #require(
            pair.report.changes.first { $0.rule == example.rule && $0.path == example.path },
            "changes: \(pair.report.changes.map { "\($0.rule.id) \($0.path)" })")
        let (reader, writer) = newReader ? (pair.new, pair.old) : (pair.old, pair.new)
        let effect = newReader ? change.newReaderOldData : change.oldReaderNewData
        let message = newReader ? example.oldMessage : example.newMessage
        guard let written = newReader ? example.oldWrites : example.newWrites else {
            #expect(effect.failure == .none, "the writer's version cannot send this, so nothing can fail")
            return
        }
        let observed = try Observed.decode(
            written, message: message, writer: writer, reader: reader,
            sameValue: newReader ? example.sameInNew : example.sameInOld)
        #expect(observed.matches(effect), "observed \(observed), rule says \(effect)")
        let sent = try #require(messageNamed(message, in: writer))
        let verdict = try #require(ReaderWriterCompatibility(reader: reader, writer: writer).verdict(typeID: sent.typeID))
        #expect(verdict.isCompatible == !observed.fails, "verdict \(verdict)")
        let entry = try #require(pair.report.messages.first { $0.typeID == sent.typeID })
        #expect(
            (newReader ? entry.newReaderOldData : entry.oldReaderNewData) == verdict,
            "the report's message view and the reader/writer view agree")
    }

    @Test func everyRuleHasACaseInBothDirections() {
        let covered = Set(DirectionCase.all.map(\.rule.id))
        #expect(covered == Set(CompatibilityRule.all.map(\.id)))
    }

    @Test func aWidenedIntegerIsCompatibleOneWayAndFailsLoudlyTheOther() throws {
        let old = try DirectionCase.spec(DirectionCase.base, "old.gwspec")
        let new = try DirectionCase.spec(DirectionCase.edited("2 count: Int32", "2 count: Int64"), "new.gwspec")
        let newReader = ReaderWriterCompatibility(reader: new, writer: old)
        #expect(newReader.verdict(typeID: 1) == .compatible)
        #expect(newReader.isCompatible)
        let oldReader = ReaderWriterCompatibility(reader: old, writer: new)
        guard case .incompatible(let failures)? = oldReader.verdict(typeID: 1) else {
            Issue.record("expected incompatible, got \(String(describing: oldReader.verdict(typeID: 1)))")
            return
        }
        #expect(failures.map(\.rule) == [.integerWidened])
        #expect(failures.first?.effect.failure == .loud)
        #expect(failures.first?.effect.errorKind == "invalidValue")
        #expect(failures.first?.effect.detail == "for values that do not fit Int32")
        #expect(!oldReader.isCompatible)
    }

    @Test func aReusedReservedNumberMisreadsBytesFromTheVersionThatUsedIt() throws {
        // GW010 is breaking for history: old writers never write the reserved number, but
        // the version before them did, and a new reader takes its bytes for the new field.
        let ancestor = try DirectionCase.spec(DirectionCase.edited("reserved 20", "20 legacy: String", bump: false), "v0.gwspec")
        let new = try DirectionCase.spec(DirectionCase.edited("reserved 20", "20 extra: String"), "new.gwspec")
        let observed = try Observed.decode(
            DirectionCase.value(["legacy": "\"old\""]), message: "M", writer: ancestor, reader: new,
            sameValue: DirectionCase.value())
        #expect(observed == .silent)
        let decoded = try DynamicCodec(spec: new).decode(
            try DynamicCodec(spec: ancestor).encode(try JSONParser().parse(DirectionCase.value(["legacy": "\"old\""])), as: "M"),
            as: "M")
        #expect(decoded["extra"] == "old")
        #expect(CompatibilityRule.fieldNumberReused.severity == .breaking)
    }

    @Test func aMessageWhoseShapeDidNotChangeIsTheSame() throws {
        let old = try DirectionCase.spec(DirectionCase.base + "\nmessage N @ 2 {\n    1 a: Int32\n}\n", "old.gwspec")
        let new = try DirectionCase.spec(
            DirectionCase.edited("2 count: Int32", "2 count: Int64") + "\nmessage N @ 2 {\n    1 a: Int32\n}\n",
            "new.gwspec")
        let view = ReaderWriterCompatibility(reader: old, writer: new)
        #expect(view.verdict(typeID: 2) == .same)
        #expect(view.messages.map(\.typeID) == [1, 2])
    }
}

/// The message called `name` in `spec`.
private func messageNamed(_ name: String, in spec: SpecSet) -> MessageDecl? {
    spec.messages.first { $0.name == name }
}

/// What happened when a reader decoded a writer's bytes.
enum Observed: Equatable, CustomStringConvertible {
    case decodes
    case defaulted
    case loud(String)
    case silent

    var fails: Bool {
        switch self {
        case .decodes, .defaulted: false
        case .loud, .silent: true
        }
    }

    var description: String {
        switch self {
        case .decodes: "decodes"
        case .defaulted: "default"
        case .loud(let kind): "loud \(kind)"
        case .silent: "silent"
        }
    }

    func matches(_ effect: ReaderEffect) -> Bool {
        switch self {
        case .decodes: effect.failure == .none
        case .defaulted: effect.failure == .defaulted
        case .loud(let kind): effect.failure == .loud && effect.errorKind == kind
        case .silent: effect.failure == .silent
        }
    }

    /// Writes `json` as a frame of `message` with `writer`'s codec and decodes it with
    /// `reader`'s, then compares the result with `sameValue`: the same data as the reader's
    /// spec says it (`nil` when the reader's spec cannot say it, so any value decoded is wrong).
    static func decode(_ json: String, message: String, writer: SpecSet, reader: SpecSet, sameValue: String?) throws -> Observed {
        let writerCodec = DynamicCodec(spec: writer)
        let readerCodec = DynamicCodec(spec: reader)
        let writerMessage = try #require(messageNamed(message, in: writer))
        let payload = try writerCodec.encode(try JSONParser().parse(json), as: message)
        let decoded: JSONValue
        let readerMessage: MessageDecl
        do throws(WireError) {
            (readerMessage, decoded) = try readerCodec.decode(
                frame: Frame(kind: .data, typeID: writerMessage.typeID, body: payload))
        } catch {
            return .loud(error.kind.name)
        }
        guard let sameValue else { return .silent }
        let same = try #require(try JSONParser().parse(sameValue).objectValue)
        let normalized = try #require(
            try readerCodec.decode(
                try readerCodec.encode(.object(same), as: readerMessage.name),
                as: readerMessage.name
            ).objectValue)
        let values = try #require(decoded.objectValue)
        for key in same.keys where values[key] != normalized[key] { return .silent }
        let filled = Set(values.keys).subtracting(same.keys)
        if filled.isEmpty { return .decodes }
        let written = Set(writerMessage.fields.map(\.number))
        let unknownToWriter = readerMessage.fields.filter { filled.contains($0.name) }.allSatisfy { (field: FieldDecl) in
            !written.contains(field.number)
        }
        return unknownToWriter ? .defaulted : .silent
    }
}

/// One rule's example: two spec versions and a value each writes, with the same data as the
/// other version says it.
struct DirectionCase: Sendable, CustomTestStringConvertible {
    var rule: CompatibilityRule
    var path: String
    var old: String
    var new: String
    var oldMessage = "M"
    var newMessage = "M"
    /// What the old version writes (`nil`: it cannot send this message).
    var oldWrites: String?
    /// The same data as the new version says it (`nil`: it cannot).
    var sameInNew: String?
    /// What the new version writes (`nil`: it cannot send this message).
    var newWrites: String?
    /// The same data as the old version says it (`nil`: it cannot).
    var sameInOld: String?

    var testDescription: String { "\(rule.id) \(rule.name) \(path)" }

    static let base = """
        package t version 1
        enum Color {
            0 black
            1 red
        }
        union Shape {
            1 circle: Float64
            2 square: Float64
        }
        struct Point {
            1 x: Int32
            2 y: Int32
        }
        message M @ 1 {
            1 id: UInt32
            2 count: Int32
            3 color: Color
            4 name: String?
            5 shape: Shape
            6 ratio: Float64 = 1
            7 at: Point
            8 tags: [Int32]
            9 scores: [String: Int32]
            10 data: Bytes
            reserved 20
        }

        """

    /// A value of every field of `M`, with `fields` replaced or added and `removed` left out.
    static func value(_ fields: [String: String] = [:], removing removed: [String] = []) -> String {
        var members: [String: String] = [
            "id": "7", "count": "5", "color": "\"red\"", "name": "\"n\"", "shape": "{\"square\": 2.5}", "ratio": "3",
            "at": "{\"x\": 1, \"y\": 2}", "tags": "[1, 2]", "scores": "{\"a\": 1}", "data": "\"AQI=\"",
        ]
        for name in removed { members[name] = nil }
        members.merge(fields) { $1 }
        return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
    }

    /// `base` with `from` replaced by `to` and the version bumped.
    static func edited(_ from: String, _ to: String, bump: Bool = true) -> String {
        precondition(base.contains(from), "the base spec has no '\(from)'")
        let text = base.replacingOccurrences(of: from, with: to)
        return bump ? text.replacingOccurrences(of: "version 1", with: "version 2") : text
    }

    static func spec(_ source: String, _ path: String) throws -> SpecSet {
        let compilation = SpecCompiler().compile(source: source, path: path)
        #expect(!compilation.hasErrors, "\(compilation.renderedDiagnostics)")
        return try compilation.checkedSpec()
    }

    func specs() throws -> (old: SpecSet, new: SpecSet, report: CompatibilityReport) {
        let oldSpec = try Self.spec(old, "old.gwspec")
        let newSpec = try Self.spec(new, "new.gwspec")
        return (oldSpec, newSpec, CompatibilityChecker.compare(old: oldSpec, new: newSpec))
    }

    /// A case whose edit leaves every value readable as it was, both ways.
    static func unchangedWire(
        _ rule: CompatibilityRule, _ path: String, old: String = base, new: String,
        oldMessage: String = "M", newMessage: String = "M",
        renaming: [String: String] = [:], valueInNew: String? = nil
    ) -> DirectionCase {
        DirectionCase(
            rule: rule, path: path, old: old, new: new, oldMessage: oldMessage, newMessage: newMessage,
            oldWrites: value(), sameInNew: valueInNew ?? value(), newWrites: valueInNew ?? value(), sameInOld: value())
    }

    static let all: [DirectionCase] = [
        DirectionCase(
            rule: .fieldRemovedNotReserved, path: "M.count", old: base, new: edited("    2 count: Int32\n", ""),
            oldWrites: value(), sameInNew: value(removing: ["count"]),
            newWrites: value(removing: ["count"]), sameInOld: value(removing: ["count"])),
        DirectionCase(
            rule: .fieldRemoved, path: "M.count", old: base, new: edited("2 count: Int32", "reserved 2"),
            oldWrites: value(), sameInNew: value(removing: ["count"]),
            newWrites: value(removing: ["count"]), sameInOld: value(removing: ["count"])),
        DirectionCase(
            rule: .fieldAdded, path: "M.extra", old: base, new: edited("reserved 20", "reserved 20\n    11 extra: String"),
            oldWrites: value(), sameInNew: value(),
            newWrites: value(["extra": "\"e\""]), sameInOld: value()),
        DirectionCase(
            rule: .fieldWireTypeChanged, path: "M.count", old: base, new: edited("2 count: Int32", "2 count: String"),
            oldWrites: value(), sameInNew: nil, newWrites: value(["count": "\"five\""]), sameInOld: nil),
        DirectionCase(
            rule: .fieldTypeChanged, path: "M.ratio", old: base, new: edited("6 ratio: Float64 = 1", "6 ratio: Timestamp"),
            oldWrites: value(), sameInNew: nil, newWrites: value(["ratio": "1000"]), sameInOld: nil),
        // String and Bytes share a wire type: Bytes readers take the UTF-8 as it is, String readers reject bytes that are not UTF-8.
        DirectionCase(
            rule: .fieldTypeChanged, path: "M.data", old: edited("10 data: Bytes", "10 data: String", bump: false),
            new: edited("10 data: Bytes", "10 data: Bytes"),
            oldWrites: value(["data": "\"hi\""]), sameInNew: value(["data": "\"aGk=\""]),
            newWrites: value(["data": "\"/w==\""]), sameInOld: nil),
        DirectionCase(
            rule: .integerWidened, path: "M.count", old: base, new: edited("2 count: Int32", "2 count: Int64"),
            oldWrites: value(), sameInNew: value(), newWrites: value(["count": "1099511627776"]), sameInOld: nil),
        DirectionCase(
            rule: .integerWidened, path: "M.tags", old: base, new: edited("8 tags: [Int32]", "8 tags: [Int64]"),
            oldWrites: value(), sameInNew: value(), newWrites: value(["tags": "[1, 1099511627776]"]), sameInOld: nil),
        DirectionCase(
            rule: .integerWidened, path: "Point.x", old: base, new: edited("1 x: Int32", "1 x: Int64"),
            oldWrites: value(), sameInNew: value(),
            newWrites: value(["at": "{\"x\": -1099511627776, \"y\": 2}"]), sameInOld: nil),
        DirectionCase(
            rule: .integerNarrowed, path: "M.count", old: base, new: edited("2 count: Int32", "2 count: Int16"),
            oldWrites: value(["count": "100000"]), sameInNew: nil, newWrites: value(), sameInOld: value()),
        DirectionCase(
            rule: .integerSignednessChanged, path: "M.count", old: base, new: edited("2 count: Int32", "2 count: UInt32"),
            oldWrites: value(), sameInNew: value(), newWrites: value(), sameInOld: value()),
        DirectionCase(
            rule: .integerSignednessChanged, path: "M.scores", old: base,
            new: edited("9 scores: [String: Int32]", "9 scores: [String: UInt32]"),
            oldWrites: value(), sameInNew: value(), newWrites: value(), sameInOld: value()),
        DirectionCase(
            rule: .fieldOptionalityChanged, path: "M.name", old: base, new: edited("4 name: String?", "4 name: String"),
            oldWrites: value(removing: ["name"]), sameInNew: nil,
            newWrites: value(["name": "\"\""]), sameInOld: value(["name": "\"\""])),
        DirectionCase(
            rule: .fieldOptionalityChanged, path: "M.name", old: edited("4 name: String?", "4 name: String", bump: false),
            new: edited("x", "x"),
            oldWrites: value(["name": "\"\""]), sameInNew: value(["name": "\"\""]),
            newWrites: value(removing: ["name"]), sameInOld: nil),
        // A single value becoming an array of it: packed (another wire type) and unpacked (the same one).
        DirectionCase(
            rule: .fieldWireTypeChanged, path: "M.count", old: base, new: edited("2 count: Int32", "2 count: [Int32]"),
            oldWrites: value(), sameInNew: value(["count": "[5]"]), newWrites: value(["count": "[5, 6]"]), sameInOld: nil),
        DirectionCase(
            rule: .fieldTypeChanged, path: "M.name", old: edited("4 name: String?", "4 name: String", bump: false),
            new: edited("4 name: String?", "4 name: [String]"),
            oldWrites: value(), sameInNew: value(["name": "[\"n\"]"]), newWrites: value(["name": "[\"a\", \"b\"]"]),
            sameInOld: nil),
        DirectionCase(
            rule: .fieldNumberReused, path: "M.extra", old: base, new: edited("reserved 20", "20 extra: String"),
            oldWrites: value(), sameInNew: value(),
            newWrites: value(["extra": "\"e\""]), sameInOld: value()),
        DirectionCase(
            rule: .fieldRenumbered, path: "M.count", old: base, new: edited("2 count: Int32", "12 count: Int32"),
            oldWrites: value(), sameInNew: value(), newWrites: value(), sameInOld: value()),
        unchangedWire(
            .fieldRenamed, "M.total", new: edited("2 count: Int32", "2 total: Int32"),
            valueInNew: value(["total": "5"], removing: ["count"])),
        DirectionCase(
            rule: .defaultChanged, path: "M.ratio", old: base, new: edited("6 ratio: Float64 = 1", "6 ratio: Float64 = 2"),
            oldWrites: value(["ratio": "1"]), sameInNew: value(["ratio": "1"]),
            newWrites: value(["ratio": "2"]), sameInOld: value(["ratio": "2"])),
        DirectionCase(
            rule: .typeIDChanged, path: "M", old: base, new: edited("message M @ 1", "message M @ 2"),
            oldWrites: value(), sameInNew: value(), newWrites: value(), sameInOld: value()),
        DirectionCase(
            rule: .messageRemoved, path: "N", old: base + "message N @ 2 {\n    1 a: Int32\n}\n", new: edited("x", "x"),
            oldMessage: "N", newMessage: "N", oldWrites: "{\"a\": 1}", sameInNew: nil, newWrites: nil, sameInOld: nil),
        DirectionCase(
            rule: .messageAdded, path: "N", old: base, new: edited("x", "x") + "message N @ 2 {\n    1 a: Int32\n}\n",
            oldMessage: "N", newMessage: "N", oldWrites: nil, sameInNew: nil, newWrites: "{\"a\": 1}", sameInOld: nil),
        unchangedWire(.messageRenamed, "M", new: edited("message M @ 1", "message Renamed @ 1"), newMessage: "Renamed"),
        DirectionCase(
            rule: .enumCaseAdded, path: "Color.purple", old: base, new: edited("1 red", "1 red\n    2 purple"),
            oldWrites: value(), sameInNew: value(), newWrites: value(["color": "\"purple\""]), sameInOld: value(["color": "2"])),
        DirectionCase(
            rule: .enumCaseRemoved, path: "Color.red", old: base, new: edited("    1 red\n", ""),
            oldWrites: value(), sameInNew: value(["color": "1"]), newWrites: value(["color": "1"]), sameInOld: value()),
        DirectionCase(
            rule: .enumCaseRenumbered, path: "Color.red", old: base, new: edited("1 red", "2 red"),
            oldWrites: value(), sameInNew: value(), newWrites: value(), sameInOld: value()),
        unchangedWire(
            .enumCaseRenamed, "Color.crimson", new: edited("1 red", "1 crimson"), valueInNew: value(["color": "\"crimson\""])),
        DirectionCase(
            rule: .unionCaseAdded, path: "Shape.dot", old: base, new: edited("2 square: Float64", "2 square: Float64\n    3 dot"),
            oldWrites: value(), sameInNew: value(), newWrites: value(["shape": "{\"dot\": {}}"]), sameInOld: nil),
        DirectionCase(
            rule: .unionCaseRemoved, path: "Shape.square", old: base, new: edited("    2 square: Float64\n", ""),
            oldWrites: value(), sameInNew: nil, newWrites: value(["shape": "{\"circle\": 1.5}"]),
            sameInOld: value(["shape": "{\"circle\": 1.5}"])),
        DirectionCase(
            rule: .unionCasePayloadChanged, path: "Shape.square", old: base,
            new: edited("2 square: Float64", "2 square: Timestamp"),
            oldWrites: value(), sameInNew: nil, newWrites: value(["shape": "{\"square\": 5}"]), sameInOld: nil),
        DirectionCase(
            rule: .unionCasePayloadChanged, path: "Shape.square", old: base,
            new: edited("2 square: Float64", "2 square: Int64"),
            oldWrites: value(), sameInNew: nil, newWrites: value(["shape": "{\"square\": 5}"]), sameInOld: nil),
        DirectionCase(
            rule: .unionCaseRenumbered, path: "Shape.square", old: base, new: edited("2 square: Float64", "3 square: Float64"),
            oldWrites: value(), sameInNew: value(), newWrites: value(), sameInOld: value()),
        unchangedWire(
            .unionCaseRenamed, "Shape.box", new: edited("2 square: Float64", "2 box: Float64"),
            valueInNew: value(["shape": "{\"box\": 2.5}"])),
        DirectionCase(
            rule: .declarationKindChanged, path: "Point", old: base,
            new: edited("struct Point {\n    1 x: Int32\n    2 y: Int32\n}", "enum Point {\n    0 origin\n    1 far\n}"),
            oldWrites: value(), sameInNew: nil, newWrites: value(["at": "\"far\""]), sameInOld: nil),
        unchangedWire(.declarationRemoved, "Unused", old: base + "struct Unused {\n    1 a: Int32\n}\n", new: edited("x", "x")),
        unchangedWire(.reservationDropped, "M", new: edited("    reserved 20\n", "")),
        unchangedWire(.packageRenamed, "package", new: edited("package t", "package u")),
        unchangedWire(.versionNotIncreased, "package", new: edited("1 red", "1 red\n    2 purple", bump: false)),
        unchangedWire(
            .typeRenamed, "M.at",
            new: edited("struct Point", "struct Spot").replacingOccurrences(of: "at: Point", with: "at: Spot")),
    ]
}
