import Foundation
import GroupWireCodegen
import GroupWireSpec
import Testing

/// The checker's table of names generated code reserves (``GeneratedSwiftNames``) covers
/// everything the generator writes: every member a generated type declares beyond the spec's
/// own names, and every type the generated code names beyond the spec's own types.
@Suite("Generated Swift names")
struct GeneratedSwiftNamesTests {
    /// The generated files of every golden spec, with comments and string literals removed.
    static func generatedCode() throws -> [(spec: SpecSet, code: String)] {
        try GoldenFileTests.goldens.map { golden in
            let path = GoldenFileTests.packageRoot.appendingPathComponent(golden.spec).path
            let spec = try SpecCompiler().compile(entry: path, loader: FileSpecLoader()).checkedSpec()
            let code = CodeGenerator().generate(spec).map(\.contents).joined(separator: "\n")
            return (spec, strippingCommentsAndStrings(code))
        }
    }

    static func strippingCommentsAndStrings(_ code: String) -> String {
        code.replacing(/\/\/[^\n]*/, with: "").replacing(/"(\\.|[^"\\\n])*"/, with: "\"\"")
    }

    /// The spec's own member names: fields, cases, deprecated fields' `_` storage.
    static func specMemberNames(_ spec: SpecSet) -> Set<String> {
        var names: Set<String> = []
        for decl in spec.declarations {
            switch decl {
            case .message(let message):
                names.formUnion(message.fields.flatMap { [$0.name, "_" + $0.name] })
                // Its case in the file's message set enum.
                names.insert(message.name.prefix(1).lowercased() + message.name.dropFirst())
            case .struct(let value): names.formUnion(value.fields.flatMap { [$0.name, "_" + $0.name] })
            case .enum(let value): names.formUnion(value.cases.map(\.name))
            case .union(let value): names.formUnion(value.cases.map(\.name))
            }
        }
        return names
    }

    @Test("Every member a generated type declares is the spec's or in the reserved table")
    func everyGeneratedMemberIsReserved() throws {
        // Renamed by the generator when a spec name takes them, so never reserved.
        let renamedOnClash: Set<String> = ["unknownFields", "wireUnknownFields", "unknown", "unknownValue"]
        var found: Set<String> = []
        for (spec, code) in try Self.generatedCode() {
            let own = Self.specMemberNames(spec)
            // Type-level declarations sit at four spaces of indentation in the generated files.
            let declared = code.matches(
                of:
                    /\n    (?:@\w+(?:\([^)\n]*\))? )*(?:public |private |internal |fileprivate )?(?:static |mutating |indirect )*(?:let|var|func|enum|struct|typealias|case|init)\s*`?(\w*)/
            )
            for match in declared {
                let name = String(match.output.1)
                found.insert(name)
                guard !name.isEmpty, !own.contains(name), !renamedOnClash.contains(name) else { continue }
                #expect(
                    GeneratedSwiftNames.members.union(GeneratedSwiftNames.messageSetMembers).contains(name),
                    "generated member '\(name)' is not reserved")
            }
        }
        // The scan saw the generated protocol members, or it would prove nothing.
        #expect(found.isSuperset(of: ["wireSize", "wirePayload", "encodeWire", "hash", "CodingKeys", "wireTypeID", "rawValue"]))
    }

    @Test("Every type the generated code names is the spec's or in the reserved table")
    func everyNamedTypeIsReserved() throws {
        var seen: Set<String> = []
        for (spec, code) in try Self.generatedCode() {
            let setNames = spec.files.map { GeneratedSwiftNames.messageSetName(package: $0.package?.name, path: $0.path) }
            let own = Set(spec.declarations.map(\.name)).union(GeneratedSwiftNames.nestedTypes).union(setNames)
            // Capitalised identifiers, and the underscored support types generated code
            // calls, not reached through a dot (those cannot be hidden).
            for match in code.matches(of: /(?:^|[^.\w])(_?[A-Z]\w*)/) {
                let name = String(match.output.1)
                seen.insert(name)
                guard !own.contains(name) else { continue }
                #expect(GeneratedSwiftNames.typeOrigin(of: name) != nil, "generated code names '\(name)', which is not reserved")
            }
        }
        #expect(seen.isSuperset(of: ["Date", "UUID", "String", "_WireTimestamp", "PayloadReader", "Hasher"]))
    }

    @Test("The checker's diagnostic names the clash and suggests a name")
    func diagnosticHasAFixHint() throws {
        let compilation = SpecCompiler().compile(
            source: "package t version 1\nstruct Stroke {\n    1 wireSize: Int32\n}\n",
            path: "t.gwspec", otherFiles: [:])
        let rendered = compilation.diagnostics.map(\.description).joined(separator: "\n")
        #expect(rendered.contains("t.gwspec:3:5: error: field name 'wireSize' in 'Stroke' is a member generated Swift declares"))
        let hints = compilation.diagnostics.compactMap(\.hint)
        #expect(hints.contains { $0.contains("'strokeWireSize'") })
    }
}
