/// Where one encoded value sits in the input of a ``WireDecoder``.
///
/// For `len` and `opaque` values `start..<end` is the content after the length prefix; for the others
/// it is the data itself (empty for `nil`). The extent has been checked against the
/// enclosing container, so reads inside it cannot run past the input.
struct WireValue {
    /// The wire type (``CodableWireType``).
    var type: UInt8
    /// The offset of the value's data (its length prefix, for `len`), for error messages.
    var at: Int
    /// The first byte of the data or content.
    var start: Int
    /// One past the last byte of the data or content.
    var end: Int

    /// An explicit nil, used for a missing `super` entry.
    static func null(at offset: Int) -> WireValue {
        WireValue(type: CodableWireType.null, at: offset, start: offset, end: offset)
    }

    /// Reads the extent of a value of wire type `type` whose data starts at `reader`'s
    /// position, and moves past it.
    /// - Parameter typeOffset: where the wire type was read, for the error on an undefined one.
    /// - Throws: ``WireError`` `unknownWireType`, `truncated` or `malformedVarint`.
    @inline(__always)
    static func read(type: UInt8, typeOffset: Int, from reader: inout ByteReader) throws(WireError) -> WireValue {
        let at = reader.cursor
        switch type {
        case CodableWireType.varint:
            _ = try reader.readUVarint()
            return WireValue(type: type, at: at, start: at, end: reader.cursor)
        case CodableWireType.fixed64:
            try reader.require(8, "fixed64")
            reader.cursor += 8  // safe because: require(8) proved the bytes are there.
            return WireValue(type: type, at: at, start: at, end: reader.cursor)
        case CodableWireType.len, CodableWireType.opaque:
            let length = try reader.readUVarint()
            guard length <= UInt64(reader.remaining) else {
                throw WireError(.truncated, offset: at, "length \(length) runs past the end (\(reader.remaining) bytes left)")
            }
            let start = reader.cursor
            reader.cursor += Int(length)  // safe because: length <= remaining was just checked.
            return WireValue(type: type, at: at, start: start, end: reader.cursor)
        case CodableWireType.null:
            return WireValue(type: type, at: at, start: at, end: at)
        case CodableWireType.fixed128:
            try reader.require(16, "fixed128")
            reader.cursor += 16  // safe because: require(16) proved the bytes are there.
            return WireValue(type: type, at: at, start: at, end: reader.cursor)
        case CodableWireType.fixed32:
            try reader.require(4, "fixed32")
            reader.cursor += 4  // safe because: require(4) proved the bytes are there.
            return WireValue(type: type, at: at, start: at, end: reader.cursor)
        default:
            throw WireError(.unknownWireType, offset: typeOffset, "wire type \(type) is not defined for Codable values")
        }
    }
}
