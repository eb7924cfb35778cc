import GroupWireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON form of a spec `Bytes` value: standard base64 with padding, canonical (the same
/// strict base64 as the dynamic codec, Spec/FORMAT.md's JSON form).
public struct _WireJSONBytes: Codable, Sendable {
    /// The bytes.
    public var value: [UInt8]

    /// Wraps `value`.
    public init(_ value: [UInt8]) { self.value = value }

    /// Decodes a base64 string.
    /// - Throws: `DecodingError.dataCorrupted` when it is not canonical padded base64.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let bytes = Base64.decode(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Bytes must be canonical padded standard base64")
        }
        value = bytes
    }

    /// Encodes a base64 string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Base64.encode(value))
    }
}

/// JSON form of a spec `Timestamp`: Int64 nanoseconds since 1970 as a JSON number.
public struct _WireJSONTimestamp: Codable, Sendable {
    /// The date.
    public var value: Date

    /// Wraps `value`.
    public init(_ value: Date) { self.value = value }

    /// Decodes an Int64 number of nanoseconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = _WireTimestamp.date(nanoseconds: try container.decode(Int64.self))
    }

    /// Encodes an Int64 number of nanoseconds (the nearest one, see ``_WireTimestamp``).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(_WireTimestamp.nanoseconds(from: value))
    }
}

/// JSON form of a spec `Float32`/`Float64`: a number, or `"NaN"`, `"Infinity"`,
/// `"-Infinity"` for values JSON numbers cannot hold.
public struct _WireJSONFloat<Value: BinaryFloatingPoint & Codable & Sendable>: Codable, Sendable {
    /// The number.
    public var value: Value

    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }

    /// Decodes a number or one of the three non-finite spellings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            switch text {
            case "NaN": value = .nan
            case "Infinity": value = .infinity
            case "-Infinity": value = -.infinity
            default:
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not a number")
            }
        } else {
            value = try container.decode(Value.self)
        }
    }

    /// Encodes a number, or a string for non-finite values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if value.isNaN {
            try container.encode("NaN")
        } else if value.isInfinite {
            try container.encode(value < 0 ? "-Infinity" : "Infinity")
        } else {
            try container.encode(value)
        }
    }
}

/// JSON form of a spec map: an object whose keys are the ``_WireMapKey`` spellings.
public struct _WireJSONMap<Key: _WireMapKey, Value: Codable & Sendable>: Codable, Sendable {
    /// The map.
    public var value: [Key: Value]

    /// Wraps `value`.
    public init(_ value: [Key: Value]) { self.value = value }

    /// Decodes an object, parsing each key.
    /// - Throws: `DecodingError.dataCorrupted` for a key that does not parse as `Key`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let object = try container.decode([String: Value].self)
        var result: [Key: Value] = [:]
        result.reserveCapacity(object.count)
        for (text, element) in object {
            guard let key = Key(wireJSONKey: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "map key \(text) is not a \(Key.self)")
            }
            result[key] = element
        }
        value = result
    }

    /// Encodes an object in canonical key order.
    public func encode(to encoder: any Encoder) throws {
        var object: [String: Value] = [:]
        object.reserveCapacity(value.count)
        for (key, element) in value {
            object[key.wireJSONKey] = element
        }
        var container = encoder.singleValueContainer()
        try container.encode(object)
    }
}
