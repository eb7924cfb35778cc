import GroupWireSpec
import Testing

@Suite struct DiagnosticRenderingTests {
    @Test func aDiagnosticIsPrintedWithItsSourceLineACaretAndItsHint() {
        let source = "package t version 1\nstruct Point {\n    1 x: Float64\n}\nstruct S {\n    1 p: Pont\n}\n"
        let compilation = SpecCompiler().compile(source: source, path: "t.gwspec")
        #expect(
            compilation.renderedDiagnostics == """
                t.gwspec:6:10: error: unknown type 'Pont'
                    1 p: Pont
                         ^
                t.gwspec:6:10: note: did you mean 'Point'?

                """)
    }

    @Test func aDuplicateNotesWhereTheFirstDeclarationIs() {
        let source = "package t version 1\nmessage A @ 7 {\n}\nmessage B @ 7 {\n}\n"
        let compilation = SpecCompiler().compile(source: source, path: "t.gwspec")
        #expect(
            compilation.renderedDiagnostics == """
                t.gwspec:4:13: error: duplicate type id 7: 'B' and 'A'
                message B @ 7 {
                            ^
                t.gwspec:4:13: note: every message needs its own type id; the next free one is 8
                t.gwspec:2:13: note: 'A' uses type id 7 here

                """)
    }

    @Test func aDuplicateFieldNumberSuggestsANumberNoFieldUses() throws {
        let found = diagnostics(
            "package t version 1\nstruct S {\n    1 a: Int32\n    1 b: Int32\n    2 c: Int32\n    reserved 3\n}\n")
        #expect(found.map(\.description) == ["t.gwspec:4:5: error: field number 1 is already used by 'a' in 'S'"])
        #expect(found.first?.hint == "use an unused number, such as 4")
    }

    @Test func theCaretKeepsTabsSoItLinesUpWithTheSource() {
        let diagnostic = Diagnostic.error("bad", at: SourceLocation(file: "f", line: 1, column: 4))
        #expect(diagnostic.rendered(sourceLine: "\t\tx y") == "f:1:4: error: bad\n\t\tx y\n\t\t ^")
    }

    @Test func aFieldWrittenNameFirstGetsAHintToPutTheNumberFirst() throws {
        let found = diagnostics("package t version 1\nstruct S {\n    name: String\n}\n")
        let first = try #require(found.first)
        #expect(first.hint == "field numbers come first: write '1 name: ...'")
    }

    @Test func everyProblemInAFileIsReportedInOneRun() {
        let source = """
            package t version 1
            struct S {
                x: Int32
                2 y Int32
                3 z: [Int32
                4 ok: Colour
            }
            strcut T {
            }
            message M {
                1 a: Int32
                1 b: Int32
            }
            enum E {
                1 a
            }
            """
        let found = diagnostics(source).map(\.description)
        #expect(
            found == [
                "t.gwspec:3:5: error: expected a number, found 'x'",
                "t.gwspec:4:9: error: expected ':' after the field name, found 'Int32'",
                "t.gwspec:6:5: error: expected ']' to close the array type, found '4'",
                "t.gwspec:6:11: error: unknown type 'Colour'",
                "t.gwspec:8:1: error: expected a declaration ('message', 'struct', 'enum' or 'union'), found 'strcut'",
                "t.gwspec:10:11: error: message 'M' has no type id",
                "t.gwspec:14:1: error: enum 'E' has no case numbered 0",
            ])
    }

    @Test func warningsDoNotMakeASpecInvalid() throws {
        let compilation = SpecCompiler().compile(
            source: "package t version 1\nimport \"b.gwspec\"\nimport \"b.gwspec\"\n",
            path: "t.gwspec", otherFiles: ["b.gwspec": "package b version 1\n"])
        #expect(compilation.diagnostics.map(\.description) == ["t.gwspec:3:1: warning: duplicate import of 'b.gwspec'"])
        #expect(!compilation.hasErrors)
        _ = try compilation.checkedSpec()
    }

    @Test func checkedSpecThrowsAnInvalidSpecErrorListingTheErrors() {
        let compilation = SpecCompiler().compile(source: "package t version 1\nstruct S {\n 1 a: Nope\n}\n", path: "t.gwspec")
        do {
            _ = try compilation.checkedSpec()
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .invalidSpec)
            #expect(error.diagnostics.map(\.message) == ["unknown type 'Nope'"])
            #expect(error.description == "t.gwspec:3:7: error: the spec has 1 error")
        }
    }

    @Test func aMissingEntryFileIsTheOneFatalError() {
        do {
            _ = try SpecCompiler().compile(entry: "missing.gwspec", loader: InMemorySpecLoader(files: [:]))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unreadable)
            #expect(error.context == "cannot find spec file 'missing.gwspec'")
        }
    }

    @Test func tooManyFilesIsALimitError() {
        var files: [String: String] = [:]
        for index in 0..<5 { files["f\(index).gwspec"] = "package f version 1\nimport \"f\(index + 1).gwspec\"\n" }
        files["f5.gwspec"] = "package f version 1\n"
        let compiler = SpecCompiler(limits: SpecLimits(maxFiles: 3))
        #expect(throws: SpecError.self) {
            _ = try compiler.compile(entry: "f0.gwspec", loader: InMemorySpecLoader(files: files))
        }
    }
}
