import GroupWireJSON

/// Adds and reads delivery headers in encoded frames without decoding the rest, for a
/// delivery layer that numbers frames another layer wrote (Spec/FORMAT.md, "Delivery").
package enum DeliveryFraming {
    /// What a delivery layer needs to know of a received frame.
    package struct Peek: Sendable, Hashable {
        /// The frame's kind.
        package var kind: FrameKind
        /// Its delivery header, nil when flag 0x40 is clear.
        package var delivery: DeliveryHeader?
        /// The type id (the control id of a control frame).
        package var typeID: UInt64
    }

    /// `frame` with `header` inserted after its kind byte (flag 0x40 set, length and
    /// checksum rewritten). The frame's body and other headers are copied, not checked.
    /// - Throws: ``WireError/Kind/invalidValue`` when `frame` does not start with a
    ///   well-formed prelude or carries a delivery header already; `header`'s range errors.
    package static func inserting(_ header: DeliveryHeader, into frame: [UInt8]) throws(WireError) -> [UInt8] {
        try DeliveryHeader.validate(
            stream: UInt64(header.stream), sequence: header.sequence, streamOffset: nil, sequenceOffset: nil)
        let (kindOffset, end) = try insertableFrame(frame)
        let inner = end - kindOffset + header.encodedSize
        var writer = ByteWriter(capacity: 2 + Varint.encodedLength(UInt64(inner)) + inner)
        writer.write(Frame.magic)
        writer.write(frame[1])
        writer.writeUVarint(UInt64(inner))
        writer.write(frame[kindOffset] | FrameFlags.delivery.rawValue)
        writer.writeUVarint(UInt64(header.stream))
        writer.writeUVarint(header.sequence)
        frame.withUnsafeBytes { raw in
            writer.write(contentsOf: UnsafeRawBufferPointer(rebasing: raw[(kindOffset + 1)..<(end - 4)]))
        }
        let crc = writer.bytes.withUnsafeBytes { CRC32C.update(0, $0) }
        writer.writeFixed32LE(crc)
        return writer.bytes
    }

    /// Checks that a header can be inserted into `frame` (what ``inserting(_:into:)``
    /// checks of the frame), without copying anything.
    /// - Throws: as ``inserting(_:into:)``.
    package static func checkInsertable(_ frame: [UInt8]) throws(WireError) {
        _ = try insertableFrame(frame)
    }

    private static func insertableFrame(_ frame: [UInt8]) throws(WireError) -> (kindOffset: Int, end: Int) {
        let (kindOffset, end) = try prelude(frame)
        guard frame[kindOffset] & FrameFlags.delivery.rawValue == 0 else {
            throw WireError(.invalidValue, offset: kindOffset, "the frame has a delivery header already")
        }
        return (kindOffset, end)
    }

    /// The kind, delivery header and type id of `frame`, after checking its prelude, length
    /// and checksum (so a corrupted header is never believed) and the delivery header's
    /// ranges.
    /// - Throws: the ``WireError`` of the first check that fails, at its offset.
    package static func peek(_ frame: [UInt8]) throws(WireError) -> Peek {
        let (kindOffset, end) = try prelude(frame)
        let expected = CRC32C.checksum(frame, range: 0..<(end - 4))
        let stored =
            UInt32(frame[end - 4]) | UInt32(frame[end - 3]) << 8 | UInt32(frame[end - 2]) << 16 | UInt32(frame[end - 1]) << 24
        guard expected == stored else {
            throw WireError(
                .checksumMismatch, offset: end - 4,
                "checksum \(Hex.literal(stored, width: 8)) does not match the frame's \(Hex.literal(expected, width: 8))")
        }
        guard frame[1] == Frame.version else {
            throw WireError(.unsupportedVersion, offset: 1, "frame version \(frame[1]) is not supported (1 is)")
        }
        var reader = try ByteReader(frame, range: kindOffset..<(end - 4))
        let kindByte = try reader.readByte()
        let kind = FrameKind(rawValue: kindByte & 0x0F)
        var delivery: DeliveryHeader?
        if kindByte & FrameFlags.delivery.rawValue != 0 {
            delivery = try DeliveryHeader.read(from: &reader)
        }
        let typeID = try reader.readUVarint()
        return Peek(kind: kind, delivery: delivery, typeID: typeID)
    }

    /// The offset of the kind byte and the end of the frame that exactly fills `frame`.
    private static func prelude(_ frame: [UInt8]) throws(WireError) -> (kindOffset: Int, end: Int) {
        guard frame.count >= 2 else {
            throw WireError(.truncated, offset: 0, "frame is incomplete: input ends after \(frame.count) bytes")
        }
        guard frame[0] == Frame.magic else {
            throw WireError(.badMagic, offset: 0, "expected magic byte 0xC7, found \(Hex.literal(frame[0], width: 2))")
        }
        var reader = try ByteReader(frame, range: 2..<frame.count)
        let length = try reader.readUVarint()
        let kindOffset = reader.position
        guard length >= 5 else {
            throw WireError(.frameTooSmall, offset: 2, "frame length \(length) is below 5")
        }
        guard length == UInt64(frame.count - kindOffset) else {
            throw WireError(
                length > UInt64(frame.count - kindOffset) ? .truncated : .trailingBytes, offset: 2,
                "frame length \(length) does not match the \(frame.count - kindOffset) bytes after it")
        }
        return (kindOffset, frame.count)
    }
}
