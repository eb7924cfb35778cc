import DrawTogetherV1Golden
import Foundation
import GroupWire
import GroupWireDynamic
import GroupWireSpec
import GroupWireTestSupport
import GroupWireTesting
import KitchenSinkGolden
import Testing
import WatchTogetherGolden

/// Generated decoders and the dynamic codec fail the same way on damaged payloads: for
/// every truncation and for seeded byte mutations of valid payloads, both decode, or both
/// throw the same error kind at the same offset (Spec/FORMAT.md, "Error offsets": one rule
/// for every decoder, although generated code reads nested values in place). The dynamic
/// codec's `validate` (no JSON made) agrees with both.
@Suite struct DamagedPayloadDifferentialTests {
    /// What one decoder made of a payload.
    enum Outcome: Hashable, CustomStringConvertible {
        case decoded
        case failed(kind: String, offset: Int?)

        var description: String {
            switch self {
            case .decoded: "decoded"
            case .failed(let kind, let offset): "\(kind) at \(offset.map(String.init) ?? "-")"
            }
        }

        init(_ body: () throws(WireError) -> Void) {
            do throws(WireError) {
                try body()
                self = .decoded
            } catch {
                self = .failed(kind: error.kind.name, offset: error.offset)
            }
        }
    }

    static let mutationsPerPayload = 300

    /// Damaged copies of `payload`: every proper prefix, then seeded mutations (a byte
    /// replaced, a bit flipped, a byte inserted or removed).
    static func damaged(_ payload: [UInt8], seed: UInt64) -> [[UInt8]] {
        var inputs = (0..<payload.count).map { Array(payload[..<$0]) }
        var random = SeededRandom(seed: seed)
        for _ in 0..<mutationsPerPayload where !payload.isEmpty {
            var bytes = payload
            let index = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 4 {
            case 0: bytes[index] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes[index] ^= 1 << UInt8(random.next() % 8)
            case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
            default: bytes.remove(at: index)
            }
            inputs.append(bytes)
        }
        return inputs
    }

    /// Decodes every damaged copy of `payload` both ways and returns the disagreements.
    static func disagreements<Value: WirePayloadCodable>(
        _ payload: [UInt8], as type: Value.Type, named name: String, codec: DynamicCodec, seed: UInt64,
        typeID: UInt64? = nil
    ) -> [String] {
        var found: [String] = []
        var failures = 0
        for input in damaged(payload, seed: seed) {
            let generated = Outcome { () throws(WireError) in _ = try Value(wirePayload: input) }
            let dynamic = Outcome { () throws(WireError) in _ = try codec.decode(input, as: name) }
            // What groupwire validate runs: the same checks without the JSON.
            let validated = Outcome { () throws(WireError) in try codec.validate(input, as: name) }
            if generated != .decoded { failures += 1 }
            if generated != dynamic || validated != dynamic {
                found.append("\(Hex.string(input)): generated \(generated), dynamic \(dynamic), validate \(validated)")
            }
            // What the validator runs on a frame: the payload read where it stands in the
            // frame's bytes, errors at the same payload offsets.
            if let typeID {
                let frame: [UInt8] = [0xEE, 0xEE, 0xEE] + input + [0xEE]
                let inPlace = Outcome { () throws(WireError) in
                    try codec.validate(frame, in: 3..<(3 + input.count), typeID: typeID)
                }
                if inPlace != validated { found.append("\(Hex.string(input)): validate \(validated), in place \(inPlace)") }
            }
        }
        // The damage must actually break most inputs, or the comparison proves little.
        if failures < payload.count / 2 { found.append("only \(failures) damaged inputs failed") }
        return found
    }

    static func spec(_ path: String) throws -> SpecSet {
        let compilation = try SpecCompiler().compile(
            entry: TestSpecs.root.appendingPathComponent(path).path, loader: FileSpecLoader())
        return try compilation.checkedSpec()
    }

    @Test func aDamagedCanvasSnapshotFailsAlikeInGeneratedAndDynamicDecoding() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("DrawTogether.gwspec"))
        var random = SeededRandom(seed: 0xDA_0001)
        let strokes = (0..<3).map { index in
            Stroke(
                id: random.uuid(), color: StrokeColor(rawValue: UInt32(index)),
                points: (0..<(index + 1)).map { _ in DrawTogetherV1Golden.Point(x: random.unit(), y: -random.unit()) })
        }
        let payload = CanvasSnapshot(strokes: strokes, pointCount: 300).wirePayload()
        let found = Self.disagreements(
            payload, as: CanvasSnapshot.self, named: "CanvasSnapshot", codec: codec, seed: 1, typeID: CanvasSnapshot.wireTypeID)
        #expect(found.isEmpty, "\(found.prefix(5).joined(separator: "\n"))")
    }

    /// Validation skims a container of fixed-width scalars (Point) and takes an array's
    /// repeated one-byte key itself; at every edge of that path (a field repeated, an unknown
    /// field, a wrong wire type, a value cut short, a two-byte key, an empty value, an
    /// element after another field) it must agree with decoding and generated code.
    @Test func validationAgreesWithDecodingAtTheEdgesOfItsFastPaths() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("DrawTogether.gwspec"))
        let x = "000000000000f03f"  // 1.0
        let id = "0a10" + String(repeating: "ab", count: 16)
        // UpsertStroke: field 3 is one Point.
        let points = [
            "1a12 09\(x) 11\(x)", "1a1b 09\(x) 09\(x) 11\(x)", "1a14 09\(x) 11\(x) 1805", "1a0a 0801 11\(x)",
            "1a0b 09\(x) 1101", "1a13 8900\(x) 11\(x)", "1a00", "1a09 09\(x)", "1a0a 09\(x) 00", "1a02 1100",
        ]
        var found: [String] = []
        /// Generated, dynamic and validating reads of `input` as `Value`, when they disagree.
        func disagreement<Value: WirePayloadCodable>(_ input: [UInt8], _ type: Value.Type, _ name: String) -> String? {
            let generated = Outcome { () throws(WireError) in _ = try Value(wirePayload: input) }
            let decoded = Outcome { () throws(WireError) in _ = try codec.decode(input, as: name) }
            let validated = Outcome { () throws(WireError) in try codec.validate(input, as: name) }
            guard generated != decoded || validated != decoded else { return nil }
            return "\(Hex.string(input)): generated \(generated), dynamic \(decoded), validate \(validated)"
        }
        for point in points {
            if let problem = disagreement(try Hex.bytes(id + point), UpsertStroke.self, "UpsertStroke") { found.append(problem) }
        }
        // Stroke: field 3 is an array of Points, elements one after another or apart.
        let strokes = [
            "1a12 09\(x) 11\(x) 1a12 09\(x) 11\(x)", "1a12 09\(x) 11\(x) 1003 1a09 11\(x)",
            "1a12 09\(x) 11\(x) 1a12 09\(x)", "1a09 09\(x) 1a", "1a09 09\(x) 1b09 09\(x)",
            "1a09 09\(x) 1a14 09\(x) 11\(x) 1805 1a00", "1a09 09\(x) 1a0a 0801 11\(x)", "1a09 09\(x) 1a0b 09\(x) 1101",
        ]
        var limits = Limits.default
        limits.maxCollectionCount = 1
        for (index, stroke) in strokes.enumerated() {
            let input = try Hex.bytes(id + stroke)
            if let problem = disagreement(input, Stroke.self, "Stroke") { found.append(problem) }
            // One element at most: the second is refused at the same byte both ways.
            let bounded = DynamicCodec(spec: codec.spec, limits: limits)
            let decodedBounded = Outcome { () throws(WireError) in _ = try bounded.decode(input, as: "Stroke") }
            let validatedBounded = Outcome { () throws(WireError) in try bounded.validate(input, as: "Stroke") }
            if validatedBounded != decodedBounded {
                found.append("stroke \(index), one element: dynamic \(decodedBounded), validate \(validatedBounded)")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// In a set built by hand without the checks, two fields may share a number: a key
    /// reads the first of them, so the other's wire type is a mismatch, in validation's
    /// key table as in the general walk.
    @Test func validationOfAHandBuiltSetReadsADuplicatedNumberAsItsFirstField() throws {
        let here = SourceLocation(file: "Hand.gwspec", line: 1, column: 1)
        let wide = FieldDecl(
            number: 1, name: "wide", type: .scalar(.float64), isOptional: false, location: here, typeLocation: here)
        let narrow = FieldDecl(
            number: 1, name: "narrow", type: .scalar(.float32), isOptional: false, location: here, typeLocation: here)
        let inner = StructDecl(name: "Inner", fields: [wide, narrow], reserved: [], location: here)
        let holder = FieldDecl(
            number: 1, name: "inner", type: .named("Inner"), isOptional: false, location: here, typeLocation: here)
        let outer = MessageDecl(name: "Outer", typeID: 9, fields: [holder], reserved: [], location: here, typeIDLocation: here)
        let file = SpecFile(path: "Hand.gwspec", package: nil, imports: [], declarations: [.struct(inner), .message(outer)])
        let codec = DynamicCodec(spec: SpecSet(files: [file]))
        for hex in ["0a05 0d00000000", "0a09 090000000000000000"] {
            let input = try Hex.bytes(hex)
            let decoded = Outcome { () throws(WireError) in _ = try codec.decode(input, as: "Outer") }
            let validated = Outcome { () throws(WireError) in try codec.validate(input, as: "Outer") }
            #expect(validated == decoded, "\(hex)")
        }
        let narrowKey = try Hex.bytes("0a05 0d00000000")
        #expect(Outcome { () throws(WireError) in try codec.validate(narrowKey, as: "Outer") } != .decoded)
    }

    /// `maxCollectionCount` bounds every array and map the same way in generated code, the
    /// dynamic codec and validation: elements counted over packed runs and single elements
    /// together, a map's repeated key not counted again, refused at the same byte.
    @Test func collectionCountsAreBoundAlikeInGeneratedAndDynamicDecoding() throws {
        let codec = DynamicCodec(spec: try Self.spec("Tests/Specs/KitchenSink.gwspec"))
        var limits = Limits.default
        limits.maxCollectionCount = 3
        let bounded = DynamicCodec(spec: codec.spec, limits: limits)
        let uuid = "10" + String(repeating: "5a", count: 16)
        // Arrays: (payload, whether it is over the limit of 3).
        let arrays: [(String, Bool)] = [
            ("1202 0204 1202 0608", true), ("1202 0204 1004", false), ("1004 1202 0204 1006", true),
            ("520161 520162 520163", false), ("520161 520162 520163 520164", true),
            ("62\(uuid) 62\(uuid) 62\(uuid) 62\(uuid)", true), ("6a00 6a00 6a00", false), ("6a00 6a00 6a00 6a00", true),
        ]
        // Maps: byName entries {1: key, 2: value}.
        let a = "0a05 0a0161 1002"
        let b = "0a05 0a0162 1004"
        let c = "0a05 0a0163 1006"
        let d = "0a05 0a0164 1008"
        let maps: [(String, Bool)] = [("\(a) \(b) \(c)", false), ("\(a) \(a) \(b) \(c)", false), ("\(a) \(b) \(c) \(d)", true)]
        var found: [String] = []
        func compare<Value: WirePayloadCodable>(_ hex: String, over: Bool, _ type: Value.Type, _ name: String) throws {
            let input = try Hex.bytes(hex)
            let generated = Outcome { () throws(WireError) in _ = try Value(wirePayload: input, limits: limits) }
            let decoded = Outcome { () throws(WireError) in _ = try bounded.decode(input, as: name) }
            let validated = Outcome { () throws(WireError) in try bounded.validate(input, as: name) }
            if generated != decoded || validated != decoded || (decoded == .decoded) == over {
                found.append("\(name) \(hex): generated \(generated), dynamic \(decoded), validate \(validated)")
            }
        }
        for (hex, over) in arrays { try compare(hex, over: over, KitchenSinkGolden.Arrays.self, "Arrays") }
        for (hex, over) in maps { try compare(hex, over: over, KitchenSinkGolden.Maps.self, "Maps") }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func aDamagedPlaybackStateFailsAlikeInGeneratedAndDynamicDecoding() throws {
        let codec = DynamicCodec(spec: try TestSpecs.example("WatchTogether.gwspec"))
        var random = SeededRandom(seed: 0xDA_0002)
        let value = PlaybackState(
            stateID: random.uuid(), previousStateID: random.uuid(), title: "Title", subtitle: "é",
            contentID: random.uuid(), position: 12.5, rate: 1, isPlaying: true, event: .seek,
            changedBy: ParticipantRef(id: random.uuid(), displayName: "Ann"),
            changedAt: Date(timeIntervalSince1970: 1_700_000_000),
            source: .catalog(CatalogItem(contentID: random.uuid(), seriesID: random.uuid())),
            audioLanguage: "en", metadata: ["a": "1", "bb": "22"])
        let found = Self.disagreements(
            value.wirePayload(), as: PlaybackState.self, named: "PlaybackState", codec: codec, seed: 2,
            typeID: PlaybackState.wireTypeID)
        #expect(found.isEmpty, "\(found.prefix(5).joined(separator: "\n"))")
    }

    /// Fixed32 and Fixed64 in every place they can stand (fields, defaults, packed arrays,
    /// map keys, union payloads): the dynamic codec writes the generated bytes from the
    /// generated JSON, reads them back to that JSON, and fails alike on damaged input.
    @Test func fixedWidthIntegersAgreeAndFailAlikeInGeneratedAndDynamicCode() throws {
        let codec = DynamicCodec(spec: try Self.spec("Tests/Specs/KitchenSink.gwspec"))
        let arrays = KitchenSinkGolden.Arrays(hashes: [0, 1, .max], tags: [.max, 7])
        let maps = KitchenSinkGolden.Maps(byHash: [.max: "z", 0: "", 1 << 40: "b"], byTag: [.max: -1, 3: 3])
        let scalars = KitchenSinkGolden.Scalars(hash32: 0x8000_0001, hash64: 0xFEDC_BA98_7654_3210)
        let choice = KitchenSinkGolden.Optionals(choice: .digest(.max))
        let defaults = KitchenSinkGolden.Defaults(tag: 0, seed: 42)
        func agree<Value: WirePayloadCodable & Codable & Equatable>(_ value: Value, _ name: String, seed: UInt64) throws {
            let payload = value.wirePayload()
            let json = try JSONParser().parse(Array(try JSONEncoder().encode(value)))
            #expect(try codec.encode(json, as: name) == payload, "\(name)")
            let decoded = JSONWriter().bytes(try codec.decode(payload, as: name))
            #expect(try JSONDecoder().decode(Value.self, from: Data(decoded)) == value, "\(name)")
            let found = Self.disagreements(payload, as: Value.self, named: name, codec: codec, seed: seed)
            #expect(found.isEmpty, "\(name): \(found.prefix(5).joined(separator: "\n"))")
        }
        try agree(arrays, "Arrays", seed: 11)
        try agree(maps, "Maps", seed: 12)
        try agree(scalars, "Scalars", seed: 13)
        try agree(choice, "Optionals", seed: 14)
        try agree(defaults, "Defaults", seed: 15)
    }

    /// A struct of fixed-width integers and floats only is validated by the one-byte-key skim;
    /// on every damaged array of them, validation and decoding agree on kind and offset.
    @Test func fixedWidthIntegersTakeTheValidationSkimAndAgreeWithDecoding() throws {
        let compilation = SpecCompiler().compile(
            source: """
                package t version 1
                struct H {
                    1 a: Fixed64
                    2 b: Fixed32
                    3 c: Float64
                }
                message M @ 1 {
                    1 hs: [H]
                }
                """, path: "t.gwspec")
        let codec = DynamicCodec(spec: try compilation.checkedSpec())
        let json = try JSONParser().parse(#"{"hs":[{"a":18446744073709551615,"b":7,"c":0.5},{"a":1},{"b":4294967295}]}"#)
        let payload = try codec.encode(json, as: "M")
        #expect(
            payload
                == (try Hex.bytes(
                    "0a17 09ffffffffffffffff 1507000000 19000000000000e03f  0a09 090100000000000000  0a05 15ffffffff")))
        #expect(try codec.encode(try codec.decode(payload, as: "M"), as: "M") == payload)
        var found: [String] = []
        for input in Self.damaged(payload, seed: 16) {
            let decoded = Outcome { () throws(WireError) in _ = try codec.decode(input, as: "M") }
            let validated = Outcome { () throws(WireError) in try codec.validate(input, as: "M") }
            if decoded != validated { found.append("\(Hex.string(input)): dynamic \(decoded), validate \(validated)") }
        }
        #expect(found.isEmpty, "\(found.prefix(5).joined(separator: "\n"))")
    }

    @Test func aDamagedRecursiveTreeFailsAlikeInGeneratedAndDynamicDecoding() throws {
        let codec = DynamicCodec(spec: try Self.spec("Tests/Specs/KitchenSink.gwspec"))
        let leaf = Tree(label: "leaf", children: [], byName: [:])
        let middle = Tree(label: "mid", children: [leaf, leaf], byName: ["x": leaf])
        let root = Tree(label: "root", children: [middle], byName: ["m": middle, "l": leaf])
        let found = Self.disagreements(root.wirePayload(), as: Tree.self, named: "Tree", codec: codec, seed: 3)
        #expect(found.isEmpty, "\(found.prefix(5).joined(separator: "\n"))")
    }

    /// The nesting limit refuses the same value at the same byte in generated code (which
    /// reads nested values in place) and in the dynamic codec (which does too, through
    /// array elements, map entries and map values): for each limit, a tree nesting through
    /// `children` and one nesting through `byName` decode in all three or fail alike.
    @Test func theNestingLimitRefusesTheSameByteInGeneratedAndDynamicDecoding() throws {
        let spec = try Self.spec("Tests/Specs/KitchenSink.gwspec")
        var throughChildren = Tree(label: "leaf", children: [], byName: [:])
        var throughMaps = throughChildren
        for level in 0..<5 {
            throughChildren = Tree(label: "c\(level)", children: [throughChildren], byName: [:])
            throughMaps = Tree(label: "m\(level)", children: [], byName: ["k\(level)": throughMaps])
        }
        var outcomes: [String: Set<Outcome>] = [:]
        for (name, tree) in [("children", throughChildren), ("byName", throughMaps)] {
            let payload = tree.wirePayload()
            for depth in 1...12 {
                let limits = Limits(maxNestingDepth: depth)
                let codec = DynamicCodec(spec: spec, limits: limits)
                let generated = Outcome { () throws(WireError) in _ = try Tree(wirePayload: payload, limits: limits) }
                let dynamic = Outcome { () throws(WireError) in _ = try codec.decode(payload, as: "Tree") }
                let validated = Outcome { () throws(WireError) in try codec.validate(payload, as: "Tree") }
                #expect(
                    dynamic == generated && validated == generated,
                    "\(name), depth \(depth): generated \(generated), dynamic \(dynamic), validate \(validated)")
                outcomes[name, default: []].insert(generated)
            }
        }
        // Each tree is refused at some limits (at several bytes) and accepted at others.
        for (name, seen) in outcomes {
            #expect(seen.contains(.decoded) && seen.filter { $0 != .decoded }.count >= 3, "\(name): \(seen)")
            #expect(
                seen.allSatisfy { if case .failed(let kind, _) = $0 { kind == "depthExceeded" } else { true } },
                "\(name): \(seen)")
        }
    }
}
