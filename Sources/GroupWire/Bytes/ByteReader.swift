/// A cursor over untrusted bytes with one bounds check for every read.
///
/// Every read goes through ``require(_:_:)``, which throws a ``WireError`` of kind
/// ``WireError/Kind/truncated`` (with the offset) instead of trapping. Offsets are absolute
/// positions in ``bytes``, so errors raised by a reader over a sub-range still point into
/// the whole input.
public struct ByteReader: Sendable {
    /// The whole input (shared, not copied, by readers over sub-ranges).
    public let bytes: [UInt8]
    /// The absolute offset of the next byte to read.
    @usableFromInline var cursor: Int
    /// The absolute offset of the next byte to read.
    @inlinable public var position: Int { cursor }
    /// The absolute offset one past the last readable byte.
    @inlinable public var end: Int { limit }
    /// Storage of ``end``; narrowed and restored by generated decoders reading nested
    /// values in place (see `PayloadReader._enterNested(depth:)`).
    @usableFromInline var limit: Int

    /// Creates a reader over all of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.cursor = 0
        self.limit = bytes.count
    }

    /// Creates a reader over `range` of `bytes`.
    /// - Throws: ``WireError/Kind/truncated`` if the range is not inside `bytes`.
    public init(_ bytes: [UInt8], range: Range<Int>) throws(WireError) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw WireError(
                .truncated, offset: min(max(range.lowerBound, 0), bytes.count),
                "range \(range) is outside the \(bytes.count)-byte input")
        }
        self.bytes = bytes
        self.cursor = range.lowerBound
        self.limit = range.upperBound
    }

    /// The number of bytes left to read.
    @inlinable public var remaining: Int { end - cursor }

    /// Whether every byte has been read.
    @inlinable public var isAtEnd: Bool { cursor >= end }

    /// The single bounds check: throws unless `count` more bytes are available.
    @inlinable public func require(_ count: Int, _ what: @autoclosure () -> String = "value") throws(WireError) {
        guard count >= 0, count <= end - cursor else {
            throw WireError(
                .truncated, offset: cursor,
                "need \(count) byte\(count == 1 ? "" : "s") for \(what()), \(end - cursor) left")
        }
    }

    /// Returns a reader over the next `count` bytes and moves past them.
    public mutating func subReader(count: Int, _ what: @autoclosure () -> String = "nested value") throws(WireError) -> ByteReader
    {
        try require(count, what())
        // safe because: require(count) proved cursor + count <= end.
        let sub = ByteReader(bytes: bytes, cursor: cursor, end: cursor + count)
        cursor += count
        return sub
    }

    private init(bytes: [UInt8], cursor: Int, end: Int) {
        self.bytes = bytes
        self.cursor = cursor
        self.limit = end
    }

    /// Reads one byte.
    @inlinable public mutating func readByte() throws(WireError) -> UInt8 {
        try require(1, "byte")
        // safe because: require(1) proved cursor < end <= bytes.count.
        let byte = bytes.withUnsafeBufferPointer { $0[cursor] }
        cursor += 1
        return byte
    }

    /// Returns the next byte without consuming it, or nil at the end.
    @inlinable public func peekByte() -> UInt8? {
        cursor < end ? bytes.withUnsafeBufferPointer { $0[cursor] } : nil
    }

    /// Reads a minimal unsigned LEB128 varint of at most 10 bytes.
    /// - Throws: ``WireError/Kind/truncated`` or ``WireError/Kind/malformedVarint``.
    @inlinable public mutating func readUVarint() throws(WireError) -> UInt64 {
        // Fast path: one byte.
        if cursor < end {
            // safe because: cursor < end <= bytes.count.
            let first = bytes.withUnsafeBufferPointer { $0[cursor] }
            if first < 0x80 {
                cursor += 1
                return UInt64(first)
            }
        }
        return try readUVarintSlow()
    }

    @usableFromInline mutating func readUVarintSlow() throws(WireError) -> UInt64 {
        let start = cursor
        var position = cursor
        var failure = Varint.Failure.truncated
        let value = bytes.withUnsafeBufferPointer { Varint.read($0, at: &position, end: end, failure: &failure) }
        guard let value else {
            switch failure {
            case .truncated: throw WireError(.truncated, offset: start, "varint runs past the end of the input")
            case .tooLarge: throw WireError(.malformedVarint, offset: start, "varint does not fit 64 bits")
            case .notMinimal: throw WireError(.malformedVarint, offset: start, "varint is not minimally encoded")
            }
        }
        cursor = position
        return value
    }

    /// Reads a zigzag-encoded signed varint.
    @inlinable public mutating func readSVarint() throws(WireError) -> Int64 {
        Varint.unzigzag(try readUVarint())
    }

    /// Reads a little-endian 32-bit integer.
    @inlinable public mutating func readFixed32LE() throws(WireError) -> UInt32 {
        try require(4, "fixed32")
        // safe because: require(4) proved the four bytes are in range.
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: cursor, as: UInt32.self) }
        cursor += 4
        return UInt32(littleEndian: value)
    }

    /// Reads a little-endian 64-bit integer.
    @inlinable public mutating func readFixed64LE() throws(WireError) -> UInt64 {
        try require(8, "fixed64")
        // safe because: require(8) proved the eight bytes are in range.
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: cursor, as: UInt64.self) }
        cursor += 8
        return UInt64(littleEndian: value)
    }

    /// Reads `count` bytes into a new array.
    public mutating func readBytes(count: Int, _ what: @autoclosure () -> String = "bytes") throws(WireError) -> [UInt8] {
        try require(count, what())
        // safe because: require(count) proved cursor ..< cursor + count is in range.
        let result = Array(bytes[cursor..<(cursor + count)])
        cursor += count
        return result
    }

    /// Reads `count` bytes as a UTF-8 string.
    /// - Throws: ``WireError/Kind/invalidUTF8`` when the bytes are not valid UTF-8.
    public mutating func readUTF8(count: Int) throws(WireError) -> String {
        try require(count, "string")
        let start = cursor
        // safe because: require(count) proved the range is in bounds.
        let string = bytes.withUnsafeBufferPointer { buffer in
            String(validating: UnsafeBufferPointer(rebasing: buffer[start..<(start + count)]), as: UTF8.self)
        }
        guard let string else {
            throw WireError(.invalidUTF8, offset: start, "string of \(count) bytes is not valid UTF-8")
        }
        cursor += count
        return string
    }

    /// Moves past `count` bytes.
    @inlinable public mutating func skip(count: Int) throws(WireError) {
        try require(count, "skipped bytes")
        cursor += count
    }

    /// Calls `body` with the next `count` bytes, without copying, and moves past them.
    public mutating func withBytes<R>(count: Int, _ body: (UnsafeRawBufferPointer) throws(WireError) -> R) throws(WireError) -> R
    {
        try require(count, "bytes")
        let start = cursor
        // safe because: require(count) proved start ..< start + count is in range; the
        // pointer does not escape the closure.
        let result: Result<R, WireError> = bytes.withUnsafeBytes { raw in
            do throws(WireError) {
                return .success(try body(UnsafeRawBufferPointer(rebasing: raw[start..<(start + count)])))
            } catch {
                return .failure(error)
            }
        }
        cursor += count
        return try result.get()
    }
}
