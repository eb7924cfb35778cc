import GroupWire
import GroupWireDynamic
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// JSON → payload for every kind of type, against hand-computed bytes.
@Suite struct DynamicCodecEncodingTests {
    let codec: DynamicCodec

    init() throws {
        codec = DynamicCodec(spec: try TestSpecs.everything())
    }

    func encode(_ text: String) throws -> String {
        Hex.string(try codec.encode(try json(text), as: "Everything"))
    }

    /// The non-optional union `choice` defaults to its lowest case with a zero payload.
    let defaultChoice = "8201" + "02" + "0800"

    @Test func anEmptyObjectWritesOnlyTheDefaultUnion() throws {
        #expect(try encode("{}") == defaultChoice)
    }

    @Test func scalarsUseTheirWireTypes() throws {
        let hex = try encode(
            #"""
            {"flag": true, "small": -2, "count": 300, "big": -9223372036854775808, "ratio": 0.5, "text": "é",
             "blob": "AAEC", "id": "000102030405060708090a0b0c0d0e0f", "at": -1, "huge": 18446744073709551615}
            """#.replacingOccurrences(
                of: "\"000102030405060708090a0b0c0d0e0f\"", with: "\"00010203-0405-0607-0809-0a0b0c0d0e0f\""))
        #expect(
            hex == "0801" + "1003" + "18ac02" + "20ffffffffffffffffff01" + "2d0000003f" + "3a02c3a9"
                + "4203000102" + "4a10000102030405060708090a0b0c0d0e0f" + "51ffffffffffffffff" + defaultChoice
                + "a801ffffffffffffffffff01")
    }

    @Test func floatsEqualToTheDefaultAreOmittedButNegativeZeroIsNot() throws {
        #expect(try encode(#"{"scale": 2.5, "ratio": 0}"#) == defaultChoice)
        #expect(try encode(#"{"scale": 0}"#) == "310000000000000000" + defaultChoice)
        #expect(try encode(#"{"ratio": -0.0}"#) == "2d00000080" + defaultChoice)
        #expect(try encode(#"{"scale": "NaN"}"#) == "31000000000000f87f" + defaultChoice)
        #expect(try encode(#"{"ratio": "-Infinity"}"#) == "2d000080ff" + defaultChoice)
    }

    @Test func anEnumEqualToItsDeclaredDefaultIsOmitted() throws {
        #expect(try encode(#"{"color": "red"}"#) == defaultChoice)
        #expect(try encode(#"{"color": "none"}"#) == "5800" + defaultChoice)
        #expect(try encode(#"{"color": 9}"#) == "5809" + defaultChoice)
    }

    @Test func numberAndEnumArraysArePackedAndOthersRepeated() throws {
        let hex = try encode(#"{"ints": [1, -1, 300], "colors": ["blue", 7, "none"], "names": ["a", ""], "doubles": [1]}"#)
        #expect(
            hex == "6204" + "0201d804" + "6a03020700" + "720161" + "7200" + defaultChoice
                + "b20108000000000000f03f")
    }

    @Test func mapEntriesAreSortedByKeyValueWithKeyAndValueAlwaysWritten() throws {
        #expect(try encode(#"{"byCount": {"10": "x", "2": "y"}}"#) == "7a050802120179" + "7a05080a120178" + defaultChoice)
        #expect(
            try encode(#"{"bySign": {"3": false, "-1": true}}"#) == defaultChoice + "a201040801" + "1001" + "a20104" + "0806"
                + "1000")
        let hex = try encode(
            #"""
            {"byID": {"00000000-0000-0000-0000-0000000000ff": {"a": 5}, "00000000-0000-0000-0000-000000000001": {}}}
            """#)
        #expect(
            hex == defaultChoice + "9a0114" + "0a10" + "00000000000000000000000000000001" + "1200"
                + "9a0116" + "0a10" + "000000000000000000000000000000ff" + "1202080a")
    }

    @Test func unionCasesAreNestedSingleFieldsAndAlwaysWritten() throws {
        #expect(try encode(#"{"choice": {"text": ""}}"#) == "8201021200")
        #expect(try encode(#"{"choice": {"empty": {}}}"#) == "8201021a00")
        #expect(try encode(#"{"choice": {"inner": {}}}"#) == "8201022200")
        #expect(try encode(#"{"choice": {"number": -3}}"#) == "8201020805")
        #expect(try encode(#"{"maybe": {"empty": {}}}"#) == defaultChoice + "8a01021a00")
    }

    @Test func optionalFieldsAreWrittenWhenPresentEvenWithDefaultValues() throws {
        #expect(
            try encode(#"{"inner": {}, "id": "00000000-0000-0000-0000-000000000000"}"#)
                == "4a1000000000000000000000000000000000" + defaultChoice + "920100")
        #expect(try encode(#"{"inner": null, "id": null, "maybe": null}"#) == defaultChoice)
        #expect(try encode(#"{"inner": {"label": ""}}"#) == defaultChoice + "9201021200")
    }
}
