#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What generated encoders write to: ``ByteWriter`` (growable) or ``_WireSink`` (exact size).
///
/// Generated types write each field as a key (a constant, precomputed by the generator)
/// and a value through these calls, generic over the output, so one encoder serves both
/// `encodeWire(to: &payloadWriter)` and the one-allocation `wirePayload()`.
public protocol _WireWriting {
    /// Appends one byte.
    mutating func writeByte(_ byte: UInt8)
    /// Appends an unsigned LEB128 varint.
    mutating func writeUVarint(_ value: UInt64)
    /// Appends a zigzag varint.
    mutating func writeSVarint(_ value: Int64)
    /// Appends four bytes, little-endian.
    mutating func writeFixed32LE(_ value: UInt32)
    /// Appends eight bytes, little-endian.
    mutating func writeFixed64LE(_ value: UInt64)
    /// Appends `uvarint(count)` and the bytes.
    mutating func writeLengthPrefixed(_ bytes: [UInt8])
    /// Appends `uvarint(utf8 count)` and the UTF-8 bytes.
    mutating func writeLengthPrefixed(_ string: String)
    /// Appends `16` and the UUID's 16 bytes.
    mutating func writeLengthPrefixed(_ uuid: UUID)
    /// Appends bytes as they are (unknown fields).
    mutating func writeRaw(_ bytes: [UInt8])
}

extension ByteWriter: _WireWriting {
    /// Appends one byte.
    @inlinable public mutating func writeByte(_ byte: UInt8) {
        write(byte)
    }

    /// Appends `uvarint(count)` and the bytes.
    @inlinable public mutating func writeLengthPrefixed(_ bytes: [UInt8]) {
        writeUVarint(UInt64(bytes.count))
        write(contentsOf: bytes)
    }

    /// Appends `uvarint(utf8 count)` and the UTF-8 bytes.
    @inlinable public mutating func writeLengthPrefixed(_ string: String) {
        string._withWireUTF8 { utf8 in
            writeUVarint(UInt64(utf8.count))
            write(contentsOf: UnsafeRawBufferPointer(utf8))
        }
    }

    /// Appends `16` and the UUID's 16 bytes.
    @inlinable public mutating func writeLengthPrefixed(_ uuid: UUID) {
        write(16)
        withUnsafeBytes(of: uuid.uuid) { write(contentsOf: $0) }
    }

    /// Appends bytes as they are.
    @inlinable public mutating func writeRaw(_ bytes: [UInt8]) {
        write(contentsOf: bytes)
    }
}

/// A fixed-size output for generated encoders that know their exact size: one allocation,
/// then plain stores with one bounds check each and no capacity or uniqueness checks.
///
/// A sink only exists inside ``encode(size:_:)``'s closure (its pointer never escapes).
/// A write that would pass the end is dropped and marks the sink overflowed, so a wrong
/// size can never write out of bounds; ``encode(size:_:)`` then returns nil.
public struct _WireSink: _WireWriting {
    @usableFromInline let base: UnsafeMutableRawPointer?
    @usableFromInline let capacity: Int
    @usableFromInline var written: Int
    @usableFromInline var didOverflow: Bool

    /// How many bytes have been written.
    @inlinable public var count: Int { written }
    /// Whether a write was dropped for lack of room.
    @inlinable public var overflowed: Bool { didOverflow }

    @inlinable init(base: UnsafeMutableRawPointer?, capacity: Int) {
        self.base = base
        self.capacity = capacity
        written = 0
        didOverflow = false
    }

    /// Allocates exactly `size` bytes, lets `body` fill them and returns them; nil when
    /// `body` wrote more or fewer than `size` bytes (then encode another way).
    ///
    /// A payload of at most ``smallSize`` bytes is written on the stack and copied into an
    /// array made for it: the copy's allocation is specialized where this is inlined, while
    /// `Array(unsafeUninitializedCapacity:)` always goes through the standard library's
    /// unspecialized allocator, whose lookup of the array's storage type (about 330
    /// instructions) cost more than the whole encode of a stroke.
    @inlinable @inline(__always)
    public static func encode(size: Int, _ body: (inout _WireSink) -> Void) -> [UInt8]? {
        guard size >= 0 else { return nil }
        if size <= smallSize {
            return withUnsafeTemporaryAllocation(byteCount: size, alignment: 1) { scratch in
                var sink = _WireSink(base: scratch.baseAddress, capacity: size)
                body(&sink)
                guard !sink.overflowed, sink.count == size else { return nil }
                return [UInt8](UnsafeRawBufferPointer(scratch))
            }
        }
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var sink = _WireSink(base: buffer.baseAddress.map(UnsafeMutableRawPointer.init), capacity: size)
            body(&sink)
            complete = !sink.overflowed && sink.count == size
            initialized = sink.count
        }
        return complete ? bytes : nil
    }

    /// The largest payload ``encode(size:_:)`` writes on the stack first.
    @inlinable public static var smallSize: Int { 1_024 }

    /// Reserves `needed` bytes: returns where they start, or nil (and marks the overflow).
    @inlinable mutating func claim(_ needed: Int) -> UnsafeMutableRawPointer? {
        guard let base, needed <= capacity &- written else {  // safe because: written <= capacity, both >= 0
            didOverflow = true
            return nil
        }
        let start = base + written
        written &+= needed  // safe because: written + needed <= capacity was just checked
        return start
    }

    /// Appends one byte.
    @inlinable public mutating func writeByte(_ byte: UInt8) {
        claim(1)?.storeBytes(of: byte, as: UInt8.self)
    }

    /// Appends an unsigned LEB128 varint.
    @inlinable @inline(__always) public mutating func writeUVarint(_ value: UInt64) {
        // Keys, small lengths and small numbers take one byte: written inline.
        guard value >= 0x80 else {
            claim(1)?.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
            return
        }
        writeLongUVarint(value)
    }

    /// Appends a varint of two or more bytes.
    @usableFromInline mutating func writeLongUVarint(_ value: UInt64) {
        guard let start = claim(Varint.encodedLength(value)) else { return }
        var rest = value
        var offset = 0
        while rest >= 0x80 {
            start.storeBytes(of: UInt8(truncatingIfNeeded: rest) | 0x80, toByteOffset: offset, as: UInt8.self)
            rest >>= 7
            offset &+= 1  // safe because: at most 10 bytes, all claimed above
        }
        start.storeBytes(of: UInt8(truncatingIfNeeded: rest), toByteOffset: offset, as: UInt8.self)
    }

    /// Appends a zigzag varint.
    @inlinable public mutating func writeSVarint(_ value: Int64) {
        writeUVarint(Varint.zigzag(value))
    }

    /// Appends four bytes, little-endian.
    @inlinable public mutating func writeFixed32LE(_ value: UInt32) {
        claim(4)?.storeBytes(of: value.littleEndian, as: UInt32.self)
    }

    /// Appends eight bytes, little-endian.
    @inlinable public mutating func writeFixed64LE(_ value: UInt64) {
        claim(8)?.storeBytes(of: value.littleEndian, as: UInt64.self)
    }

    /// Appends raw bytes from a buffer.
    @inlinable mutating func copy(_ source: UnsafeRawBufferPointer) {
        guard source.count > 0, let from = source.baseAddress, let start = claim(source.count) else { return }
        start.copyMemory(from: from, byteCount: source.count)
    }

    /// Appends `uvarint(count)` and the bytes.
    @inlinable public mutating func writeLengthPrefixed(_ bytes: [UInt8]) {
        writeUVarint(UInt64(bytes.count))
        bytes.withUnsafeBytes { copy($0) }
    }

    /// Appends `uvarint(utf8 count)` and the UTF-8 bytes.
    @inlinable public mutating func writeLengthPrefixed(_ string: String) {
        string._withWireUTF8 { utf8 in
            writeUVarint(UInt64(utf8.count))
            copy(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Appends `16` and the UUID's 16 bytes.
    @inlinable public mutating func writeLengthPrefixed(_ uuid: UUID) {
        guard let start = claim(17) else { return }
        start.storeBytes(of: 16, as: UInt8.self)
        withUnsafeBytes(of: uuid) { raw in
            (start + 1).storeBytes(of: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), as: UInt64.self)
            (start + 9).storeBytes(of: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self), as: UInt64.self)
        }
    }

    /// Appends bytes as they are.
    @inlinable public mutating func writeRaw(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { copy($0) }
    }
}

extension String {
    /// Calls `body` with the string's UTF-8, where it lies when it is contiguous (native and
    /// small strings are), else in a copy. Every writer of a string's bytes goes through here:
    /// `withUTF8` alone copies the string it is called on (a `var`), which was a retain and a
    /// release per string written.
    @inlinable func _withWireUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
