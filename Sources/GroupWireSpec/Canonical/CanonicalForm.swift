import GroupWireJSON

/// The canonical text of declarations, messages and whole specs, from which fingerprints
/// are computed. The exact format is specified in Spec/LANGUAGE.md ("Canonical form").
///
/// It keeps what changes bytes or decoded values (names, numbers, types, optionality,
/// non-zero defaults, type ids) and drops the rest (comments, docs, deprecation, reserved
/// lines, source order of members and declarations, formatting).
enum CanonicalForm {
    /// One declaration's block, ending with `end\n`.
    static func block(_ decl: TypeDecl, in spec: SpecSet) -> String {
        var text = ""
        switch decl {
        case .message(let message):
            text += "message \(message.name) \(message.typeID)\n"
            for field in message.fieldsByNumber { text += fieldLine(field, in: spec) }
        case .struct(let structDecl):
            text += "struct \(structDecl.name)\n"
            for field in structDecl.fieldsByNumber { text += fieldLine(field, in: spec) }
        case .enum(let enumDecl):
            text += "enum \(enumDecl.name)\n"
            for item in enumDecl.casesByNumber { text += "case \(item.number) \(item.name)\n" }
        case .union(let union):
            text += "union \(union.name)\n"
            for item in union.casesByNumber {
                text += "case \(item.number) \(item.name)" + (item.payload.map { " " + typeText($0) } ?? "") + "\n"
            }
        }
        return text + "end\n"
    }

    /// `[T]`, `[K:V]` (no spaces), scalar or declared names.
    static func typeText(_ type: TypeRef) -> String {
        switch type {
        case .scalar(let scalar): scalar.rawValue
        case .named(let name): name
        case .array(let element): "[\(typeText(element))]"
        case .map(let key, let value): "[\(typeText(key)):\(typeText(value))]"
        }
    }

    static func fieldLine(_ field: FieldDecl, in spec: SpecSet) -> String {
        var line = "field \(field.number) \(field.name) \(typeText(field.type))"
        if field.isOptional { line += "?" }
        if let value = field.defaultValue, let text = defaultText(value, type: field.type) {
            line += " = " + text
        }
        return line + "\n"
    }

    /// The canonical spelling of a default, or `nil` when it equals the type's zero value
    /// (so `= 0` and no default have the same canonical form).
    static func defaultText(_ value: DefaultValue, type: TypeRef) -> String? {
        switch value {
        case .bool(let flag):
            return flag ? "true" : nil
        case .signed(let number):
            return number == 0 ? nil : String(number)
        case .unsigned(let number):
            return number == 0 ? nil : String(number)
        case .float(let number):
            if type.scalar == .float32 {
                let bits = Float(number).bitPattern
                return bits == 0 ? nil : "0x" + Hex.digits(UInt64(bits), width: 8, uppercase: true)
            }
            let bits = number.bitPattern
            return bits == 0 ? nil : "0x" + Hex.digits(bits, width: 16, uppercase: true)
        case .string(let string):
            return string.isEmpty ? nil : quoted(string)
        case .enumCase(_, let number):
            return number == 0 ? nil : String(number)
        }
    }

    /// `"..."` with `\\`, `\"` and `\u{h}` (lowercase hex) for U+0000...U+001F and U+007F.
    static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(Hex.digits(scalar.value))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The blocks of the named declarations and everything they reference, sorted by name.
    static func closureText(of names: [String], in spec: SpecSet) -> String {
        var all: Set<String> = []
        for name in names { all.formUnion(spec.closure(of: name)) }
        return all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .compactMap { spec.declaration(named: $0).map { block($0, in: spec) } }
            .joined()
    }
}

extension SpecSet {
    /// The canonical text of a message: its block and the blocks of every declaration it
    /// references (transitively), sorted by name. `nil` if there is no such message.
    public func canonicalText(ofMessage name: String) -> String? {
        guard case .message? = declaration(named: name) else { return nil }
        return CanonicalForm.closureText(of: [name], in: self)
    }

    /// FNV-1a 64 of ``canonicalText(ofMessage:)``. Two peers with equal fingerprints for a
    /// message encode and decode it identically.
    public func fingerprint(ofMessage name: String) -> Fingerprint? {
        canonicalText(ofMessage: name).map(Fingerprint.init(of:))
    }

    /// The canonical text of the entry file: `package NAME VERSION\n`, then the blocks of
    /// every declaration of the entry file and everything they reference, sorted by name.
    public var canonicalText: String {
        guard let entry else { return "" }
        let header = entry.package.map { "package \($0.name) \($0.version)\n" } ?? ""
        return header + CanonicalForm.closureText(of: entry.declarations.map(\.name), in: self)
    }

    /// FNV-1a 64 of ``canonicalText``.
    public var fingerprint: Fingerprint { Fingerprint(of: canonicalText) }

    /// The canonical block of one declaration alone (not its references), or `nil`.
    public func canonicalBlock(of name: String) -> String? {
        declaration(named: name).map { CanonicalForm.block($0, in: self) }
    }
}
