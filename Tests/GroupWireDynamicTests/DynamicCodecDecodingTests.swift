import GroupWire
import GroupWireDynamic
import GroupWireSpec
import Testing

/// Payload → JSON: defaults, tolerance for unpacked arrays and unknown fields, and typed
/// errors with offsets for malformed input.
@Suite struct DynamicCodecDecodingTests {
    let codec: DynamicCodec

    init() throws {
        codec = DynamicCodec(spec: try TestSpecs.everything())
    }

    func decode(_ hex: String, limits: Limits = .default) throws -> JSONValue {
        try DynamicCodec(spec: codec.spec, limits: limits).decode(hexBytes(hex), as: "Everything")
    }

    func decodeError(_ hex: String, limits: Limits = .default) -> WireError? {
        let codec = DynamicCodec(spec: codec.spec, limits: limits)
        return wireError { () throws(WireError) in _ = try codec.decode(hexBytes(hex), as: "Everything") }
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
        let payload = hexBytes("0801 f80705 8201020800")
        #expect(try codec.decode(payload, as: "Everything") == (try defaults(with: ["flag": true])))
        let keeping = DynamicCodec(spec: codec.spec, options: .init(keepsUnknownFields: true))
        let kept = try keeping.decode(payload, as: "Everything")
        #expect(kept[DynamicCodec.unknownFieldsKey] == .string("+AcF"))
        #expect(hexString(try keeping.encode(kept, as: "Everything")) == "0801" + "8201020800" + "f80705")
    }

    @Test func truncatedInputReportsTheOffsetWhereItEnds() throws {
        let error = try #require(decodeError("0801 18"))
        #expect(error.kind == .truncated)
        #expect(error.offset == 3)
    }

    @Test func aFieldWithAnotherWireTypeIsATypeMismatch() throws {
        let error = try #require(decodeError("09 0000000000000000"))
        #expect(error.kind == .typeMismatch)
        #expect(error.context.contains("Everything.flag"))
    }

    @Test func valuesOutOfTheirTypesRangeAreInvalid() throws {
        #expect(decodeError("0802")?.kind == .invalidValue)
        #expect(decodeError("109003")?.kind == .invalidValue)
        #expect(decodeError("4a0f 000102030405060708090a0b0c0d0e")?.kind == .invalidValue)
        #expect(decodeError("3a01ff")?.kind == .invalidUTF8)
        #expect(decodeError("07")?.kind == .unknownWireType)
    }

    @Test func unionsMustHoldExactlyOneKnownCase() throws {
        #expect(decodeError("8201 00")?.kind == .missingField)
        #expect(decodeError("8201 04 0800 1200")?.kind == .invalidValue)
        let unknownCase = try #require(decodeError("8201 02 4a00"))
        #expect(unknownCase.kind == .invalidValue)
        #expect(unknownCase.offset == 3)
    }

    @Test func nestingIsBoundedByTheLimits() throws {
        var limits = Limits.default
        limits.maxNestingDepth = 1
        #expect(try decode("92010208 02", limits: limits)[ "inner"] == (try json(#"{"a": 1}"#)))
        let error = try #require(decodeError("8201 02 2200", limits: limits))
        #expect(error.kind == .depthExceeded)
    }

    @Test func collectionsAreBoundedByTheLimits() throws {
        var limits = Limits.default
        limits.maxCollectionCount = 2
        #expect(decodeError("6203 020406", limits: limits)?.kind == .limitExceeded)
        #expect(decodeError("6002 6004 6006", limits: limits)?.kind == .limitExceeded)
        #expect(decodeError("7a02 0801 7a02 0802 7a02 0803", limits: limits)?.kind == .limitExceeded)
        #expect(try decode("7a02 0801 7a02 0801 7a02 0802", limits: limits)["byCount"] == ["1": "", "2": ""])
    }

    @Test func aLengthOverTheStringLimitIsRejectedBeforeReading() throws {
        var limits = Limits.default
        limits.maxStringLength = 4
        let error = try #require(decodeError("3a05 68656c6c6f", limits: limits))
        #expect(error.kind == .limitExceeded)
        #expect(error.offset == 1)
    }

    @Test func anUnknownTypeNameIsReported() throws {
        let error = wireError { () throws(WireError) in _ = try codec.decode([], as: "Nothing") }
        #expect(error?.kind == .unknownType)
    }
}
