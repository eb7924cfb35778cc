import GroupWire
import GroupWireSpec

/// Where each part of a schema table stood in the hello body, so that the rules the spec
/// checker applies point at byte offsets.
struct SchemaOffsets {
    var entry: [Int] = []
    var fields: [[Int]] = []
    var defaults: [[Int]] = []
    var cases: [[Int]] = []
    var fingerprints: [Int] = []
    var specFingerprint = 0

    /// Every offset 0: for a table built from a spec rather than read.
    static func zero(for entries: [SchemaEntry]) -> SchemaOffsets {
        SchemaOffsets(
            entry: entries.map { _ in 0 }, fields: entries.map { $0.fields.map { _ in 0 } },
            defaults: entries.map { $0.fields.map { _ in 0 } }, cases: entries.map { $0.cases.map { _ in 0 } },
            fingerprints: entries.map { _ in 0 })
    }
}

/// Schema tables to spec models and back: a table becomes two in-memory spec files (the
/// entry and its imports) checked by `SpecCompiler.check(files:)`, the very rules a spec
/// file passes, so the model the compatibility checker takes is built the one way models are.
enum SchemaModel {
    static let entryPath = "hello.gwspec"
    static let importsPath = "hello-imports.gwspec"

    /// A source location that carries a body offset: line 1, column offset + 1.
    static func location(_ offset: Int, file: String = entryPath) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: offset + 1)
    }

    /// The checked model of `entries`.
    /// - Throws: `invalidSchema` at the offset of the first rule broken.
    static func build(package: String, version: UInt64, entries: [SchemaEntry], offsets: SchemaOffsets) throws(WireError)
        -> SpecSet
    {
        var entryDeclarations: [TypeDecl] = []
        var importedDeclarations: [TypeDecl] = []
        for (index, entry) in entries.enumerated() {
            let file = entry.isImported ? importsPath : entryPath
            let at = location(offsets.entry[index], file: file)
            let reserved =
                entry.reservedNumbers.isEmpty && entry.reservedNames.isEmpty
                ? [] : [ReservedDecl(numberRanges: entry.reservedNumbers, names: entry.reservedNames, location: at)]
            let fields = entry.fields.enumerated().map { number, field in
                FieldDecl(
                    number: field.number, name: field.name, type: field.type, isOptional: field.isOptional,
                    defaultLiteral: field.defaultValue.map {
                        literal($0, at: location(offsets.defaults[index][number], file: file))
                    },
                    location: location(offsets.fields[index][number], file: file),
                    typeLocation: location(offsets.fields[index][number], file: file))
            }
            let declaration: TypeDecl
            switch entry.kind {
            case .message:
                declaration = .message(
                    MessageDecl(
                        name: entry.name, typeID: entry.typeID, fields: fields, reserved: reserved,
                        location: at, typeIDLocation: at))
            case .struct:
                declaration = .struct(StructDecl(name: entry.name, fields: fields, reserved: reserved, location: at))
            case .enum:
                declaration = .enum(
                    EnumDecl(
                        name: entry.name,
                        cases: entry.cases.enumerated().map { number, item in
                            EnumCaseDecl(
                                number: item.number, name: item.name, location: location(offsets.cases[index][number], file: file)
                            )
                        },
                        reserved: reserved, location: at))
            case .union:
                declaration = .union(
                    UnionDecl(
                        name: entry.name,
                        cases: entry.cases.enumerated().map { number, item in
                            let caseAt = location(offsets.cases[index][number], file: file)
                            return UnionCaseDecl(
                                number: item.number, name: item.name, payload: item.payload, location: caseAt,
                                payloadLocation: caseAt)
                        },
                        reserved: reserved, location: at))
            }
            if entry.isImported { importedDeclarations.append(declaration) } else { entryDeclarations.append(declaration) }
        }
        let origin = location(0)
        var files = [
            SpecFile(
                path: entryPath, package: PackageDecl(name: package, version: version, location: origin),
                imports: importedDeclarations.isEmpty
                    ? [] : [ImportDecl(path: importsPath, resolvedPath: importsPath, location: origin, pathLocation: origin)],
                declarations: entryDeclarations)
        ]
        if !importedDeclarations.isEmpty {
            files.append(SpecFile(path: importsPath, package: nil, imports: [], declarations: importedDeclarations))
        }
        let compilation = SpecCompiler().check(files: files)
        if let first = compilation.errors.min(by: { $0.location.column < $1.location.column }) {
            throw WireError(
                .invalidSchema, offset: first.location.column - 1, "the schema table is not a valid spec: \(first.message)")
        }
        return compilation.spec
    }

    /// The literal a spec file would spell `value` with.
    private static func literal(_ value: DefaultValue, at location: SourceLocation) -> Literal {
        switch value {
        case .bool(let flag): Literal(kind: .bool(flag), text: String(flag), location: location)
        case .signed(let number):
            Literal(kind: .integer(negative: number < 0, magnitude: number.magnitude), text: String(number), location: location)
        case .unsigned(let number):
            Literal(kind: .integer(negative: false, magnitude: number), text: String(number), location: location)
        case .float(let number): Literal(kind: .float(number), text: String(number), location: location)
        case .string(let text): Literal(kind: .string(text), text: "\"\(text)\"", location: location)
        case .enumCase(let name, _): Literal(kind: .identifier(name), text: name, location: location)
        }
    }

    /// The table of `spec`: the declarations named, sorted by their names' UTF-8 bytes, each
    /// with its fields and cases by number, canonical defaults and reservations.
    static func entries(of spec: SpecSet, names: Set<String>) -> [SchemaEntry] {
        let entryPath = spec.entry?.path
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { name in
            guard let declaration = spec.declaration(named: name) else { return nil }
            var entry = SchemaEntry(name: name, kind: .struct, isImported: spec.file(declaring: name)?.path != entryPath)
            let reserved = declaration.reserved
            entry.reservedNumbers = Array(Set(reserved.flatMap(\.numberRanges)))
                .sorted { ($0.lowerBound, $0.upperBound) < ($1.lowerBound, $1.upperBound) }
            entry.reservedNames = Array(Set(reserved.flatMap(\.names))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            switch declaration {
            case .message(let message):
                entry.kind = .message
                entry.typeID = message.typeID
                entry.fingerprint = spec.fingerprint(ofMessage: name)
            case .struct: entry.kind = .struct
            case .enum(let decl):
                entry.kind = .enum
                entry.cases = decl.casesByNumber.map { SchemaCase(number: $0.number, name: $0.name) }
            case .union(let decl):
                entry.kind = .union
                entry.cases = decl.casesByNumber.map { SchemaCase(number: $0.number, name: $0.name, payload: $0.payload) }
            }
            entry.fields = declaration.fields.sorted { $0.number < $1.number }.map { field in
                SchemaField(
                    number: field.number, name: field.name, type: field.type, isOptional: field.isOptional,
                    defaultValue: field.defaultValue.flatMap { isZero($0, type: field.type) ? nil : $0 })
            }
            return entry
        }
    }

    /// Whether a default equals its type's zero value (the canonical form omits it).
    static func isZero(_ value: DefaultValue, type: TypeRef) -> Bool {
        switch value {
        case .bool(let flag): !flag
        case .signed(let number): number == 0
        case .unsigned(let number): number == 0
        case .float(let number): type.scalar == .float32 ? Float(number).bitPattern == 0 : number.bitPattern == 0
        case .string(let text): text.isEmpty
        case .enumCase(_, let number): number == 0
        }
    }
}
