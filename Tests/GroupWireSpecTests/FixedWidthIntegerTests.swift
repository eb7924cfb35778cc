import GroupWireSpec
import Testing

/// `Fixed32` and `Fixed64`: unsigned integers of fixed width (Spec/LANGUAGE.md, "Scalar
/// types"), in the model, the checker, the canonical form and the compatibility rules.
@Suite struct FixedWidthIntegerTests {
    private static let source = """
        package t version 1
        message M @ 1 {
            1 digest: Fixed64
            2 tag: Fixed32 = 4294967295
            3 seed: Fixed64 = 18446744073709551615
            4 byHash: [Fixed64: String]
            5 tags: [Fixed32]
            6 maybe: Fixed64?
        }
        """

    @Test func theyAreUnsignedIntegersOfTheirFixedWireTypes() {
        #expect(ScalarType.fixed32.wireType == .fixed32)
        #expect(ScalarType.fixed64.wireType == .fixed64)
        #expect(ScalarType.fixed32.isInteger && !ScalarType.fixed32.isSignedInteger)
        #expect(ScalarType.fixed64.integerRange?.min == 0 && ScalarType.fixed64.integerRange?.max == UInt64.max)
        #expect(ScalarType.fixed32.integerRange?.max == UInt64(UInt32.max))
        #expect(ScalarType.fixed32.bitWidth == 32 && ScalarType.fixed64.bitWidth == 64)
        #expect(ScalarType.fixed32.isPackable && ScalarType.fixed64.isValidMapKey && ScalarType.fixed64.acceptsDefault)
    }

    @Test func fieldsDefaultsMapKeysAndArraysLandInTheModelAndTheCanonicalText() throws {
        let spec = try validSpec(Self.source)
        guard case .message(let message)? = spec.declaration(named: "M") else {
            Issue.record("M is not a message")
            return
        }
        #expect(
            message.fields.map(\.type) == [
                .scalar(.fixed64), .scalar(.fixed32), .scalar(.fixed64), .map(key: .scalar(.fixed64), value: .scalar(.string)),
                .array(.scalar(.fixed32)), .scalar(.fixed64),
            ])
        #expect(message.field(named: "tag")?.defaultValue == .unsigned(4_294_967_295))
        #expect(message.field(named: "seed")?.defaultValue == .unsigned(UInt64.max))
        #expect(spec.isPacked(.scalar(.fixed32)))
        #expect(
            spec.canonicalBlock(of: "M") == """
                message M 1
                field 1 digest Fixed64
                field 2 tag Fixed32 = 4294967295
                field 3 seed Fixed64 = 18446744073709551615
                field 4 byHash [Fixed64:String]
                field 5 tags [Fixed32]
                field 6 maybe Fixed64?
                end

                """)
    }

    @Test func aDefaultOutsideTheRangeOrOfAnotherKindIsAnError() {
        let tooBig = diagnostics("package t version 1\nstruct S {\n    1 tag: Fixed32 = 4294967296\n}\n")
        #expect(tooBig.map(\.message) == ["default value 4294967296 is out of range for Fixed32 (0...4294967295)"])
        #expect(tooBig.first?.location.line == 3)
        let negative = diagnostics("package t version 1\nstruct S {\n    1 tag: Fixed64 = -1\n}\n")
        #expect(negative.map(\.message) == ["default value -1 is out of range for Fixed64 (0...18446744073709551615)"])
        let text = diagnostics("package t version 1\nstruct S {\n    1 tag: Fixed64 = \"x\"\n}\n")
        #expect(text.map(\.message) == ["default value \"x\" does not match type Fixed64"])
    }

    @Test func aDeclarationMayNotTakeTheirNames() {
        let found = diagnostics("package t version 1\nstruct Fixed64 {\n    1 a: Int32\n}\n")
        #expect(found.count == 1)
        #expect(found.first?.message.contains("Fixed64") == true)
        #expect(found.first?.location.line == 2)
    }

    @Test func changingToOrFromAFixedIntegerIsAWireTypeChangeNotAWidening() throws {
        func rules(_ from: String, _ to: String) throws -> [String] {
            let old = "package t version 1\nmessage M @ 1 {\n    1 v: \(from)\n}\n"
            let new = "package t version 2\nmessage M @ 1 {\n    1 v: \(to)\n}\n"
            return CompatibilityChecker.compare(
                old: try validSpec(old, path: "old.gwspec"), new: try validSpec(new, path: "new.gwspec")
            ).changes.map { "\($0.rule.id) \($0.path)" }
        }
        #expect(try rules("UInt64", "Fixed64") == ["GW004 M.v"])
        #expect(try rules("Fixed32", "Fixed64") == ["GW004 M.v"])
        #expect(try rules("Fixed32", "UInt32") == ["GW004 M.v"])
        #expect(try rules("Fixed64", "Float64") == ["GW005 M.v"])
        #expect(try rules("Fixed32", "Float32") == ["GW005 M.v"])
        #expect(try rules("UInt32", "UInt64") == ["GW006 M.v"])
    }
}
