#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads field-tagged payloads (Spec/FORMAT.md, "Payload encoding") with every length,
/// count and nesting level checked against ``Limits``.
public struct PayloadReader: Sendable {
    /// The underlying cursor.
    public var reader: ByteReader
    /// The limits lengths and nesting are checked against.
    public let limits: Limits
    /// How many nested messages enclose the current one.
    public private(set) var depth: Int
    /// How many values the message has decoded to so far (nested messages, packed
    /// elements, strings, byte strings, map entries, kept unknown fields), carried into and
    /// back out of nested readers; bounded by ``Limits/maxDecodedValues``.
    public var decodedValues = 0

    /// Creates a reader over a whole payload.
    public init(_ bytes: [UInt8], limits: Limits = .default) {
        reader = ByteReader(bytes)
        self.limits = limits
        depth = 0
    }

    /// Creates a reader over an existing cursor (for payloads inside larger inputs).
    public init(reader: ByteReader, limits: Limits = .default, depth: Int = 0) {
        self.reader = reader
        self.limits = limits
        self.depth = depth
    }

    /// Whether the payload has been read to its end.
    @inlinable public var isAtEnd: Bool { reader.isAtEnd }

    /// Reads the next field's key, or returns nil at the end of the payload.
    /// - Throws: ``WireError/Kind/unknownWireType`` or ``WireError/Kind/invalidValue`` for a
    ///   field number of 0 or over ``FieldKey/maxNumber``.
    @inlinable public mutating func nextKey() throws(WireError) -> FieldKey? {
        if reader.isAtEnd { return nil }
        let offset = reader.position
        return try Self.checkedKey(raw: try reader.readUVarint(), at: offset)
    }

    /// Checks a raw key varint read at `offset` and returns it as a ``FieldKey``
    /// (generated decoders call this for keys their fast path does not match).
    /// - Throws: ``WireError/Kind/unknownWireType`` or ``WireError/Kind/invalidValue`` for a
    ///   field number of 0 or over ``FieldKey/maxNumber``.
    @inlinable public func _fieldKey(raw: UInt64, at offset: Int) throws(WireError) -> FieldKey {
        try Self.checkedKey(raw: raw, at: offset)
    }

    // Static, so that ``nextKey()`` on an `inout` reader does not copy the reader (and
    // retain its bytes) to call it.
    @inlinable static func checkedKey(raw: UInt64, at offset: Int) throws(WireError) -> FieldKey {
        let wireType = WireType(rawValue: UInt8(truncatingIfNeeded: raw & 7))
        let number = raw >> 3
        guard wireType.isDefined else {
            throw WireError(.unknownWireType, offset: offset, "wire type \(wireType.rawValue) is not defined (field \(number))")
        }
        guard number >= 1, number <= UInt64(FieldKey.maxNumber) else {
            throw WireError(.invalidValue, offset: offset, "field number \(number) is outside 1...\(FieldKey.maxNumber)")
        }
        return FieldKey(number: UInt32(truncatingIfNeeded: number), wireType: wireType)
    }

    /// Throws ``WireError/Kind/typeMismatch`` unless `key`, just read, has wire type
    /// `expected`. The error points at the key (keys are minimal varints, so the key starts
    /// its encoded length before the current position).
    @inlinable public func expect(_ key: FieldKey, _ expected: WireType, field: String) throws(WireError) {
        guard key.wireType == expected else {
            throw WireError(
                .typeMismatch, offset: reader.position - Varint.encodedLength(key.encoded),
                "field \(field) (#\(key.number)) has wire type \(key.wireType), expected \(expected)")
        }
    }

    /// Reads a varint value.
    @inlinable public mutating func readUInt() throws(WireError) -> UInt64 { try reader.readUVarint() }

    /// Reads a zigzag varint value.
    @inlinable public mutating func readInt() throws(WireError) -> Int64 { try reader.readSVarint() }

    /// Reads a varint that must fit `T`, else ``WireError/Kind/invalidValue``.
    @inlinable public mutating func readUInt<T: FixedWidthInteger & UnsignedInteger>(as type: T.Type) throws(WireError) -> T {
        let offset = reader.position
        let raw = try reader.readUVarint()
        guard let value = T(exactly: raw) else {
            throw WireError(.invalidValue, offset: offset, "\(raw) does not fit \(T.self)")
        }
        return value
    }

    /// Reads a zigzag varint that must fit `T`, else ``WireError/Kind/invalidValue``.
    @inlinable public mutating func readInt<T: FixedWidthInteger & SignedInteger>(as type: T.Type) throws(WireError) -> T {
        let offset = reader.position
        let raw = try reader.readSVarint()
        guard let value = T(exactly: raw) else {
            throw WireError(.invalidValue, offset: offset, "\(raw) does not fit \(T.self)")
        }
        return value
    }

    /// Reads a Bool (varint 0 or 1; anything else is ``WireError/Kind/invalidValue``).
    @inlinable public mutating func readBool() throws(WireError) -> Bool {
        let offset = reader.position
        switch try reader.readUVarint() {
        case 0: return false
        case 1: return true
        case let other: throw WireError(.invalidValue, offset: offset, "\(other) is not a Bool (0 or 1)")
        }
    }

    /// Reads a Float64.
    @inlinable public mutating func readDouble() throws(WireError) -> Double {
        Double(bitPattern: try reader.readFixed64LE())
    }

    /// Reads a Float32.
    @inlinable public mutating func readFloat() throws(WireError) -> Float {
        Float(bitPattern: try reader.readFixed32LE())
    }

    /// Reads a Fixed32: an unsigned 32-bit integer, little-endian.
    @inlinable public mutating func readFixed32() throws(WireError) -> UInt32 {
        try reader.readFixed32LE()
    }

    /// Reads a Fixed64: an unsigned 64-bit integer, little-endian.
    @inlinable public mutating func readFixed64() throws(WireError) -> UInt64 {
        try reader.readFixed64LE()
    }

    /// Reads a Timestamp as signed nanoseconds since 1970-01-01T00:00:00Z.
    @inlinable public mutating func readTimestampNanoseconds() throws(WireError) -> Int64 {
        Int64(bitPattern: try reader.readFixed64LE())
    }

    /// Reads a length prefix and checks it against `limit` and the bytes remaining.
    @inlinable public mutating func readLength(limit: Int, _ what: String) throws(WireError) -> Int {
        let offset = reader.position
        let length = try reader.readUVarint()
        guard length <= UInt64(limit) else {
            throw WireError(.limitExceeded, offset: offset, "\(what) of \(length) bytes is over the limit of \(limit)")
        }
        let count = Int(length)
        try reader.require(count, what)
        return count
    }

    /// Counts one decoded value against ``Limits/maxDecodedValues``.
    /// - Throws: ``WireError/Kind/limitExceeded`` naming the limit when the message would
    ///   decode to more values.
    @inlinable public mutating func _countValue() throws(WireError) {
        // safe because: the count never passes the limit, an Int, by more than one.
        decodedValues += 1
        guard decodedValues <= limits.maxDecodedValues else {
            throw WireError(
                .limitExceeded, offset: reader.position,
                "the message decodes to more than maxDecodedValues \(limits.maxDecodedValues) values")
        }
    }

    /// Reads a length-delimited UTF-8 string.
    @inlinable public mutating func readString() throws(WireError) -> String {
        try _countValue()
        let count = try readLength(limit: limits.maxStringLength, "string")
        return try reader.readUTF8(count: count)
    }

    /// Reads a length-delimited byte string.
    @inlinable public mutating func readBytes() throws(WireError) -> [UInt8] {
        try _countValue()
        let count = try readLength(limit: limits.maxBytesLength, "bytes")
        return try reader.readBytes(count: count)
    }

    /// Reads a UUID: exactly 16 length-delimited bytes.
    @inlinable public mutating func readUUID() throws(WireError) -> UUID {
        let offset = reader.position
        let count = try readLength(limit: 16, "UUID")
        guard count == 16 else {
            throw WireError(.invalidValue, offset: offset, "a UUID takes 16 bytes, not \(count)")
        }
        return try reader.withBytes(count: 16) { raw in
            UUID(
                uuid: (
                    raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                    raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                ))
        }
    }

    /// Reads a length-delimited nested message with `body`, one level deeper.
    /// - Throws: ``WireError/Kind/depthExceeded`` past ``Limits/maxNestingDepth``, or what
    ///   `body` throws. Bytes `body` leaves unread are skipped.
    @inlinable public mutating func readNested<T>(_ body: (inout PayloadReader) throws(WireError) -> T) throws(WireError) -> T {
        guard depth < limits.maxNestingDepth else {
            throw WireError(
                .depthExceeded, offset: reader.position, "nesting deeper than maxNestingDepth \(limits.maxNestingDepth)")
        }
        try _countValue()
        let count = try readLength(limit: limits.maxMessageSize, "nested message")
        var nested = PayloadReader(reader: try reader.subReader(count: count), limits: limits, depth: depth + 1)
        nested.decodedValues = decodedValues
        let value = try body(&nested)
        decodedValues = nested.decodedValues
        return value
    }

    /// Reads the elements of a packed array (a length-delimited run of values) with `element`.
    /// - Throws: ``WireError/Kind/limitExceeded`` past ``Limits/maxCollectionCount`` elements.
    @inlinable public mutating func readPacked(_ element: (inout PayloadReader) throws(WireError) -> Void) throws(WireError) {
        let count = try readLength(limit: limits.maxMessageSize, "packed array")
        var nested = PayloadReader(reader: try reader.subReader(count: count), limits: limits, depth: depth)
        nested.decodedValues = decodedValues
        var elements = 0
        while !nested.isAtEnd {
            elements += 1
            guard elements <= limits.maxCollectionCount else {
                throw WireError(
                    .limitExceeded, offset: nested.reader.position,
                    "packed array has more than maxCollectionCount \(limits.maxCollectionCount) elements")
            }
            try nested._countValue()
            try element(&nested)
        }
        decodedValues = nested.decodedValues
    }

    /// Skips the value of a field with key `key`.
    public mutating func skip(_ key: FieldKey) throws(WireError) {
        switch key.wireType {
        case .varint: _ = try reader.readUVarint()
        case .fixed64: try reader.skip(count: 8)
        case .fixed32: try reader.skip(count: 4)
        case .lengthDelimited:
            let count = try readLength(limit: limits.maxMessageSize, "skipped field")
            try reader.skip(count: count)
        default:
            throw WireError(.unknownWireType, offset: reader.position, "wire type \(key.wireType.rawValue) is not defined")
        }
    }

    /// Skips the value of a field with key `key` and returns the whole field, key included,
    /// as raw bytes, so a message can keep fields it does not know and write them back.
    public mutating func captureUnknown(_ key: FieldKey) throws(WireError) -> [UInt8] {
        try _countValue()
        let valueStart = reader.position
        try skip(key)
        var field = ByteWriter(capacity: reader.position - valueStart + 5)
        field.writeUVarint(key.encoded)
        field.write(contentsOf: reader.bytes[valueStart..<reader.position])
        return field.bytes
    }
}
