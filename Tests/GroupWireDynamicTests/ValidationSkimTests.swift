import GroupWire
import GroupWireJSON
import GroupWireSpec
import GroupWireTestSupport
import Testing

@testable import GroupWireDynamic

/// Validation skims a container whose fields are all numbered 1...15 (one byte per key),
/// single values or arrays of skimmable containers: each one-byte key's step accepts its
/// value in the minimal encoding, and anything else goes back to the general walk. What
/// the skim accepts, decoding accepts; at every edge (each limit, each kind of value cut
/// short or too long, a key of two bytes, a string that is not ASCII) validation still
/// fails as decoding does, at the same byte.
@Suite struct ValidationSkimTests {
    static let source = """
        package t version 1
        enum Level {
            0 low
            1 high
            200 extreme
        }
        struct Inner {
            1 id: UUID
            2 name: String
            3 blob: Bytes
            4 on: Bool
            5 small: Int8
            6 count: UInt64
            7 at: Timestamp
            8 ratio: Float32
        }
        struct Deep {
            1 inner: Inner
            2 level: Level
        }
        union Choice {
            1 word: String
            2 none
        }
        message Everything @ 1 {
            1 deep: Deep
            2 inner: Inner?
            3 word: String
            4 flag: Bool
            5 signed: Int32
            6 level: Level
            7 x: Float64
            8 checksum: Fixed32
            9 digest: Fixed64
            10 big: UInt32
        }
        message Listed @ 2 {
            1 items: [Inner]
            2 deep: Deep
        }
        message Chosen @ 3 {
            1 choice: Choice
            2 deep: Deep
        }
        message Far @ 4 {
            1 deep: Deep
            16 far: UInt8
        }
        message Outer @ 5 {
            1 far: Far
        }
        message Bunch @ 6 {
            1 fars: [Far]
        }
        message Numbers @ 7 {
            1 values: [UInt8]
            2 inner: Inner
        }
        struct Spot {
            1 x: Float64
            2 y: Float32
        }
        message Path @ 8 {
            1 spots: [Spot]
            2 first: Spot
            3 name: String
        }
        """

    static func codec(limits: Limits = .default) throws -> DynamicCodec {
        let compilation = SpecCompiler().compile(source: source, path: "t.gwspec")
        return DynamicCodec(spec: try compilation.checkedSpec(), limits: limits)
    }

    /// Every field of `Everything`, with values that take the skim's short forms.
    static let everything = #"""
        {"deep":{"inner":{"id":"00112233-4455-6677-8899-AABBCCDDEEFF","name":"ann","blob":"AQID","on":true,
        "small":-5,"count":100,"at":1700000000,"ratio":0.5},"level":"high"},
        "inner":{"id":"00112233-4455-6677-8899-AABBCCDDEEFF","name":"","blob":"","on":false,"small":63,"count":0,
        "at":0,"ratio":1},
        "word":"hello","flag":true,"signed":-64,"level":"low","x":2.5,"checksum":4294967295,"digest":7,"big":127}
        """#

    /// A listing of two Inner values, the second with a name of 130 bytes: its string and
    /// its own length take two bytes each.
    static let listed = #"""
        {"items":[{"id":"00112233-4455-6677-8899-AABBCCDDEEFF","name":"ann","count":300,"small":-100},
        {"name":"\#(String(repeating: "b", count: 130))","blob":"AQID","on":true,"at":-1,"ratio":0.25}],
        "deep":{"inner":{"count":18446744073709551615},"level":"extreme"}}
        """#

    @Test func containersOfSingleValuesAndArraysOfSkimmableOnesNumberedToFifteenAreSkimmableAndNoOthers() throws {
        let schema = try Self.codec().schema
        var skimmable: [String: Bool] = [:]
        for (index, container) in schema.containers.enumerated() { skimmable[container.name] = schema.isSkimmable[index] }
        // A union, a field numbered 16, an array of scalars or of containers that are not
        // skimmable stops a container; nesting one stops its holder.
        #expect(
            skimmable == [
                "Inner": true, "Deep": true, "Everything": true, "Listed": true, "Chosen": false, "Far": false,
                "Outer": false, "Bunch": false, "Numbers": false, "Spot": true, "Path": true,
            ])
    }

    @Test func anArrayOfSkimmableContainersWithLongLengthsAndVarintsIsSkimmed() throws {
        let codec = try Self.codec()
        let payload = try codec.encode(try JSONParser().parse(Array(Self.listed.utf8)), as: "Listed")
        // The second item (after the first's key, one-byte length and bytes): its key, a
        // two-byte length, and within it the name's key and two-byte length (130).
        let second = 2 + Int(payload[1])
        #expect(payload[0] == 0x0A && payload[second] == 0x0A)
        #expect(payload[second + 1] >= 0x80 && payload[second + 2] < 0x80)
        #expect(Array(payload[(second + 3)..<(second + 6)]) == [0x12, 0x82, 0x01])
        let skimmed = try Self.skimmedValues(payload, as: "Listed", codec: codec)
        // Two items, two names, one blob, the Deep and its Inner.
        #expect(skimmed == (try Self.decodedValues(payload, as: "Listed", codec: codec)))
        #expect(skimmed == 7)
        try codec.validate(payload, as: "Listed")
    }

    @Test func theSkimAcceptsEveryKindOfValueAndValidationAgreesWithDecoding() throws {
        let codec = try Self.codec()
        let payload = try codec.encode(try JSONParser().parse(Array(Self.everything.utf8)), as: "Everything")
        let skimmed = try Self.skimmedValues(payload, as: "Everything", codec: codec)
        // Two nested values, each holding one, and three strings and bytes (the empty ones
        // are not written).
        #expect(skimmed == (try Self.decodedValues(payload, as: "Everything", codec: codec)))
        #expect(skimmed == 6)
        try codec.validate(payload, as: "Everything")
    }

    /// Values the skim leaves to the general walk, which accepts them: each returns false
    /// from the skim and validates.
    @Test func valuesOutsideTheSkimsShortFormsAreLeftToTheGeneralWalk() throws {
        let codec = try Self.codec()
        let index = try #require(codec.schema.containerIndex("Everything"))
        let uuid = "10" + String(repeating: "ab", count: 16)
        let cases = [
            "1a02c3a9",  // a string that is not ASCII (é)
            "5080 01",  // a varint of two bytes (128; the skim takes it)
            "50ffffffff0f",  // UInt32.max in five bytes (the skim takes it)
            "2802",  // signed: 1, zigzagged (the skim takes it)
            "5801",  // an unknown field (11)
            "8a01 00",  // field 17: a key of two bytes
            "1212 0a\(uuid)",  // an Inner holding only its id (the skim takes it)
            "1a80 01" + String(repeating: "61", count: 128),  // a string of 128 bytes (the skim takes it)
            "0a06 0a04 1202c3a9",  // a string that is not ASCII two levels down
        ]
        var skimmed: [String] = []
        for hex in cases {
            let payload = try Hex.bytes(hex)
            var reader = PayloadReader(payload)
            var decoder = DynamicDecoder(schema: codec.schema, limits: .default, keepsUnknownFields: false)
            decoder.buildsValues = false
            if decoder.skim(container: index, depth: 0, from: &reader) { skimmed.append(hex) }
            #expect(reader.reader.position == (skimmed.last == hex ? payload.count : 0), "\(hex)")
            _ = try codec.decode(payload, as: "Everything")
            try codec.validate(payload, as: "Everything")
        }
        #expect(skimmed == ["5080 01", "50ffffffff0f", "2802", "1212 0a\(uuid)", cases[7]])
    }

    /// A container of fixed-width fields (a point) is skimmed in a loop of its own, and a
    /// run of its elements without going back to the step table; a run broken by another
    /// field and taken up again counts as one array, as decoding counts it.
    @Test func runsOfFixedWidthElementsAreSkimmedInTheirOwnLoopAndCountedAsDecodingCounts() throws {
        let codec = try Self.codec()
        let path = try #require(codec.schema.containerIndex("Path"))
        #expect(codec.schema.skimSteps[path * 128 + 0x0A].kind == .fixedElement)
        #expect(codec.schema.skimSteps[path * 128 + 0x12].kind == .fixedNested)
        let x = "09" + "000000000000f03f"  // x: 1.0
        let y = "15" + "0000803f"  // y: 1.0
        // Two spots, the first, a spot of y alone, an empty spot, the name, a spot of its
        // fields in reverse order and x twice.
        let hex =
            "0a0e\(x)\(y) 0a0e\(x)\(y) 120e\(x)\(y) 0a05\(y) 0a00 1a02 6869 0a17\(y)\(x)\(x)"
        let payload = try Hex.bytes(hex)
        let skimmed = try Self.skimmedValues(payload, as: "Path", codec: codec)
        // Five spots, the first and the name.
        #expect(skimmed == (try Self.decodedValues(payload, as: "Path", codec: codec)))
        #expect(skimmed == 7)
        let spots = try codec.decode(payload, as: "Path")["spots"]
        #expect(spots.map { if case .array(let elements) = $0 { elements.count } else { -1 } } == 5)
        try Self.expectValidationAgreesWithDecoding(
            payload, as: "Path", typeID: 8, seed: 0x5C1_0003,
            under: [
                ("maxNestingDepth", \Limits.maxNestingDepth, [0]), ("maxCollectionCount", \.maxCollectionCount, [2, 4, 5]),
                ("maxDecodedValues", \.maxDecodedValues, [2, 3, 6, 7]), ("maxMessageSize", \.maxMessageSize, [13, 14, 22]),
            ])
    }

    /// Encodings the skim's steps read past their first byte and decoding refuses: each
    /// fails validation (whole and in place) as it fails decoding, kind and byte.
    @Test func longEncodingsDecodingRefusesAreRefusedAlike() throws {
        let codec = try Self.codec()
        let cases = [
            "5080 00",  // big: a varint that is not minimal
            "5080 8080 8010",  // big: 2^32, over UInt32
            "50ff ffff ffff ffff ffff 02",  // big: over 64 bits
            "3080 8080 8010",  // level: over an enum's 32 bits
            "1203 2880 02",  // inner.small: 128, zigzagged to 256, over Int8
            "2002",  // flag: 2 is not a Bool
            "1a80 00",  // word: a length that is not minimal
            "1a81 01" + String(repeating: "61", count: 128),  // word: 129 bytes, one short
            "0a80 01 0a7e" + String(repeating: "00", count: 126),  // deep: a length past the end
        ]
        for hex in cases {
            let payload = try Hex.bytes(hex)
            let decoded = DamagedPayloadDifferentialTests.Outcome { () throws(WireError) in
                _ = try codec.decode(payload, as: "Everything")
            }
            let validated = DamagedPayloadDifferentialTests.Outcome { () throws(WireError) in
                try codec.validate(payload, as: "Everything")
            }
            let inPlace = DamagedPayloadDifferentialTests.Outcome { () throws(WireError) in
                try codec.validate([0xEE] + payload, in: 1..<(1 + payload.count), typeID: 1)
            }
            #expect(decoded != .decoded, "\(hex)")
            #expect(validated == decoded && inPlace == decoded, "\(hex): \(decoded), \(validated), \(inPlace)")
        }
    }

    /// Damaged copies of a payload that takes the skim, under limits each value of it meets
    /// or passes: validation (whole and in place) fails as decoding does, at the same byte.
    @Test func atEveryLimitAndOnDamagedInputValidationFailsAsDecodingDoes() throws {
        let payload = try Self.codec().encode(try JSONParser().parse(Array(Self.everything.utf8)), as: "Everything")
        var variants: [(String, Limits)] = [("default", .default)]
        for depth in 1...3 { variants.append(("maxNestingDepth \(depth)", Limits(maxNestingDepth: depth))) }
        for count in [1, 2, 4, 7, 8] {
            var limits = Limits.default
            limits.maxDecodedValues = count
            variants.append(("maxDecodedValues \(count)", limits))
        }
        for (name, keyPath) in [("maxStringLength", \Limits.maxStringLength), ("maxBytesLength", \Limits.maxBytesLength)] {
            for length in [0, 2, 3, 5] {
                var limits = Limits.default
                limits[keyPath: keyPath] = length
                variants.append(("\(name) \(length)", limits))
            }
        }
        for size in [20, 60] {
            var limits = Limits.default
            limits.maxMessageSize = size
            variants.append(("maxMessageSize \(size)", limits))
        }
        let (found, outcomes) = try Self.differential(payload, as: "Everything", typeID: 1, under: variants, seed: 0x5C1_0001)
        #expect(found.count == 0, "\(found.count) disagreements, the first: \(found.prefix(3).joined(separator: "\n"))")
        // A range outside the bytes is refused, not skimmed, though the message skims.
        let codec = try Self.codec(limits: .default)
        let framed: [UInt8] = [0xEE] + payload
        try codec.validate(framed, in: 1..<framed.count, typeID: 1)
        let past = DamagedPayloadDifferentialTests.Outcome { () throws(WireError) in
            try codec.validate(framed, in: 1..<(framed.count + 1), typeID: 1)
        }
        #expect(past == .failed(kind: "\(WireError.Kind.truncated)", offset: 1), "\(past)")
        // An absent field reads nothing: its default is made however deep it nests, as
        // generated code makes it, whatever maxNestingDepth says of the input.
        let shallow = try Self.codec(limits: Limits(maxNestingDepth: 1)).decode([], as: "Everything")
        #expect(shallow["deep"]?["inner"]?["name"] == .string(""))
        // The limits both accept the whole payload and refuse it, in more than one way.
        #expect(outcomes.contains(.decoded))
        #expect(outcomes.count >= 4, "\(outcomes)")
    }

    /// The listing's damaged copies under limits at and around each of its values: the
    /// element count, the long name and its item's length, the depth and the value count.
    @Test func anArraysDamagedCopiesAtEveryLimitFailAsDecodingDoes() throws {
        let payload = try Self.codec().encode(try JSONParser().parse(Array(Self.listed.utf8)), as: "Listed")
        try Self.expectValidationAgreesWithDecoding(
            payload, as: "Listed", typeID: 2, seed: 0x5C1_0002,
            under: [
                ("maxNestingDepth", \Limits.maxNestingDepth, [1, 2]), ("maxCollectionCount", \.maxCollectionCount, [0, 1, 2]),
                ("maxDecodedValues", \.maxDecodedValues, [2, 5, 6, 7]), ("maxStringLength", \.maxStringLength, [129, 130]),
                ("maxMessageSize", \.maxMessageSize, [100, 150, 160]),
            ])
    }

    /// ``differential(_:as:typeID:under:seed:)`` under the default limits and each setting
    /// of `settings`: no disagreement, and the payload itself both decodes and is refused
    /// in at least three ways (every setting list here refuses it for three limits or more).
    static func expectValidationAgreesWithDecoding(
        _ payload: [UInt8], as type: String, typeID: UInt64, seed: UInt64,
        under settings: [(String, WritableKeyPath<Limits, Int>, [Int])], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        var variants: [(String, Limits)] = [("default", .default)]
        for (name, keyPath, values) in settings {
            for value in values {
                var limits = Limits.default
                limits[keyPath: keyPath] = value
                variants.append(("\(name) \(value)", limits))
            }
        }
        let (found, outcomes) = try differential(payload, as: type, typeID: typeID, under: variants, seed: seed)
        #expect(
            found.count == 0, "\(found.count) disagreements, the first: \(found.prefix(3).joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        #expect(outcomes.contains(.decoded), sourceLocation: sourceLocation)
        #expect(outcomes.count >= 4, "\(outcomes)", sourceLocation: sourceLocation)
    }

    /// Decodes and validates (whole and in place) `payload` and each damaged copy under
    /// each of `variants`: the disagreements, and the outcomes of the payload itself.
    static func differential(
        _ payload: [UInt8], as type: String, typeID: UInt64, under variants: [(String, Limits)], seed: UInt64
    ) throws -> (found: [String], outcomes: Set<DamagedPayloadDifferentialTests.Outcome>) {
        var found: [String] = []
        var outcomes: Set<DamagedPayloadDifferentialTests.Outcome> = []
        for (name, limits) in variants {
            let codec = try Self.codec(limits: limits)
            for input in [payload] + DamagedPayloadDifferentialTests.damaged(payload, seed: seed) {
                let decoded = DamagedPayloadDifferentialTests.Outcome { () throws(WireError) in
                    _ = try codec.decode(input, as: type)
                }
                let validated = DamagedPayloadDifferentialTests.Outcome { () throws(WireError) in
                    try codec.validate(input, as: type)
                }
                let framed: [UInt8] = [0xEE] + input + [0xEE]
                let inPlace = DamagedPayloadDifferentialTests.Outcome { () throws(WireError) in
                    try codec.validate(framed, in: 1..<(1 + input.count), typeID: typeID)
                }
                if validated != decoded || inPlace != decoded {
                    found.append("\(name), \(Hex.string(input)): dynamic \(decoded), validate \(validated), in place \(inPlace)")
                }
                if input == payload { outcomes.insert(decoded) }
            }
        }
        return (found, outcomes)
    }

    /// The decoded values the skim of `type` counts for all of `payload`, or nil when it
    /// refuses the payload or stops short of its end.
    static func skimmedValues(_ payload: [UInt8], as type: String, codec: DynamicCodec) throws -> Int? {
        let index = try #require(codec.schema.containerIndex(type))
        var reader = PayloadReader(payload)
        var decoder = DynamicDecoder(schema: codec.schema, limits: .default, keepsUnknownFields: false)
        decoder.buildsValues = false
        guard decoder.skim(container: index, depth: 0, from: &reader), reader.isAtEnd else { return nil }
        return reader.decodedValues
    }

    /// The values decoding counts against maxDecodedValues for `payload`: the largest limit
    /// that refuses it, plus one.
    static func decodedValues(_ payload: [UInt8], as type: String = "Everything", codec: DynamicCodec) throws -> Int {
        var limits = Limits.default
        for count in 0...64 {
            limits.maxDecodedValues = count
            if (try? DynamicCodec(spec: codec.spec, limits: limits).decode(payload, as: type)) != nil { return count }
        }
        return -1
    }
}
