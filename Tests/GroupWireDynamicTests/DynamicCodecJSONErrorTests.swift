import GroupWire
import GroupWireDynamic
import GroupWireSpec
import Testing

/// Bad JSON input is reported with its kind and the JSON path of the problem.
@Suite struct DynamicCodecJSONErrorTests {
    let codec: DynamicCodec

    init() throws {
        codec = DynamicCodec(spec: try TestSpecs.everything())
    }

    func error(_ text: String, limits: Limits = .default) throws -> JSONInputError {
        let value = try json(text)
        let codec = DynamicCodec(spec: codec.spec, limits: limits)
        return try #require(jsonError { () throws(JSONInputError) in _ = try codec.encode(value, as: "Everything") })
    }

    @Test(arguments: [
        (#"{"flag": 1}"#, "typeMismatch", "$.flag"),
        (#"{"small": 128}"#, "outOfRange", "$.small"),
        (#"{"count": -1}"#, "outOfRange", "$.count"),
        (#"{"huge": 18446744073709551616}"#, "outOfRange", "$.huge"),
        (#"{"nope": 1}"#, "unknownField", "$.nope"),
        (#"{"inner": {"a": 1.5}}"#, "outOfRange", "$.inner.a"),
        (#"{"ints": [1, "x"]}"#, "typeMismatch", "$.ints[1]"),
        (#"{"choice": {"text": "a", "number": 1}}"#, "invalidValue", "$.choice"),
        (#"{"choice": {"bogus": 1}}"#, "invalidValue", "$.choice.bogus"),
        (#"{"choice": {"empty": 1}}"#, "invalidValue", "$.choice.empty"),
        (#"{"color": "purple"}"#, "invalidValue", "$.color"),
        (#"{"colors": ["red", 4294967296]}"#, "outOfRange", "$.colors[1]"),
        (#"{"id": "not-a-uuid"}"#, "invalidValue", "$.id"),
        (#"{"blob": "abc"}"#, "invalidValue", "$.blob"),
        (#"{"ratio": 1e39}"#, "outOfRange", "$.ratio"),
        (#"{"scale": "fast"}"#, "invalidValue", "$.scale"),
        (#"{"at": 1.5}"#, "outOfRange", "$.at"),
        (#"{"byCount": {"x": "y"}}"#, "outOfRange", "$.byCount.x"),
        (#"{"bySign": {"1": true, "01": false}}"#, "invalidValue", #"$.bySign["1"]"#),
        (
            #"{"byID": {"00000000-0000-0000-0000-000000000001": {"b": 1}}}"#, "unknownField",
            #"$.byID["00000000-0000-0000-0000-000000000001"].b"#
        ),
        (#"{"text": null}"#, "typeMismatch", "$.text"),
        (#"[]"#, "typeMismatch", "$"),
    ])
    func badJSONIsReportedWithItsKindAndPath(input: String, kind: String, path: String) throws {
        let error = try error(input)
        #expect(error.kind.name == kind)
        #expect(error.path == path)
    }

    @Test func stringsOverTheLimitAreRejectedOnEncode() throws {
        var limits = Limits.default
        limits.maxStringLength = 3
        let error = try error(#"{"names": ["abc", "abcd"]}"#, limits: limits)
        #expect(error.kind == .limitExceeded)
        #expect(error.path == "$.names[1]")
    }

    @Test func nestingOverTheLimitIsRejectedOnEncode() throws {
        var limits = Limits.default
        limits.maxNestingDepth = 1
        let error = try error(#"{"choice": {"inner": {}}}"#, limits: limits)
        #expect(error.kind == .limitExceeded)
        #expect(error.path == "$.choice.inner")
    }

    @Test func anUnknownMessageNameSuggestsTheDeclaredOnes() throws {
        let error = try #require(jsonError { () throws(JSONInputError) in _ = try codec.encodeFrame([:], message: "everything") })
        #expect(error.kind == .unknownType)
        #expect(error.context.contains("did you mean Everything?"))
    }

    @Test func aMessageTooLargeForOneFrameIsReported() throws {
        var limits = Limits.default
        limits.maxFrameSize = 16
        let codec = DynamicCodec(spec: codec.spec, limits: limits)
        let error = try #require(
            jsonError { () throws(JSONInputError) in
                _ = try codec.encodeFrame(["text": "a long enough text"], message: "Everything")
            })
        #expect(error.kind == .frameTooLarge)
    }
}
