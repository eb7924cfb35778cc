import GroupWire
import GroupWireJSON
import GroupWireSpec

/// A scalar or enum value in its wire form: what follows the field key. Comparing two wire
/// forms is how writers decide "equal to the default" (so floats compare by bit pattern).
enum WireValue: Hashable {
    case varint(UInt64)
    case fixed64(UInt64)
    case fixed32(UInt32)
    case bytes([UInt8])

    /// Writes the value with its key.
    func write(number: UInt32, into writer: inout PayloadWriter) {
        switch self {
        case .varint(let value):
            writer.writeUInt(number, value)
        case .fixed64(let value):
            writer.writeKey(number, .fixed64)
            writer.writer.writeFixed64LE(value)
        case .fixed32(let value):
            writer.writeKey(number, .fixed32)
            writer.writer.writeFixed32LE(value)
        case .bytes(let value):
            writer.writeBytes(number, value)
        }
    }

    /// Writes the value without a key, as an element of a packed array.
    func writePacked(into writer: inout PayloadWriter) {
        switch self {
        case .varint(let value): writer.writer.writeUVarint(value)
        case .fixed64(let value): writer.writer.writeFixed64LE(value)
        case .fixed32(let value): writer.writer.writeFixed32LE(value)
        case .bytes(let value): writer.writer.write(contentsOf: value)
        }
    }
}

/// Conversions between JSON (Spec/FORMAT.md, "JSON form") and wire
/// values for the built-in scalar types.
enum ScalarMapping {
    /// The payload wire type of a scalar.
    static func wireType(_ type: ScalarType) -> WireType {
        WireType(rawValue: type.wireType.rawValue)
    }

    // MARK: JSON to wire

    /// Converts the JSON form of a `type` value to its wire form.
    /// - Throws: ``JSONInputError`` naming `path()` for a wrong JSON type, an integer out of
    ///   range, a malformed UUID or base64 string, or a string or byte string over its limit.
    static func wireScalar(
        _ type: ScalarType, from json: JSONValue, limits: Limits, path: () -> String
    ) throws(JSONInputError) -> WireValue {
        switch type {
        case .bool:
            guard case .bool(let flag) = json else { throw mismatch("a boolean", json, path) }
            return .varint(flag ? 1 : 0)
        case .int8, .int16, .int32, .int64:
            let value = try signedInteger(type, json, path)
            return .varint(Varint.zigzag(value))
        case .uint8, .uint16, .uint32, .uint64:
            return .varint(try unsignedInteger(type, json, path))
        case .fixed32:
            return .fixed32(UInt32(truncatingIfNeeded: try unsignedInteger(type, json, path)))
        case .fixed64:
            return .fixed64(try unsignedInteger(type, json, path))
        case .float64:
            return .fixed64(try double(json, path).bitPattern)
        case .float32:
            return .fixed32(try float(json, path).bitPattern)
        case .string:
            guard case .string(let text) = json else { throw mismatch("a string", json, path) }
            let count = text.utf8.count
            guard count <= limits.maxStringLength else {
                throw JSONInputError(
                    .limitExceeded, path: path(),
                    "string of \(count) UTF-8 bytes is over maxStringLength \(limits.maxStringLength)")
            }
            return .bytes(Array(text.utf8))
        case .bytes:
            guard case .string(let text) = json else { throw mismatch("a base64 string", json, path) }
            guard let bytes = Base64.decode(text) else {
                throw JSONInputError(.invalidValue, path: path(), "\(quoted(text)) is not padded standard base64")
            }
            guard bytes.count <= limits.maxBytesLength else {
                throw JSONInputError(
                    .limitExceeded, path: path(),
                    "byte string of \(bytes.count) bytes is over maxBytesLength \(limits.maxBytesLength)")
            }
            return .bytes(bytes)
        case .uuid:
            guard case .string(let text) = json else { throw mismatch("a UUID string", json, path) }
            guard let bytes = uuidBytes(text) else {
                throw JSONInputError(
                    .invalidValue, path: path(),
                    "\(quoted(text)) is not a UUID (8-4-4-4-12 hexadecimal digits)")
            }
            return .bytes(bytes)
        case .timestamp:
            guard case .number(let number) = json else {
                throw mismatch("a number of nanoseconds since 1970", json, path)
            }
            guard let value = number.int64 else {
                throw JSONInputError(
                    .outOfRange, path: path(),
                    "timestamp \(number) is not an integer number of nanoseconds within Int64")
            }
            return .fixed64(UInt64(bitPattern: value))
        }
    }

    /// The wire form of a field's default: the spec's `= value`, else the zero value.
    static func defaultScalar(_ type: ScalarType, _ value: DefaultValue?) -> WireValue {
        switch type {
        case .bool:
            if case .bool(let flag) = value { return .varint(flag ? 1 : 0) }
            return .varint(0)
        case .int8, .int16, .int32, .int64:
            if case .signed(let number) = value { return .varint(Varint.zigzag(number)) }
            return .varint(0)
        case .uint8, .uint16, .uint32, .uint64:
            if case .unsigned(let number) = value { return .varint(number) }
            return .varint(0)
        case .fixed32:
            if case .unsigned(let number) = value { return .fixed32(UInt32(truncatingIfNeeded: number)) }
            return .fixed32(0)
        case .fixed64:
            if case .unsigned(let number) = value { return .fixed64(number) }
            return .fixed64(0)
        case .float64:
            if case .float(let number) = value { return .fixed64(number.bitPattern) }
            return .fixed64(0)
        case .float32:
            if case .float(let number) = value { return .fixed32(Float(number).bitPattern) }
            return .fixed32(0)
        case .string:
            if case .string(let text) = value { return .bytes(Array(text.utf8)) }
            return .bytes([])
        case .bytes:
            return .bytes([])
        case .uuid:
            return .bytes([UInt8](repeating: 0, count: 16))
        case .timestamp:
            return .fixed64(0)
        }
    }

    private static func signedInteger(_ type: ScalarType, _ json: JSONValue, _ path: () -> String) throws(JSONInputError) -> Int64
    {
        guard case .number(let number) = json else { throw mismatch("an integer", json, path) }
        guard let range = type.integerRange, let value = number.int64, value >= range.min,
            value >= 0 ? UInt64(value) <= range.max : true
        else {
            throw outOfRange(type, number, path)
        }
        return value
    }

    private static func unsignedInteger(_ type: ScalarType, _ json: JSONValue, _ path: () -> String) throws(JSONInputError)
        -> UInt64
    {
        guard case .number(let number) = json else { throw mismatch("an integer", json, path) }
        guard let range = type.integerRange, let value = number.uint64, value <= range.max else {
            throw outOfRange(type, number, path)
        }
        return value
    }

    private static func outOfRange(_ type: ScalarType, _ number: JSONNumber, _ path: () -> String) -> JSONInputError {
        guard let range = type.integerRange else {
            return JSONInputError(.outOfRange, path: path(), "\(number) is out of range for \(type.rawValue)")
        }
        let what = number.isIntegerLiteral ? "is outside" : "is not an integer in"
        return JSONInputError(.outOfRange, path: path(), "\(number) \(what) \(type.rawValue)'s range \(range.min)...\(range.max)")
    }

    private static func double(_ json: JSONValue, _ path: () -> String) throws(JSONInputError) -> Double {
        switch json {
        case .number(let number):
            let value = number.double
            guard value.isFinite else {
                throw JSONInputError(.outOfRange, path: path(), "\(number) is outside Float64's range")
            }
            return value
        case .string(let text):
            guard let value = JSONValue.nonFiniteDouble(named: text) else {
                throw JSONInputError(
                    .invalidValue, path: path(),
                    "\(quoted(text)) is not a number; only \"NaN\", \"Infinity\" and \"-Infinity\" may be strings")
            }
            return value
        default:
            throw mismatch("a number", json, path)
        }
    }

    private static func float(_ json: JSONValue, _ path: () -> String) throws(JSONInputError) -> Float {
        switch json {
        case .number(let number):
            let value = number.float
            guard value.isFinite else {
                throw JSONInputError(.outOfRange, path: path(), "\(number) is outside Float32's range")
            }
            return value
        case .string:
            return Float(try double(json, path))
        default:
            throw mismatch("a number", json, path)
        }
    }

    /// Parses `8-4-4-4-12` hexadecimal (either case) into 16 bytes.
    static func uuidBytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var index = 0
        while index < 36 {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard utf8[index] == UInt8(ascii: "-") else { return nil }
                index += 1
                continue
            }
            // safe because: utf8.count == 36 and index + 1 < 36 is checked first.
            guard index + 1 < 36, let high = Hex.value(of: utf8[index]), let low = Hex.value(of: utf8[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes.count == 16 ? bytes : nil
    }

    /// Formats 16 bytes as an uppercase `8-4-4-4-12` UUID string.
    static func uuidString(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { output.append(UInt8(ascii: "-")) }
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func mismatch(_ expected: String, _ json: JSONValue, _ path: () -> String) -> JSONInputError {
        JSONInputError(.typeMismatch, path: path(), "expected \(expected), found \(json.typeName)")
    }

    static func quoted(_ text: String) -> String {
        let shown = text.count > 60 ? String(text.prefix(60)) + "…" : text
        return JSONWriter().string(.string(shown))
    }

    // MARK: Wire to JSON

    /// Reads a `type` value whose key has already been read and checked, as JSON.
    /// - Throws: `WireError` for truncated input, an out-of-range integer, invalid UTF-8, a
    ///   UUID of the wrong length, or a Bool other than 0 or 1.
    /// Reads a value of `type` as ``read(_:from:)`` does, with every check, without
    /// making its JSON.
    static func check(_ type: ScalarType, from reader: inout PayloadReader) throws(WireError) {
        switch type {
        case .bool: _ = try reader.readBool()
        case .int8: _ = try reader.readInt(as: Int8.self)
        case .int16: _ = try reader.readInt(as: Int16.self)
        case .int32: _ = try reader.readInt(as: Int32.self)
        case .int64: _ = try reader.readInt()
        case .uint8: _ = try reader.readUInt(as: UInt8.self)
        case .uint16: _ = try reader.readUInt(as: UInt16.self)
        case .uint32: _ = try reader.readUInt(as: UInt32.self)
        case .uint64: _ = try reader.readUInt()
        case .fixed32: _ = try reader.readFixed32()
        case .fixed64: _ = try reader.readFixed64()
        case .float64: _ = try reader.readDouble()
        case .float32: _ = try reader.readFloat()
        case .string: _ = try reader.readString()
        case .bytes:
            // What readBytes checks, without the copy: readLength has checked the bytes are there.
            try reader._countValue()
            try reader.reader.skip(count: try reader.readLength(limit: reader.limits.maxBytesLength, "bytes"))
        case .uuid:
            let offset = reader.reader.position
            let count = try reader.readLength(limit: 16, "UUID")
            guard count == 16 else {
                throw WireError(.invalidValue, offset: offset, "a UUID takes 16 bytes, not \(count)")
            }
            try reader.reader.skip(count: 16)
        case .timestamp: _ = try reader.readTimestampNanoseconds()
        }
    }

    static func read(_ type: ScalarType, from reader: inout PayloadReader) throws(WireError) -> JSONValue {
        switch type {
        case .bool: return .bool(try reader.readBool())
        case .int8: return .number(JSONNumber(Int64(try reader.readInt(as: Int8.self))))
        case .int16: return .number(JSONNumber(Int64(try reader.readInt(as: Int16.self))))
        case .int32: return .number(JSONNumber(Int64(try reader.readInt(as: Int32.self))))
        case .int64: return .number(JSONNumber(try reader.readInt()))
        case .uint8: return .number(JSONNumber(UInt64(try reader.readUInt(as: UInt8.self))))
        case .uint16: return .number(JSONNumber(UInt64(try reader.readUInt(as: UInt16.self))))
        case .uint32: return .number(JSONNumber(UInt64(try reader.readUInt(as: UInt32.self))))
        case .uint64: return .number(JSONNumber(try reader.readUInt()))
        case .fixed32: return .number(JSONNumber(UInt64(try reader.readFixed32())))
        case .fixed64: return .number(JSONNumber(try reader.readFixed64()))
        case .float64: return JSONValue.double(try reader.readDouble())
        case .float32:
            let value = try reader.readFloat()
            return JSONValue.float(value)
        case .string: return .string(try reader.readString())
        case .bytes: return .string(Base64.encode(try reader.readBytes()))
        case .uuid:
            let offset = reader.reader.position
            let count = try reader.readLength(limit: 16, "UUID")
            guard count == 16 else {
                throw WireError(.invalidValue, offset: offset, "a UUID takes 16 bytes, not \(count)")
            }
            return .string(uuidString(try reader.reader.readBytes(count: 16, "UUID")))
        case .timestamp: return .number(JSONNumber(try reader.readTimestampNanoseconds()))
        }
    }

    /// The JSON form of a field's default.
    static func defaultJSON(_ type: ScalarType, _ value: DefaultValue?) -> JSONValue {
        switch type {
        case .bool:
            if case .bool(let flag) = value { return .bool(flag) }
            return .bool(false)
        case .int8, .int16, .int32, .int64:
            if case .signed(let number) = value { return .number(JSONNumber(number)) }
            return .number(JSONNumber(Int64(0)))
        case .uint8, .uint16, .uint32, .uint64, .fixed32, .fixed64:
            if case .unsigned(let number) = value { return .number(JSONNumber(number)) }
            return .number(JSONNumber(UInt64(0)))
        case .float64:
            if case .float(let number) = value { return JSONValue.double(number) }
            return .number(JSONNumber(Int64(0)))
        case .float32:
            if case .float(let number) = value { return JSONValue.float(Float(number)) }
            return .number(JSONNumber(Int64(0)))
        case .string:
            if case .string(let text) = value { return .string(text) }
            return .string("")
        case .bytes:
            return .string("")
        case .uuid:
            return .string(uuidString([UInt8](repeating: 0, count: 16)))
        case .timestamp:
            return .number(JSONNumber(Int64(0)))
        }
    }
}
