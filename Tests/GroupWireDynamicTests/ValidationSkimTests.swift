import GroupWire
import GroupWireJSON
import GroupWireSpec
import GroupWireTestSupport
import Testing

@testable import GroupWireDynamic

/// Validation skims a container whose fields are all single values numbered 1...15 (one
/// byte per key): each one-byte key's step accepts the short form of its value, and
/// anything else goes back to the general walk. What the skim accepts, decoding accepts;
/// at every edge (each limit, each kind of value cut short or too long, a key of two bytes,
/// a string that is not ASCII) validation still fails as decoding does, at the same byte.
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

    @Test func containersOfSingleValuesNumberedToFifteenAreSkimmableAndNoOthers() throws {
        let schema = try Self.codec().schema
        var skimmable: [String: Bool] = [:]
        for (index, container) in schema.containers.enumerated() { skimmable[container.name] = schema.isSkimmable[index] }
        // An array, a union or a field numbered 16 stops a container; nesting one stops its holder.
        #expect(
            skimmable == [
                "Inner": true, "Deep": true, "Everything": true, "Listed": false, "Chosen": false, "Far": false,
                "Outer": false,
            ])
    }

    @Test func theSkimAcceptsEveryKindOfValueAndValidationAgreesWithDecoding() throws {
        let codec = try Self.codec()
        let payload = try codec.encode(try JSONParser().parse(Array(Self.everything.utf8)), as: "Everything")
        let index = try #require(codec.schema.containerIndex("Everything"))
        var reader = PayloadReader(payload)
        var decoder = DynamicDecoder(schema: codec.schema, limits: .default, keepsUnknownFields: false)
        decoder.buildsValues = false
        #expect(decoder.skim(container: index, depth: 0, from: &reader))
        #expect(reader.isAtEnd)
        // Two nested values, each holding one, and three strings and bytes (the empty ones
        // are not written).
        #expect(reader.decodedValues == (try Self.decodedValues(payload, codec: codec)))
        #expect(reader.decodedValues == 6)
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
            "5080 01",  // a varint of two bytes (128)
            "2802",  // signed: 1, zigzagged (the skim takes it)
            "5801",  // an unknown field (11)
            "8a01 00",  // field 17: a key of two bytes
            "1212 0a\(uuid)",  // an Inner holding only its id (the skim takes it)
            "1a80 01" + String(repeating: "61", count: 128),  // a string of 128 bytes
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
        #expect(skimmed == ["2802", "1212 0a\(uuid)"])
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
        var found: [String] = []
        var outcomes: Set<DamagedPayloadDifferentialTests.Outcome> = []
        for (name, limits) in variants {
            let codec = try Self.codec(limits: limits)
            for input in [payload] + DamagedPayloadDifferentialTests.damaged(payload, seed: 0x5C1_0001) {
                let decoded = DamagedPayloadDifferentialTests.Outcome { () throws(WireError) in
                    _ = try codec.decode(input, as: "Everything")
                }
                let validated = DamagedPayloadDifferentialTests.Outcome { () throws(WireError) in
                    try codec.validate(input, as: "Everything")
                }
                let framed: [UInt8] = [0xEE] + input + [0xEE]
                let inPlace = DamagedPayloadDifferentialTests.Outcome { () throws(WireError) in
                    try codec.validate(framed, in: 1..<(1 + input.count), typeID: 1)
                }
                if validated != decoded || inPlace != decoded {
                    found.append("\(name), \(Hex.string(input)): dynamic \(decoded), validate \(validated), in place \(inPlace)")
                }
                if input == payload { outcomes.insert(decoded) }
            }
        }
        #expect(found.isEmpty, "\(found.prefix(5).joined(separator: "\n"))")
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

    /// The values decoding counts against maxDecodedValues for `payload`: the largest limit
    /// that refuses it, plus one.
    static func decodedValues(_ payload: [UInt8], codec: DynamicCodec) throws -> Int {
        var limits = Limits.default
        for count in 0...64 {
            limits.maxDecodedValues = count
            if (try? DynamicCodec(spec: codec.spec, limits: limits).decode(payload, as: "Everything")) != nil { return count }
        }
        return -1
    }
}
