#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes field-tagged payloads (Spec/FORMAT.md, "Payload encoding"): the encoding that
/// generated message types and the dynamic codec use.
public struct PayloadWriter: Sendable {
    /// The underlying buffer.
    public var writer: ByteWriter

    /// Creates a writer.
    /// - Parameter capacity: bytes to reserve up front.
    public init(capacity: Int = 0) {
        writer = ByteWriter(capacity: capacity)
    }

    /// The payload written so far.
    @inlinable public var bytes: [UInt8] { writer.bytes }

    /// Writes a field key.
    @inlinable public mutating func writeKey(_ number: UInt32, _ wireType: WireType) {
        writer.writeUVarint(UInt64(number) << 3 | UInt64(wireType.rawValue))
    }

    /// Writes an unsigned integer field (wire type varint).
    @inlinable public mutating func writeUInt(_ number: UInt32, _ value: UInt64) {
        writeKey(number, .varint)
        writer.writeUVarint(value)
    }

    /// Writes a signed integer field, zigzag-mapped (wire type varint).
    @inlinable public mutating func writeInt(_ number: UInt32, _ value: Int64) {
        writeKey(number, .varint)
        writer.writeSVarint(value)
    }

    /// Writes a Bool field (wire type varint, 0 or 1).
    @inlinable public mutating func writeBool(_ number: UInt32, _ value: Bool) {
        writeKey(number, .varint)
        writer.write(value ? 1 : 0)
    }

    /// Writes a Float64 field (wire type fixed64).
    @inlinable public mutating func writeDouble(_ number: UInt32, _ value: Double) {
        writeKey(number, .fixed64)
        writer.writeFixed64LE(value.bitPattern)
    }

    /// Writes a Float32 field (wire type fixed32).
    @inlinable public mutating func writeFloat(_ number: UInt32, _ value: Float) {
        writeKey(number, .fixed32)
        writer.writeFixed32LE(value.bitPattern)
    }

    /// Writes a Fixed32 field: an unsigned 32-bit integer, little-endian (wire type fixed32).
    @inlinable public mutating func writeFixed32(_ number: UInt32, _ value: UInt32) {
        writeKey(number, .fixed32)
        writer.writeFixed32LE(value)
    }

    /// Writes a Fixed64 field: an unsigned 64-bit integer, little-endian (wire type fixed64).
    @inlinable public mutating func writeFixed64(_ number: UInt32, _ value: UInt64) {
        writeKey(number, .fixed64)
        writer.writeFixed64LE(value)
    }

    /// Writes a Timestamp field: signed nanoseconds since 1970-01-01T00:00:00Z (fixed64).
    @inlinable public mutating func writeTimestamp(_ number: UInt32, nanoseconds: Int64) {
        writeKey(number, .fixed64)
        writer.writeFixed64LE(UInt64(bitPattern: nanoseconds))
    }

    /// Writes a String field (UTF-8, length-delimited).
    @inlinable public mutating func writeString(_ number: UInt32, _ value: String) {
        writeKey(number, .lengthDelimited)
        writer.writeLengthPrefixed(value)
    }

    /// Writes a Bytes field (length-delimited).
    @inlinable public mutating func writeBytes(_ number: UInt32, _ value: [UInt8]) {
        writeKey(number, .lengthDelimited)
        writer.writeUVarint(UInt64(value.count))
        writer.write(contentsOf: value)
    }

    /// Writes a UUID field: its 16 bytes, length-delimited.
    @inlinable public mutating func writeUUID(_ number: UInt32, _ value: UUID) {
        writeKey(number, .lengthDelimited)
        writer.write(16)
        withUnsafeBytes(of: value.uuid) { writer.write(contentsOf: $0) }
    }

    /// Writes a length-delimited field whose content `body` writes.
    ///
    /// One byte is reserved for the length; longer content is moved once to make room.
    @inlinable public mutating func writeNested(_ number: UInt32, _ body: (inout PayloadWriter) -> Void) {
        writeKey(number, .lengthDelimited)
        writeLengthPrefixed(body)
    }

    /// Writes `uvarint(length)` and the content `body` writes, with no key.
    @inlinable public mutating func writeLengthPrefixed(_ body: (inout PayloadWriter) -> Void) {
        let lengthAt = writer.count
        writer.write(0)
        body(&self)
        let length = writer.count - lengthAt - 1
        if length < 0x80 {
            writer.overwrite(at: lengthAt, with: CollectionOfOne(UInt8(length)))
        } else {
            var prefix = ByteWriter(capacity: Varint.maxLength)
            prefix.writeUVarint(UInt64(length))
            writer.overwrite(at: lengthAt, with: prefix.bytes.prefix(1))
            writer.insert(contentsOf: prefix.bytes.dropFirst(), at: lengthAt + 1)
        }
    }

    /// Writes bytes as they are: unknown fields kept from a decoded message.
    @inlinable public mutating func writeRaw(_ bytes: [UInt8]) {
        writer.write(contentsOf: bytes)
    }
}
