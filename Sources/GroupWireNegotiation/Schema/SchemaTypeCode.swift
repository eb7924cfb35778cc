import GroupWire
import GroupWireSpec

/// Type expressions of a schema table: varints in prefix order (Spec/FORMAT.md, "The hello").
/// 1-15 scalars, 16 array (then its element), 17 map (then key and value), 18-19 the
/// fixed-width integer scalars (added after the first fifteen, so the codes of those stay),
/// 32 + i the declaration at index i of the table.
enum SchemaTypeCode {
    static let scalars: [ScalarType] = [
        .bool, .int8, .int16, .int32, .int64, .uint8, .uint16, .uint32, .uint64, .float32, .float64, .string, .bytes, .uuid,
        .timestamp,
    ]
    static let array: UInt64 = 16
    static let map: UInt64 = 17
    /// Scalars added after `array` and `map` took 16 and 17: codes 18 and up.
    static let laterScalars: [ScalarType] = [.fixed32, .fixed64]
    static let firstLaterScalar: UInt64 = 18
    static let firstDeclaration: UInt64 = 32

    /// The codes of `type`.
    static func codes(of type: TypeRef, indexes: [String: Int]) -> [UInt64] {
        switch type {
        case .scalar(let scalar):
            if let index = scalars.firstIndex(of: scalar) {
                [UInt64(index) + 1]
            } else {
                [firstLaterScalar + UInt64(laterScalars.firstIndex(of: scalar) ?? 0)]
            }
        case .named(let name): [firstDeclaration + UInt64(indexes[name] ?? 0)]
        case .array(let element): [array] + codes(of: element, indexes: indexes)
        case .map(let key, let value): [map] + codes(of: key, indexes: indexes) + codes(of: value, indexes: indexes)
        }
    }

    /// The type `codes` spell, with declarations named from `names`.
    /// - Throws: `invalidValue` at `offset` for an undefined code, a declaration index past
    ///   the table, or codes that do not make exactly one type.
    static func type(of codes: [UInt64], names: [String], offset: Int) throws(WireError) -> TypeRef {
        var position = 0
        func next() throws(WireError) -> TypeRef {
            guard position < codes.count else {
                throw WireError(.invalidValue, offset: offset, "the type expression ends before its type is complete")
            }
            let code = codes[position]
            position += 1
            switch code {
            case 1...15: return .scalar(scalars[Int(code) - 1])
            case firstLaterScalar..<firstLaterScalar + UInt64(laterScalars.count):
                return .scalar(laterScalars[Int(code - firstLaterScalar)])
            case array: return .array(try next())
            case map:
                let key = try next()
                return .map(key: key, value: try next())
            case firstDeclaration...:
                let index = code - firstDeclaration
                guard index < UInt64(names.count) else {
                    throw WireError(
                        .invalidValue, offset: offset,
                        "type code \(code) names declaration \(index), but the table has \(names.count)")
                }
                return .named(names[Int(index)])
            default:
                throw WireError(.invalidValue, offset: offset, "type code \(code) is not defined")
            }
        }
        let type = try next()
        guard position == codes.count else {
            throw WireError(
                .invalidValue, offset: offset, "the type expression has \(codes.count - position) codes after its type")
        }
        return type
    }
}
