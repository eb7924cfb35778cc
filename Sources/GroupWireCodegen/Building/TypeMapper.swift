import GroupWireSpec

/// The shape of one non-collection value: how it is typed, defaulted and written.
enum ValueKind: Sendable, Hashable {
    /// A built-in scalar.
    case scalar(ScalarType)
    /// A spec enum (a varint of its case number).
    case enumeration(String)
    /// A struct, message or union (a length-delimited nested payload).
    case nested(String)
}

/// Maps spec types to Swift types, default expressions and JSON representations.
struct TypeMapper: Sendable {
    /// The spec set names resolve in.
    let spec: SpecSet

    /// The shape of `ref`, or nil for arrays and maps.
    func kind(of ref: TypeRef) -> ValueKind? {
        switch ref {
        case .scalar(let scalar):
            return .scalar(scalar)
        case .named(let name):
            if case .enum = spec.declaration(named: name) {
                return .enumeration(name)
            }
            return .nested(name)
        case .array, .map:
            return nil
        }
    }

    /// Whether the declaration `name` has an observed decoder (`GeneratorOptions.observedDecoding`):
    /// structs and messages do; a union is read whole.
    func isObservable(_ name: String) -> Bool {
        switch spec.declaration(named: name) {
        case .message, .struct: true
        case .enum, .union, nil: false
        }
    }

    /// Whether arrays of `element` are written packed.
    func isPacked(_ element: TypeRef) -> Bool {
        switch kind(of: element) {
        case .scalar(let scalar): scalar.isPackable
        case .enumeration: true
        case .nested, nil: false
        }
    }

    /// The Swift spelling of `ref`.
    func swiftType(_ ref: TypeRef) -> String {
        switch ref {
        case .scalar(let scalar): Self.swiftType(scalar)
        case .named(let name): name
        case .array(let element): "[\(swiftType(element))]"
        case .map(let key, let value): "[\(swiftType(key)): \(swiftType(value))]"
        }
    }

    /// The Swift type a scalar maps to.
    static func swiftType(_ scalar: ScalarType) -> String {
        switch scalar {
        case .bool: "Bool"
        case .int8: "Int8"
        case .int16: "Int16"
        case .int32: "Int32"
        case .int64: "Int64"
        case .uint8: "UInt8"
        case .uint16: "UInt16"
        case .uint32, .fixed32: "UInt32"
        case .uint64, .fixed64: "UInt64"
        case .float32: "Float"
        case .float64: "Double"
        case .string: "String"
        case .bytes: "[UInt8]"
        case .uuid: "UUID"
        case .timestamp: "Date"
        }
    }

    /// The Swift type of a field, `?` included.
    func swiftType(of field: FieldDecl) -> String {
        swiftType(field.type) + (field.isOptional && !field.type.isCollection ? "?" : "")
    }

    /// The expression for a field's default: nil for optionals, the spec default, or the
    /// type's zero value.
    func defaultExpression(of field: FieldDecl) -> String {
        if field.isOptional && !field.type.isCollection { return "nil" }
        guard let value = field.defaultValue else { return zeroExpression(field.type) }
        switch value {
        case .bool(let flag): return flag ? "true" : "false"
        case .signed(let number): return String(number)
        case .unsigned(let number): return String(number)
        case .float(let number): return SwiftNames.floatLiteral(number)
        case .string(let text): return SwiftNames.stringLiteral(text)
        case .enumCase(let name, let number):
            guard case .named(let enumName) = field.type else { return zeroExpression(field.type) }
            return enumCaseExpression(enumName, caseName: name, number: number)
        }
    }

    /// The zero value of `ref`: 0, false, "", empty, case 0, a default struct, a union's default.
    func zeroExpression(_ ref: TypeRef) -> String {
        switch ref {
        case .scalar(let scalar):
            switch scalar {
            case .bool: return "false"
            case .string: return "\"\""
            case .bytes: return "[]"
            case .uuid: return "_WireDefaults.uuid"
            case .timestamp: return "_WireTimestamp.epoch"
            default: return "0"
            }
        case .named(let name):
            switch spec.declaration(named: name) {
            case .enum(let decl):
                let zero = decl.declaredCase(number: 0)
                return enumCaseExpression(name, caseName: zero?.name, number: 0)
            case .union:
                return "\(name).wireDefault"
            default:
                return "\(name)()"
            }
        case .array:
            return "[]"
        case .map:
            return "[:]"
        }
    }

    /// `.caseName` for a named enum case, `Enum(rawValue: n)` otherwise.
    func enumCaseExpression(_ enumName: String, caseName: String?, number: UInt64) -> String {
        // A deprecated case is spelled by number so the default does not warn.
        if let caseName, case .enum(let decl) = spec.declaration(named: enumName),
            let enumCase = decl.declaredCase(named: caseName), enumCase.deprecation == nil
        {
            return "." + SwiftNames.identifier(caseName)
        }
        return "\(enumName)(rawValue: \(UInt32(truncatingIfNeeded: number)))"
    }

    // MARK: JSON (Spec/FORMAT.md, "JSON form")

    /// The Codable type that carries `ref` in JSON, or nil when `ref` itself does.
    func jsonType(_ ref: TypeRef) -> String? {
        switch ref {
        case .scalar(.float32): return "_WireJSONFloat<Float>"
        case .scalar(.float64): return "_WireJSONFloat<Double>"
        case .scalar(.bytes): return "_WireJSONBytes"
        case .scalar(.timestamp): return "_WireJSONTimestamp"
        case .scalar, .named: return nil
        case .array(let element):
            return jsonType(element).map { "[\($0)]" }
        case .map(let key, let value):
            if key == .scalar(.string) {
                return jsonType(value).map { "[String: \($0)]" }
            }
            return "_WireJSONMap<\(swiftType(key)), \(jsonType(value) ?? swiftType(value))>"
        }
    }

    /// An expression converting `expression` (of type `ref`) to its ``jsonType(_:)``.
    func toJSON(_ ref: TypeRef, _ expression: String) -> String {
        switch ref {
        case .scalar, .named:
            guard let wrapper = jsonType(ref) else { return expression }
            return "\(wrapper)(\(expression))"
        case .array(let element):
            guard let wrapper = jsonType(element) else { return expression }
            return "\(expression).map { \(wrapper)($0) }"
        case .map(let key, let value):
            let values = jsonType(value).map { wrapper in "\(expression).mapValues { \(wrapper)($0) }" } ?? expression
            return key == .scalar(.string) ? values : "_WireJSONMap(\(values))"
        }
    }

    /// An expression converting `expression` (of ``jsonType(_:)``) back to `ref`.
    func fromJSON(_ ref: TypeRef, _ expression: String) -> String {
        switch ref {
        case .scalar, .named:
            return jsonType(ref) == nil ? expression : "\(expression).value"
        case .array(let element):
            return jsonType(element) == nil ? expression : "\(expression).map(\\.value)"
        case .map(let key, let value):
            let map = key == .scalar(.string) ? expression : "\(expression).value"
            return jsonType(value) == nil ? map : "\(map).mapValues(\\.value)"
        }
    }
}
