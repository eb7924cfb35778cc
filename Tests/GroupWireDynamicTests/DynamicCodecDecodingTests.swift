import GroupWire
import GroupWireDynamic
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// Payload → JSON: defaults, tolerance for unpacked arrays and unknown fields, and typed
/// errors with offsets for malformed input.
@Suite struct DynamicCodecDecodingTests {
    let codec: DynamicCodec

    init() throws {
        codec = DynamicCodec(spec: try TestSpecs.everything())
    }

    func decode(_ hex: String, limits: Limits = .default) throws -> JSONValue {
        try DynamicCodec(spec: codec.spec, limits: limits).decode(try Hex.bytes(hex), as: "Everything")
    }

    /// The error decoding `hex` throws, or nil; throws when `hex` is not hex.
    func decodeError(_ hex: String, limits: Limits = .default) throws -> WireError? {
        let codec = DynamicCodec(spec: codec.spec, limits: limits)
        let payload = try Hex.bytes(hex)
        return wireError { () throws(WireError) in _ = try codec.decode(payload, as: "Everything") }
    }

    /// The error validating `hex` throws (the path that counts arrays instead of filling
    /// them), or nil; throws when `hex` is not hex.
    func validateError(_ hex: String, limits: Limits = .default) throws -> WireError? {
        let codec = DynamicCodec(spec: codec.spec, limits: limits)
        let payload = try Hex.bytes(hex)
        return wireError { () throws(WireError) in try codec.validate(payload, as: "Everything") }
    }

    static let defaults = #"""
        {"flag": false, "small": 0, "count": 0, "big": 0, "ratio": 0, "scale": 2.5, "text": "", "blob": "", "at": 0,
         "color": "red", "ints": [], "colors": [], "names": [], "byCount": {}, "choice": {"number": 0},
         "byID": {}, "bySign": {}, "huge": 0, "doubles": []}
        """#

    /// The defaults with some members replaced.
    func defaults(with changes: [String: JSONValue]) throws -> JSONValue {
        var object = try #require(try json(Self.defaults).objectValue)
        object.merge(changes) { _, new in new }
        return .object(object)
    }

    @Test func anEmptyPayloadDecodesToEveryDefault() throws {
        #expect(try decode("") == (try json(Self.defaults)))
    }

    @Test func unpackedElementsAreAcceptedAndConcatenatedWithPackedOnes() throws {
        #expect(try decode("6002 6001 6201 06") == (try defaults(with: ["ints": [1, -1, 3]])))
    }

    @Test func unknownEnumNumbersAreKeptAsNumbers() throws {
        #expect(try decode("5809 6a02 0263") == (try defaults(with: ["color": 9, "colors": ["blue", 99]])))
    }

    @Test func aMapEntryWithoutItsValueGetsTheDefaultValue() throws {
        #expect(try decode("7a02 0802 a20100") == (try defaults(with: ["byCount": ["2": ""], "bySign": ["0": false]])))
    }

    @Test func aRepeatedMapKeyKeepsTheLastValue() throws {
        #expect(try decode("7a05 0802 120179 7a05 0802 12017a") == (try defaults(with: ["byCount": ["2": "z"]])))
    }

    @Test func nonFiniteFloatsDecodeToStrings() throws {
        #expect(try decode("31 000000000000f87f 2d 0000807f") == (try defaults(with: ["scale": "NaN", "ratio": "Infinity"])))
    }

    @Test func unknownFieldsAreSkippedOrKeptAndWrittenBack() throws {
        let payload = try Hex.bytes("0801 f80705 8201020800")
        #expect(try codec.decode(payload, as: "Everything") == (try defaults(with: ["flag": true])))
        let keeping = DynamicCodec(spec: codec.spec, options: .init(keepsUnknownFields: true))
        let kept = try keeping.decode(payload, as: "Everything")
        #expect(kept[DynamicCodec.unknownFieldsKey] == .string("+AcF"))
        #expect(Hex.string(try keeping.encode(kept, as: "Everything")) == "0801" + "8201020800" + "f80705")
    }

    @Test func truncatedInputReportsTheOffsetWhereItEnds() throws {
        let error = try #require(try decodeError("0801 18"))
        #expect(error.kind == .truncated)
        #expect(error.offset == 3)
    }

    @Test func aFieldWithAnotherWireTypeIsATypeMismatch() throws {
        let error = try #require(try decodeError("09 0000000000000000"))
        #expect(error.kind == .typeMismatch)
        #expect(error.context.contains("Everything.flag"))
    }

    @Test func valuesOutOfTheirTypesRangeAreInvalid() throws {
        #expect(try decodeError("0802")?.kind == .invalidValue)
        #expect(try decodeError("109003")?.kind == .invalidValue)
        #expect(try decodeError("4a0f 000102030405060708090a0b0c0d0e")?.kind == .invalidValue)
        #expect(try decodeError("3a01ff")?.kind == .invalidUTF8)
        #expect(try decodeError("07")?.kind == .unknownWireType)
    }

    @Test func unionsMustHoldExactlyOneKnownCase() throws {
        #expect(try decodeError("8201 00")?.kind == .missingField)
        #expect(try decodeError("8201 04 0800 1200")?.kind == .invalidValue)
        let unknownCase = try #require(try decodeError("8201 02 4a00"))
        #expect(unknownCase.kind == .invalidValue)
        #expect(unknownCase.offset == 3)
    }

    @Test func nestingIsBoundedByTheLimits() throws {
        var limits = Limits.default
        limits.maxNestingDepth = 1
        #expect(try decode("92010208 02", limits: limits)["inner"] == (try json(#"{"a": 1}"#)))
        let error = try #require(try decodeError("8201 02 2200", limits: limits))
        #expect(error.kind == .depthExceeded)
    }

    @Test func collectionsAreBoundedByTheLimits() throws {
        var limits = Limits.default
        limits.maxCollectionCount = 2
        #expect(try decodeError("6203 020406", limits: limits)?.kind == .limitExceeded)
        #expect(try decodeError("6002 6004 6006", limits: limits)?.kind == .limitExceeded)
        #expect(try decodeError("7a02 0801 7a02 0802 7a02 0803", limits: limits)?.kind == .limitExceeded)
        #expect(try decode("7a02 0801 7a02 0801 7a02 0802", limits: limits)["byCount"] == ["1": "", "2": ""])
        // Validation counts array elements without keeping them, across packed runs and
        // single elements alike, and stops at the same element with the same offset.
        for hex in ["6203 020406", "6002 6004 6006", "6201 02 6002 6004", "7a02 0801 7a02 0802 7a02 0803"] {
            let decoded = try #require(try decodeError(hex, limits: limits))
            let validated = try #require(try validateError(hex, limits: limits))
            #expect(validated.kind == .limitExceeded)
            #expect(validated.offset == decoded.offset, "\(hex)")
        }
        #expect(try validateError("6002 6004", limits: limits) == nil)
    }

    @Test func aLengthOverTheStringLimitIsRejectedBeforeReading() throws {
        var limits = Limits.default
        limits.maxStringLength = 4
        let error = try #require(try decodeError("3a05 68656c6c6f", limits: limits))
        #expect(error.kind == .limitExceeded)
        #expect(error.offset == 1)
    }

    @Test func anUnknownTypeNameIsReported() throws {
        let error = wireError { () throws(WireError) in _ = try codec.decode([], as: "Nothing") }
        #expect(error?.kind == .unknownType)
    }

    /// A spec that did not pass the checker (a codec can be given one): what it cannot
    /// read is a typed error at the field's value, and what it can read still validates.
    @Test func anUncheckedSpecsUndeclaredTypesAndNestedCollectionsAreTypedErrors() throws {
        let compilation = SpecCompiler().compile(
            source: """
                package unchecked version 1
                message Odd @ 1 {
                    1 ghost: Phantom
                    2 ghosts: [Phantom]
                    3 grid: [[Int32]]
                    4 byPoint: [Phantom: String]
                    5 count: Int32
                    6 byGhost: [String: Phantom]
                }
                """)
        #expect(compilation.diagnostics.contains { $0.message.contains("Phantom") }, "the checker names the undeclared type")
        let codec = DynamicCodec(spec: compilation.spec)
        func outcome(_ hex: String) throws -> (kind: WireError.Kind?, offset: Int?, context: String) {
            let payload = try Hex.bytes(hex)
            let error = wireError { () throws(WireError) in _ = try codec.decode(payload, as: "Odd") }
            let validated = wireError { () throws(WireError) in try codec.validate(payload, as: "Odd") }
            #expect(validated?.kind == error?.kind && validated?.offset == error?.offset, "validate agrees on \(hex)")
            return (error?.kind, error?.offset, error?.context ?? "")
        }
        // What it can read passes; JSON needs defaults for the absent fields, Phantom's too.
        let readable = try Hex.bytes("2807")
        try codec.validate(readable, as: "Odd")
        #expect(wireError { () throws(WireError) in _ = try codec.decode(readable, as: "Odd") }?.kind == .unknownType)
        let ghost = try outcome("2807 0a00")
        #expect(
            ghost.kind == .unknownType && ghost.offset == 3 && ghost.context.contains("no type named Phantom (field Odd.ghost)"))
        let ghosts = try outcome("1200")
        #expect(ghosts.kind == .unknownType && ghosts.offset == 1 && ghosts.context.contains("Phantom (field Odd.ghosts)"))
        let grid = try outcome("1a00")
        #expect(grid.kind == .typeMismatch && grid.offset == 1 && grid.context.contains("Odd.grid nests a collection directly"))
        let byPoint = try outcome("2200")
        #expect(
            byPoint.kind == .typeMismatch && byPoint.offset == 1
                && byPoint.context.contains("map Odd.byPoint has a key type that is not a scalar"))
        let byGhost = try outcome("3204 0a00 1200")
        #expect(
            byGhost.kind == .unknownType && byGhost.offset == 5 && byGhost.context.contains("Phantom (field Odd.byGhost value)"),
            "\(byGhost)")
    }
}
