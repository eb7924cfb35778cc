import GroupWireSpec
import Testing

@Suite struct FingerprintTests {
    private let base = """
        package t version 1

        /// A point.
        struct Point {
            1 x: Float64
            2 y: Float64
        }

        enum Color {
            0 black
            1 red
        }

        message Move @ 3 {
            1 id: UUID
            2 to: Point
            3 color: Color = red
            4 speed: Float32 = 1.5
            5 label: String?
        }
        """

    @Test func fnv1a64MatchesThePublishedTestVectors() {
        #expect(Fingerprint(of: "").value == 0xcbf2_9ce4_8422_2325)
        #expect(Fingerprint(of: "a").value == 0xaf63_dc4c_8601_ec8c)
        #expect(Fingerprint(of: "foobar").value == 0x8594_4171_f739_67e8)
        #expect(Fingerprint(value: 0xab).description == "00000000000000ab")
    }

    @Test func theWorkedExampleInLanguageMdHasThisCanonicalTextAndFingerprint() throws {
        let spec = try validSpec(base)
        #expect(
            spec.canonicalText(ofMessage: "Move") == """
                enum Color
                case 0 black
                case 1 red
                end
                message Move 3
                field 1 id UUID
                field 2 to Point
                field 3 color Color = 1
                field 4 speed Float32 = 0x3FC00000
                field 5 label String?
                end
                struct Point
                field 1 x Float64
                field 2 y Float64
                end

                """)
        #expect(spec.fingerprint(ofMessage: "Move")?.description == "30655ab58f82556c")
        #expect(spec.canonicalText.hasPrefix("package t 1\nenum Color\n"))
        #expect(spec.fingerprint.description == "38c388abd819bf61")
    }

    @Test func commentsDocsDeprecationReservedOrderAndFormattingDoNotChangeFingerprints() throws {
        let original = try validSpec(base)
        let edited = try validSpec(
            """
            // a comment
            package t version 1
            message Move @ 3 {
                /// New docs.
                @deprecated("whatever") 5 label: String?   // trailing
                4 speed: Float32 = 1.50
                3 color: Color = red; 2 to: Point
                1 id: UUID
                reserved 9, "gone"
            }
            enum Color { 1 red
                0 black }
            /* block
               comment */
            struct Point { 2 y: Float64
            1 x: Float64 = 0 }
            """)
        #expect(edited.fingerprint(ofMessage: "Move") == original.fingerprint(ofMessage: "Move"))
        #expect(edited.fingerprint == original.fingerprint)
    }

    @Test(arguments: [
        ("a renamed field", "1 id: UUID", "1 ident: UUID"),
        ("a renumbered field", "5 label: String?", "6 label: String?"),
        ("a changed type", "1 x: Float64", "1 x: Float32"),
        ("a changed default", "speed: Float32 = 1.5", "speed: Float32 = 2"),
        ("a changed type id", "message Move @ 3", "message Move @ 4"),
        ("a field made required", "5 label: String?", "5 label: String"),
        ("a new enum case", "1 red\n", "1 red\n    2 blue\n"),
    ])
    func wireRelevantEditsChangeTheMessageFingerprint(_ name: String, _ from: String, _ to: String) throws {
        let original = try validSpec(base)
        let editedSource = base.replacingOccurrences(of: from, with: to)
        #expect(editedSource != base, "edit \(name) did not apply")
        let edited = try validSpec(editedSource)
        #expect(edited.fingerprint(ofMessage: "Move") != original.fingerprint(ofMessage: "Move"))
    }

    @Test func aMessageFingerprintIgnoresDeclarationsItDoesNotUse() throws {
        let original = try validSpec(base)
        let extended = try validSpec(base + "\nstruct Unused {\n    1 a: Int32\n}\n")
        #expect(extended.fingerprint(ofMessage: "Move") == original.fingerprint(ofMessage: "Move"))
        #expect(extended.fingerprint != original.fingerprint)
    }

    @Test func theSpecFingerprintCoversThePackageNameAndVersion() throws {
        let original = try validSpec(base)
        let bumped = try validSpec(base.replacingOccurrences(of: "version 1", with: "version 2"))
        #expect(bumped.fingerprint != original.fingerprint)
        #expect(bumped.fingerprint(ofMessage: "Move") == original.fingerprint(ofMessage: "Move"))
    }

    @Test func stringDefaultsAreEscapedInTheCanonicalForm() throws {
        let spec = try validSpec("package t version 1\nmessage M @ 1 {\n    1 s: String = \"q\\\"\\\\\\n\\u{7f}é\"\n}\n")
        #expect(spec.canonicalBlock(of: "M") == "message M 1\nfield 1 s String = \"q\\\"\\\\\\u{a}\\u{7f}é\"\nend\n")
    }

    @Test func theExampleFingerprintsAreStable() throws {
        #expect(
            try Examples.spec("DrawTogether.gwspec").fingerprint(ofMessage: "UpsertStroke")?.description == "ca437cd6d797f1ef")
        #expect(try Examples.spec("DrawTogether.gwspec").fingerprint.description == "91005ed7f5603ca2")
    }
}
