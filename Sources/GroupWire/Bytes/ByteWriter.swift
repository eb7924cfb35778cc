/// A growable buffer that GroupWire encoders append bytes to.
///
/// Writing never fails: the buffer grows as needed. Fixed-width integers are written
/// little-endian, variable-length integers as unsigned LEB128 (see Spec/FORMAT.md).
public struct ByteWriter: Sendable {
    @usableFromInline var storage: [UInt8]

    /// The bytes written so far.
    @inlinable public var bytes: [UInt8] { storage }

    /// Creates an empty writer.
    /// - Parameter capacity: bytes to reserve up front, when the final size is known.
    public init(capacity: Int = 0) {
        storage = []
        if capacity > 0 {
            storage.reserveCapacity(capacity)
        }
    }

    /// The number of bytes written so far.
    @inlinable public var count: Int { storage.count }

    /// Reserves room for at least `additional` more bytes.
    ///
    /// Grows geometrically (at least doubling), so a writer that many frames are appended to
    /// copies its contents a logarithmic number of times, not once per frame:
    /// `Array.reserveCapacity` alone allocates exactly what it is asked for.
    public mutating func reserve(additional: Int) {
        let needed = storage.count + additional
        guard needed > storage.capacity else { return }
        storage.reserveCapacity(Swift.max(needed, storage.capacity * 2))
    }

    /// Appends one byte.
    @inlinable public mutating func write(_ byte: UInt8) {
        storage.append(byte)
    }

    /// Appends a run of bytes.
    @inlinable public mutating func write(contentsOf other: some Sequence<UInt8>) {
        storage.append(contentsOf: other)
    }

    /// Appends the bytes of a buffer.
    public mutating func write(contentsOf buffer: UnsafeRawBufferPointer) {
        storage.append(contentsOf: buffer)
    }

    /// Appends an unsigned LEB128 varint (1 to 10 bytes, minimal).
    @inlinable public mutating func writeUVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            storage.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        storage.append(UInt8(truncatingIfNeeded: v))
    }

    /// Appends a signed integer as a zigzag-encoded varint.
    @inlinable public mutating func writeSVarint(_ value: Int64) {
        writeUVarint(Varint.zigzag(value))
    }

    /// Appends a 32-bit integer, little-endian.
    @inlinable public mutating func writeFixed32LE(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }

    /// Appends a 64-bit integer, little-endian.
    @inlinable public mutating func writeFixed64LE(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }

    /// Overwrites already-written bytes starting at `offset`.
    /// - Precondition: `offset + replacement.count <= count` (callers only patch what they wrote).
    public mutating func overwrite(at offset: Int, with replacement: some Collection<UInt8>) {
        storage.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
    }

    /// Inserts bytes at `offset`, moving everything after it.
    public mutating func insert(contentsOf inserted: some Collection<UInt8>, at offset: Int) {
        storage.insert(contentsOf: inserted, at: offset)
    }

    /// Empties the buffer, keeping its capacity, and returns what it held.
    public mutating func take() -> [UInt8] {
        let result = storage
        storage.removeAll(keepingCapacity: true)
        return result
    }
}
