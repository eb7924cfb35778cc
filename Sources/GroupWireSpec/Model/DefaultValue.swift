/// A field default after it has been checked against the field's type.
///
/// The case matches the field type: `.bool` for `Bool`, `.signed` for `Int8`...`Int64`,
/// `.unsigned` for `UInt8`...`UInt64`, `.float` for `Float32`/`Float64` (a `Float32`
/// default is exactly representable as `Float`), `.string` for `String` and `.enumCase`
/// for enums.
public enum DefaultValue: Sendable, Hashable, CustomStringConvertible {
    /// A `Bool` default.
    case bool(Bool)
    /// A signed integer default, within the field type's range.
    case signed(Int64)
    /// An unsigned integer default, within the field type's range.
    case unsigned(UInt64)
    /// A floating-point default (finite).
    case float(Double)
    /// A `String` default.
    case string(String)
    /// An enum default: the case name and its number.
    case enumCase(name: String, number: UInt64)

    /// A readable spelling (spec syntax), e.g. `1.5`, `"abc"`, `red`.
    public var description: String {
        switch self {
        case .bool(let value): String(value)
        case .signed(let value): String(value)
        case .unsigned(let value): String(value)
        case .float(let value): String(value)
        case .string(let value): "\"\(value)\""
        case .enumCase(let name, _): name
        }
    }
}
