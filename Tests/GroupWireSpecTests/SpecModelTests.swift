import GroupWireSpec
import Testing

@Suite struct SpecModelTests {
    @Test func everyExampleSpecCompilesWithoutDiagnostics() throws {
        for name in [
            "DrawTogether.gwspec", "WatchTogether.gwspec", "Common.gwspec",
            "Versions/DrawTogether-v2.gwspec", "Versions/DrawTogether-v3.gwspec",
        ] {
            let compilation = try Examples.compile(name)
            #expect(compilation.diagnostics.isEmpty, "\(name): \(compilation.renderedDiagnostics)")
        }
    }

    @Test func drawTogetherDeclaresTheReferenceShapes() throws {
        let spec = try Examples.spec("DrawTogether.gwspec")
        #expect(spec.package?.name == "draw.together")
        #expect(spec.package?.version == 1)
        #expect(spec.messages.map { "\($0.typeID) \($0.name)" } == ["1 UpsertStroke", "2 CanvasSnapshot"])
        guard case .message(let upsert)? = spec.declaration(named: "UpsertStroke") else {
            Issue.record("UpsertStroke is not a message")
            return
        }
        #expect(
            upsert.fields.map { "\($0.number) \($0.name): \($0.type)" } == [
                "1 id: UUID", "2 color: StrokeColor", "3 point: Point",
            ])
        guard case .struct(let point)? = spec.declaration(named: "Point") else {
            Issue.record("Point is not a struct")
            return
        }
        #expect(point.fields.map(\.type) == [.scalar(.float64), .scalar(.float64)])
        #expect(point.fields.first?.documentation == "Horizontal coordinate.")
        guard case .message(let snapshot)? = spec.declaration(named: "CanvasSnapshot") else {
            Issue.record("CanvasSnapshot is not a message")
            return
        }
        #expect(snapshot.fields.map(\.type) == [.array(.named("Stroke")), .scalar(.uint64)])
        #expect(spec.wireType(of: .named("StrokeColor")) == .varint)
        #expect(spec.isPacked(.named("StrokeColor")))
        #expect(!spec.isPacked(.named("Stroke")))
    }

    @Test func watchTogetherUsesAnImportedStructAUnionAMapAndDefaults() throws {
        let spec = try Examples.spec("WatchTogether.gwspec")
        #expect(
            spec.files.map { $0.path.split(separator: "/").last.map(String.init) ?? "" } == [
                "WatchTogether.gwspec", "Common.gwspec",
            ])
        #expect(spec.file(declaring: "ParticipantRef")?.package?.name == "groupwire.examples.common")
        guard case .message(let state)? = spec.declaration(named: "PlaybackState") else {
            Issue.record("PlaybackState is not a message")
            return
        }
        #expect(state.typeID == 10)
        #expect(state.field(named: "rate")?.defaultValue == .float(1))
        #expect(state.field(named: "audioLanguage")?.defaultValue == .string("en"))
        #expect(state.field(named: "previousStateID")?.isOptional == true)
        #expect(state.field(named: "metadata")?.type == .map(key: .scalar(.string), value: .scalar(.string)))
        let uuidCount =
            state.fields.filter { $0.type == .scalar(.uuid) }.count
            + spec.closure(of: "PlaybackState").compactMap { name -> Int? in
                guard case .struct(let decl)? = spec.declaration(named: name) else { return nil }
                return decl.fields.filter { $0.type == .scalar(.uuid) }.count
            }.reduce(0, +)
        #expect(uuidCount == 6)
        guard case .union(let source)? = spec.declaration(named: "MediaSource") else {
            Issue.record("MediaSource is not a union")
            return
        }
        #expect(
            source.cases.map { "\($0.number) \($0.name) \($0.payload.map { "\($0)" } ?? "-")" }
                == ["1 catalog CatalogItem", "2 url String", "3 local -"])
    }

    @Test func docsDeprecationReservedAndDefaultsLandInTheModel() throws {
        let spec = try validSpec(
            """
            /// File docs.
            package demo.app version 4

            /// A colour.
            @deprecated("use Paint")
            enum Color {
                0 none
                /// Bright.
                @deprecated
                1 red
                reserved 2...4, "green"
            }

            message M @ 0x10 {
                1 flag: Bool = true
                2 small: Int8 = -128
                3 big: UInt64 = 18446744073709551615
                4 ratio: Float32 = -0.5
                5 name: String = "a\\"b\\u{e9}"
                6 color: Color = red
                @deprecated("gone soon") 7 old: Int32
                8 scores: [UUID: Int64]
                9 when: Timestamp?
                reserved 10, 20...30; reserved "x"
            }
            """)
        #expect(spec.package?.documentation == "File docs.")
        guard case .enum(let color)? = spec.declaration(named: "Color"),
            case .message(let message)? = spec.declaration(named: "M")
        else {
            Issue.record("declarations missing")
            return
        }
        #expect(color.documentation == "A colour.")
        #expect(color.deprecation?.message == "use Paint")
        #expect(color.cases[1].documentation == "Bright.")
        #expect(color.cases[1].deprecation != nil && color.cases[1].deprecation?.message == nil)
        #expect(color.reserved.first?.numberRanges == [2...4])
        #expect(color.reserved.first?.names == ["green"])
        #expect(message.typeID == 16)
        #expect(
            message.fields.map(\.defaultValue) == [
                .bool(true), .signed(-128), .unsigned(UInt64.max), .float(-0.5), .string("a\"b\u{e9}"),
                .enumCase(name: "red", number: 1), nil, nil, nil,
            ])
        #expect(message.fields[6].deprecation?.message == "gone soon")
        #expect(message.reserved.map(\.numberRanges) == [[10...10, 20...30], []])
        #expect(message.reserved.reserves(name: "x"))
        #expect(message.reserved.reserves(number: 25))
        #expect(!message.reserved.reserves(number: 31))
    }

    @Test func aStrayCharacterDoesNotDetachTheDocsOfTheNextDeclaration() throws {
        let compilation = SpecCompiler().compile(source: "package t version 1\n/// Docs.\n$ struct S {\n}\n", path: "t.gwspec")
        #expect(compilation.diagnostics.map(\.description) == ["t.gwspec:3:1: error: unexpected character '$'"])
        #expect(compilation.spec.declaration(named: "S")?.documentation == "Docs.")
    }

    @Test func recursionThroughArraysAndMapsIsAllowed() throws {
        let spec = try validSpec(
            """
            package t version 1
            struct Node {
                1 children: [Node]
                2 byName: [String: Node]
            }
            """)
        #expect(spec.closure(of: "Node") == ["Node"])
    }

    @Test func importsResolveRelativeToTheImportingFile() throws {
        let spec = try validSpec(
            "package app version 1\nimport \"shared/geo.gwspec\"\nmessage M @ 1 {\n    1 p: Point\n}\n",
            path: "specs/app.gwspec",
            otherFiles: [
                "specs/shared/geo.gwspec":
                    "package geo version 1\nimport \"../units.gwspec\"\nstruct Point {\n    1 x: Meters\n}\n",
                "specs/units.gwspec": "package units version 1\nstruct Meters {\n    1 value: Float64\n}\n",
            ])
        #expect(spec.files.map(\.path) == ["specs/app.gwspec", "specs/shared/geo.gwspec", "specs/units.gwspec"])
        #expect(spec.files[0].imports.first?.resolvedPath == "specs/shared/geo.gwspec")
        #expect(spec.closure(of: "M") == ["M", "Meters", "Point"])
    }

    @Test func pathsNormalizeDotSegments() {
        #expect(SpecPath.resolve("../b.gwspec", from: "x/y/a.gwspec") == "x/b.gwspec")
        #expect(SpecPath.resolve("./b.gwspec", from: "a.gwspec") == "b.gwspec")
        #expect(SpecPath.resolve("/abs/b.gwspec", from: "x/a.gwspec") == "/abs/b.gwspec")
        #expect(SpecPath.resolve("c.gwspec", from: "/root/a.gwspec") == "/root/c.gwspec")
        #expect(SpecPath.normalize("a//b/./c/../d") == "a/b/d")
    }

    @Test func scalarTypesMapToTheContractWireTypes() {
        let expected: [ScalarType: FieldWireType] = [
            .bool: .varint, .int8: .varint, .int64: .varint, .uint8: .varint, .uint64: .varint,
            .float32: .fixed32, .float64: .fixed64, .timestamp: .fixed64, .fixed32: .fixed32, .fixed64: .fixed64, .string: .len,
            .bytes: .len, .uuid: .len,
        ]
        for (scalar, wireType) in expected {
            #expect(scalar.wireType == wireType, "\(scalar)")
        }
        #expect(FieldWireType.allCases.map(\.rawValue) == [0, 1, 2, 5])
        #expect(
            ScalarType.allCases.filter(\.isValidMapKey).map(\.rawValue)
                == [
                    "Bool", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "String", "UUID", "Fixed32",
                    "Fixed64",
                ])
    }
}
