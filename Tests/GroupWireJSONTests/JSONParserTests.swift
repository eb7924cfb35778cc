import GroupWireJSON
import Testing

/// The JSON parser and writer: values, exact numbers, escapes, and errors with positions.
@Suite struct JSONParserTests {
    func syntaxError(_ text: String, maxDepth: Int = 512) -> JSONSyntaxError? {
        syntaxError { () throws(JSONSyntaxError) in _ = try JSONParser(maxDepth: maxDepth).parse(text) }
    }

    func syntaxError(_ body: () throws(JSONSyntaxError) -> Void) -> JSONSyntaxError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesParseToTheirCases() throws {
        let value = try JSONParser().parse(#" {"a": [true, false, null, -1.5e3, "x"], "b": {}} "#)
        #expect(
            value
                == .object([
                    "a": .array([.bool(true), .bool(false), .null, .number(JSONNumber(-1500.0)!), .string("x")]),
                    "b": .object([:]),
                ]))
    }

    @Test func integersKeepEveryDigit() throws {
        let value = try JSONParser().parse("[18446744073709551615, -9223372036854775808]")
        let elements = try #require(value.arrayValue)
        guard case .number(let big) = elements[0], case .number(let small) = elements[1] else {
            Issue.record("expected numbers")
            return
        }
        #expect(big.uint64 == UInt64.max)
        #expect(small.int64 == Int64.min)
        #expect(big.int64 == nil)
    }

    @Test func escapesDecodeIncludingSurrogatePairs() throws {
        #expect(try JSONParser().parse(#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#) == .string("a\"\\/\u{8}\u{c}\n\r\té😀"))
    }

    @Test func theWriterSortsKeysAndEscapesControlCharacters() throws {
        let value: JSONValue = ["b": 1, "a": ["x\n\u{1}", 2.5, nil, true]]
        #expect(JSONWriter().string(value) == #"{"a":["x\n\u0001",2.5,null,true],"b":1}"#)
        #expect(
            JSONWriter(prettyPrinted: true).string(value)
                == "{\n  \"a\": [\n    \"x\\n\\u0001\",\n    2.5,\n    null,\n    true\n  ],\n  \"b\": 1\n}")
        #expect(try JSONParser().parse(JSONWriter().string(value)) == value)
    }

    @Test func numbersEqualByValue() throws {
        #expect(try JSONParser().parse("1") == (try JSONParser().parse("1.0")))
        #expect(try JSONParser().parse("100") == (try JSONParser().parse("1e2")))
        #expect(JSONNumber(Float(0.1))?.text == "0.1")
        #expect(JSONNumber(2.0)?.text == "2")
        #expect(JSONNumber(Double.nan) == nil)
    }

    @Test(arguments: [
        ("", 1, 1),
        ("{\n  \"a\": tru }", 2, 8),
        ("[1,]", 1, 4),
        ("{\"a\" 1}", 1, 6),
        ("01", 1, 1),
        ("1.", 1, 3),
        ("\"abc", 1, 1),
        ("\"\\ud800\"", 1, 2),
        ("\"\\x\"", 1, 2),
        ("\"a\u{1}\"", 1, 3),
        ("[1] 2", 1, 5),
        ("{\"a\": 1, \"a\": 2}", 1, 10),
    ])
    func malformedJSONIsReportedAtItsLineAndColumn(text: String, line: Int, column: Int) throws {
        let error = try #require(syntaxError(text))
        #expect(error.line == line)
        #expect(error.column == column)
    }

    @Test func nestingDeeperThanTheLimitIsRejectedWithoutRecursingFurther() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(syntaxError(deep, maxDepth: 512))
        #expect(error.context.contains("deeper than 512"))
        #expect(try JSONParser(maxDepth: 3).parse("[[[1]]]") == [[[1]]])
    }

    @Test func invalidUTF8InStringsIsRejected() throws {
        let error = syntaxError { () throws(JSONSyntaxError) in _ = try JSONParser().parse([0x22, 0xFF, 0x22]) }
        #expect(error?.offset == 0)  // the string that holds the bad byte
    }

    @Test func stringsEscapeQuotesBackslashesControlCharactersAndDelete() {
        let value = JSONValue.object(["b": .string("q\"\\\n\u{01}\u{7F}\u{8}"), "a": .double(.nan), "c": .array([])])
        #expect(value.rendered(pretty: false) == #"{"a":"NaN","b":"q\"\\\n\u0001\u007f\b","c":[]}"#)
        #expect(
            JSONValue.object(["k": .array([.int(-1), .bool(true), .null])]).rendered() == """
                {
                  "k": [
                    -1,
                    true,
                    null
                  ]
                }
                """)
    }

    @Test func nonFiniteDoublesHaveTheOneSpellingOfFormatMDAndReadBack() {
        #expect(
            [JSONValue.double(.nan), .double(.infinity), .double(-.infinity), .float(-.infinity)]
                == [.string("NaN"), .string("Infinity"), .string("-Infinity"), .string("-Infinity")])
        #expect(JSONValue.nonFiniteDouble(named: "Infinity") == .infinity)
        #expect(JSONValue.nonFiniteDouble(named: "-Infinity") == -.infinity)
        #expect(JSONValue.nonFiniteDouble(named: "NaN")?.isNaN == true)
        #expect(JSONValue.nonFiniteDouble(named: "nan") == nil)
        #expect(JSONValue.double(2.0) == .number(JSONNumber(Int64(2))))
        #expect(JSONValue.float(0.1).description == "0.1")
    }

    @Test func keysSortByTheirUTF8Bytes() {
        let value: JSONValue = ["é": 1, "z": 2, "Z": 3]
        #expect(JSONWriter().string(value) == #"{"Z":3,"z":2,"é":1}"#)
    }
}
