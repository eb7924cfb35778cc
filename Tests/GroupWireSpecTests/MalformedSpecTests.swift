import GroupWireSpec
import Testing

/// One malformed spec and the exact diagnostics (first lines) it must produce, in order.
struct MalformedCase: CustomTestStringConvertible, Sendable {
    let name: String
    let source: String
    let expected: [String]
    var otherFiles: [String: String] = [:]
    var testDescription: String { name }
}

private let header = "package t version 1\n"

/// Every case asserts each diagnostic's exact message and `file:line:col`, and that no
/// other diagnostic is produced (so recovery adds no noise).
private let malformedCases: [MalformedCase] = [
    MalformedCase(
        name: "a file without a package line", source: "message M @ 1 {\n}\n",
        expected: ["t.gwspec:1:1: error: missing package line"]),
    MalformedCase(
        name: "a duplicate field number", source: header + "message M @ 1 {\n    1 a: Int32\n    1 b: Int32\n}\n",
        expected: ["t.gwspec:4:5: error: field number 1 is already used by 'a' in 'M'"]),
    MalformedCase(
        name: "a duplicate field name", source: header + "struct S {\n    1 a: Int32\n    2 a: String\n}\n",
        expected: ["t.gwspec:4:5: error: duplicate field name 'a' in 'S'"]),
    MalformedCase(
        name: "a reserved field number", source: header + "struct S {\n    reserved 2, 5...7\n    6 b: Int32\n}\n",
        expected: ["t.gwspec:4:5: error: field number 6 of 'S.b' is reserved"]),
    MalformedCase(
        name: "a reserved field name", source: header + "struct S {\n    reserved \"old\"\n    1 old: Int32\n}\n",
        expected: ["t.gwspec:4:5: error: field name 'old' is reserved in 'S'"]),
    MalformedCase(
        name: "field number zero", source: header + "struct S {\n    0 a: Int32\n}\n",
        expected: ["t.gwspec:3:5: error: field number 0 of 'S.a' is out of range; field numbers are 1...536870911"]),
    MalformedCase(
        name: "a field number above 2^29-1", source: header + "struct S {\n    536870912 a: Int32\n}\n",
        expected: ["t.gwspec:3:5: error: field number 536870912 of 'S.a' is out of range; field numbers are 1...536870911"]),
    MalformedCase(
        name: "an unknown type", source: header + "struct Point {\n    1 x: Float64\n}\nstruct S {\n    1 p: [Pont]\n}\n",
        expected: ["t.gwspec:6:11: error: unknown type 'Pont'"]),
    MalformedCase(
        name: "a misspelled scalar", source: header + "struct S {\n    1 p: Int33\n}\n",
        expected: ["t.gwspec:3:10: error: unknown type 'Int33'"]),
    MalformedCase(
        name: "a duplicate type name", source: header + "struct S {\n}\nenum S {\n    0 a\n}\n",
        expected: ["t.gwspec:4:1: error: duplicate type name 'S'"]),
    MalformedCase(
        name: "a duplicate type id", source: header + "message A @ 7 {\n}\nmessage B @ 7 {\n}\n",
        expected: ["t.gwspec:4:13: error: duplicate type id 7: 'B' and 'A'"]),
    MalformedCase(
        name: "type id zero", source: header + "message A @ 0 {\n}\n",
        expected: ["t.gwspec:2:13: error: type id 0 of 'A' is out of range; type ids are 1...4294967295"]),
    MalformedCase(
        name: "a type id above 2^32-1", source: header + "message A @ 4294967296 {\n}\n",
        expected: ["t.gwspec:2:13: error: type id 4294967296 of 'A' is out of range; type ids are 1...4294967295"]),
    MalformedCase(
        name: "a type id of GroupWire's own block", source: header + "message A @ 0xFFFFFF05 {\n}\n",
        expected: [
            "t.gwspec:2:13: error: type id 4294967045 of 'A' is GroupWire's own; type ids 4294967040...4294967295 are reserved for GroupWire's specs (coordinated playback)"
        ]),
    MalformedCase(
        name: "a struct containing itself through an optional",
        source: header + "struct Node {\n    1 value: Int32\n    2 next: Node?\n}\n",
        expected: ["t.gwspec:4:5: error: 'Node' contains itself by value (Node -> Node)"]),
    MalformedCase(
        name: "two structs containing each other",
        source: header + "struct A {\n    1 b: B\n}\nstruct B {\n    1 a: A\n}\n",
        expected: ["t.gwspec:6:5: error: 'A' contains itself by value (A -> B -> A)"]),
    MalformedCase(
        name: "a union containing itself",
        source: header + "union Expr {\n    1 value: Int64\n    2 negate: Expr\n}\n",
        expected: ["t.gwspec:4:5: error: 'Expr' contains itself by value (Expr -> Expr)"]),
    MalformedCase(
        name: "a string default for an integer", source: header + "struct S {\n    1 a: Int32 = \"x\"\n}\n",
        expected: ["t.gwspec:3:18: error: default value \"x\" does not match type Int32"]),
    MalformedCase(
        name: "an integer default out of range", source: header + "struct S {\n    1 a: UInt8 = 256\n}\n",
        expected: ["t.gwspec:3:18: error: default value 256 is out of range for UInt8 (0...255)"]),
    MalformedCase(
        name: "a negative default for an unsigned field", source: header + "struct S {\n    1 a: UInt32 = -1\n}\n",
        expected: ["t.gwspec:3:19: error: default value -1 is out of range for UInt32 (0...4294967295)"]),
    MalformedCase(
        name: "an Int64 default below its minimum", source: header + "struct S {\n    1 a: Int64 = -9223372036854775809\n}\n",
        expected: [
            "t.gwspec:3:18: error: default value -9223372036854775809 is out of range for Int64 (-9223372036854775808...9223372036854775807)"
        ]),
    MalformedCase(
        name: "a Float32 default out of range", source: header + "struct S {\n    1 a: Float32 = 1e39\n}\n",
        expected: ["t.gwspec:3:20: error: default value 1e39 is out of range for Float32"]),
    MalformedCase(
        name: "a default on an optional field", source: header + "struct S {\n    1 a: Bool? = true\n}\n",
        expected: ["t.gwspec:3:18: error: optional field 'a' cannot have a default"]),
    MalformedCase(
        name: "a default on a Bytes field", source: header + "struct S {\n    1 a: Bytes = \"x\"\n}\n",
        expected: ["t.gwspec:3:18: error: field 'a' of type Bytes cannot have a default"]),
    MalformedCase(
        name: "a default naming an unknown enum case",
        source: header + "enum Color {\n    0 red\n    1 blue\n}\nstruct S {\n    1 c: Color = blu\n}\n",
        expected: ["t.gwspec:7:18: error: enum 'Color' has no case 'blu'"]),
    MalformedCase(
        name: "an import cycle", source: header + "import \"b.gwspec\"\n",
        expected: ["b.gwspec:2:8: error: import cycle: t.gwspec -> b.gwspec -> t.gwspec"],
        otherFiles: ["b.gwspec": "package b version 1\nimport \"t.gwspec\"\n"]),
    MalformedCase(
        name: "a missing import", source: header + "import \"nowhere.gwspec\"\n",
        expected: ["t.gwspec:2:8: error: cannot find imported file 'nowhere.gwspec'"]),
    MalformedCase(
        name: "a type from a file that is only imported indirectly",
        source: header + "import \"b.gwspec\"\nstruct S {\n    1 p: Point\n}\n",
        expected: ["t.gwspec:4:10: error: type 'Point' is declared in 'c.gwspec', which this file does not import"],
        otherFiles: [
            "b.gwspec": "package b version 1\nimport \"c.gwspec\"\n",
            "c.gwspec": "package c version 1\nstruct Point {\n    1 x: Float64\n}\n",
        ]),
    MalformedCase(
        name: "a duplicate enum case number", source: header + "enum E {\n    0 a\n    0 b\n}\n",
        expected: ["t.gwspec:4:5: error: enum case number 0 is already used by 'a' in 'E'"]),
    MalformedCase(
        name: "an enum without case 0", source: header + "enum E {\n    1 a\n}\n",
        expected: ["t.gwspec:2:1: error: enum 'E' has no case numbered 0"]),
    MalformedCase(
        name: "an enum case with a payload", source: header + "enum E {\n    0 a: Int32\n}\n",
        expected: ["t.gwspec:3:8: error: enum cases have no payload"]),
    MalformedCase(
        name: "a duplicate union case number", source: header + "union U {\n    1 a: Int32\n    1 b\n}\n",
        expected: ["t.gwspec:4:5: error: union case number 1 is already used by 'a' in 'U'"]),
    MalformedCase(
        name: "a union without cases", source: header + "union U {\n}\n",
        expected: ["t.gwspec:2:1: error: union 'U' has no cases"]),
    MalformedCase(
        name: "an optional union payload", source: header + "union U {\n    1 a: Int32?\n}\n",
        expected: ["t.gwspec:3:15: error: union case payloads cannot be optional"]),
    MalformedCase(
        name: "a union case carrying an array", source: header + "union U {\n    1 a: [Int32]\n}\n",
        expected: ["t.gwspec:3:10: error: union case 'U.a' cannot carry an array directly"]),
    MalformedCase(
        name: "a Float64 map key", source: header + "struct S {\n    1 m: [Float64: String]\n}\n",
        expected: ["t.gwspec:3:10: error: map key type 'Float64' is not allowed"]),
    MalformedCase(
        name: "an enum map key", source: header + "enum E {\n    0 a\n}\nstruct S {\n    1 m: [E: String]\n}\n",
        expected: ["t.gwspec:6:10: error: map key type 'E' is not allowed"]),
    MalformedCase(
        name: "an array of arrays", source: header + "struct S {\n    1 m: [[Int32]]\n}\n",
        expected: ["t.gwspec:3:10: error: arrays cannot directly contain arrays ('[[Int32]]')"]),
    MalformedCase(
        name: "a map of arrays", source: header + "struct S {\n    1 m: [String: [Int32]]\n}\n",
        expected: ["t.gwspec:3:10: error: map values cannot be arrays ('[String: [Int32]]')"]),
    MalformedCase(
        name: "an optional array", source: header + "struct S {\n    1 tags: [String]?\n}\n",
        expected: ["t.gwspec:3:13: error: array field 'tags' cannot be optional"]),
    MalformedCase(
        name: "an optional array element", source: header + "struct S {\n    1 tags: [String?]\n}\n",
        expected: ["t.gwspec:3:20: error: array elements and map values cannot be optional"]),
    MalformedCase(
        name: "a field without a number", source: header + "struct S {\n    name: String\n}\n",
        expected: ["t.gwspec:3:5: error: expected a number, found 'name'"]),
    MalformedCase(
        name: "a field without a colon", source: header + "struct S {\n    1 name String\n}\n",
        expected: ["t.gwspec:3:12: error: expected ':' after the field name, found 'String'"]),
    MalformedCase(
        name: "an unterminated string", source: header + "struct S {\n    1 name: String = \"abc\n}\n",
        expected: ["t.gwspec:3:22: error: unterminated string literal"]),
    MalformedCase(
        name: "an unterminated block comment", source: header + "/* never closed\nstruct S {\n}\n",
        expected: ["t.gwspec:2:1: error: unterminated block comment"]),
    MalformedCase(
        name: "an unexpected character", source: header + "struct S {\n    1 a: Int32 $\n}\n",
        expected: ["t.gwspec:3:16: error: unexpected character '$'"]),
    MalformedCase(
        name: "an unknown attribute", source: header + "@frozen\nstruct S {\n}\n",
        expected: ["t.gwspec:2:1: error: unknown attribute '@frozen'"]),
    MalformedCase(
        name: "a struct with a type id", source: header + "struct S @ 3 {\n}\n",
        expected: ["t.gwspec:2:10: error: only messages have type ids; 'struct S' cannot have '@'"]),
    MalformedCase(
        name: "a message without a type id", source: header + "message M {\n}\n",
        expected: ["t.gwspec:2:11: error: message 'M' has no type id"]),
    MalformedCase(
        name: "a missing closing brace", source: header + "struct S {\n    1 a: Int32\nstruct T {\n}\n",
        expected: ["t.gwspec:4:1: error: expected '}' to close the field list before 'struct'"]),
    MalformedCase(
        name: "an empty reserved range", source: header + "struct S {\n    reserved 9...3\n}\n",
        expected: ["t.gwspec:3:14: error: reserved range 9...3 is empty"]),
    MalformedCase(
        name: "a declaration named after a scalar", source: header + "struct String {\n}\n",
        expected: ["t.gwspec:2:1: error: 'String' is a built-in type and cannot be declared"]),
    MalformedCase(
        name: "a package line after a declaration", source: "struct S {\n}\n" + header,
        expected: ["t.gwspec:3:1: error: the package line must come first"]),
    MalformedCase(
        name: "an import after a declaration", source: header + "struct S {\n}\nimport \"b.gwspec\"\n",
        expected: ["t.gwspec:4:1: error: imports must come before declarations"],
        otherFiles: ["b.gwspec": "package b version 1\n"]),
    MalformedCase(
        name: "version zero", source: "package t version 0\n",
        expected: ["t.gwspec:1:19: error: version '0' is out of range; versions are 1...18446744073709551615"]),
    MalformedCase(
        name: "a misspelled declaration keyword", source: header + "strcut S {\n}\n",
        expected: ["t.gwspec:2:1: error: expected a declaration ('message', 'struct', 'enum' or 'union'), found 'strcut'"]),
    MalformedCase(
        name: "a qualified type name", source: header + "struct S {\n    1 p: geo.Point\n}\n",
        expected: [
            "t.gwspec:3:10: error: qualified type names are not supported; write 'Point'",
            "t.gwspec:3:10: error: unknown type 'Point'",
        ]),
    MalformedCase(
        name: "a field named after Hashable's hashValue",
        source: header + "message M @ 1 {\n    1 hashValue: Int32\n}\n",
        expected: ["t.gwspec:3:5: error: field name 'hashValue' in 'M' is a member generated Swift declares"]),
    MalformedCase(
        name: "a field named after the generated wireSize",
        source: header + "struct S {\n    1 wireSize: Int32\n}\n",
        expected: ["t.gwspec:3:5: error: field name 'wireSize' in 'S' is a member generated Swift declares"]),
    MalformedCase(
        name: "an enum case named rawValue",
        source: header + "enum E {\n    0 rawValue\n}\n",
        expected: ["t.gwspec:3:5: error: case name 'rawValue' in 'E' is a member generated Swift declares"]),
    MalformedCase(
        name: "a union case named wireDefault",
        source: header + "union U {\n    1 wireDefault: Int32\n}\n",
        expected: ["t.gwspec:3:5: error: case name 'wireDefault' in 'U' is a member generated Swift declares"]),
    MalformedCase(
        name: "a struct named Date hiding Foundation's",
        source: header + "struct Date {\n}\n",
        expected: ["t.gwspec:2:1: error: type name 'Date' would hide the 'Date' of Foundation that generated Swift uses"]),
    MalformedCase(
        name: "a message named Int hiding the standard library's",
        source: header + "message Int @ 1 {\n}\n",
        expected: [
            "t.gwspec:2:1: error: type name 'Int' would hide the 'Int' of the Swift standard library that generated Swift uses"
        ]),
    MalformedCase(
        name: "an enum named WireError hiding GroupWire's",
        source: header + "enum WireError {\n    0 a\n}\n",
        expected: ["t.gwspec:2:1: error: type name 'WireError' would hide the 'WireError' of GroupWire that generated Swift uses"]
    ),
    MalformedCase(
        name: "a struct named like the generated message set enum",
        source: header + "struct TMessage {\n}\n",
        expected: ["t.gwspec:2:1: error: type name 'TMessage' is the enum generated Swift declares over this file's messages"]),
    MalformedCase(
        name: "a message named Message",
        source: header + "message Message @ 1 {\n}\n",
        expected: ["t.gwspec:2:1: error: message name 'Message' clashes with the member 'message' of the generated 'TMessage'"]),
    MalformedCase(
        name: "a field named Data",
        source: header + "struct S {\n    1 Data: Bytes\n}\n",
        expected: [
            "t.gwspec:3:5: error: field name 'Data' in 'S' would hide the type 'Data' of Foundation that generated Swift uses"
        ]),
    MalformedCase(
        name: "two members on one line", source: header + "struct S {\n    1 a: Int32 2 b: Int32\n}\n",
        expected: ["t.gwspec:3:16: error: expected a new line after the member, found '2'"]),
]

@Suite struct MalformedSpecTests {
    @Test(arguments: malformedCases)
    func aMalformedSpecReportsTheExactMessageAndLocation(_ testCase: MalformedCase) {
        let found = diagnostics(testCase.source, otherFiles: testCase.otherFiles).map(\.description)
        #expect(found == testCase.expected)
    }

    @Test func thereAreAtLeastThirtyMalformedCases() {
        #expect(malformedCases.count >= 30)
        #expect(Set(malformedCases.map(\.name)).count == malformedCases.count)
    }
}
