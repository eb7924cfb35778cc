/// Writes frames in the version 1 layout of Spec/FORMAT.md.
public struct FrameEncoder: Sendable {
    /// The limits frames must fit; ``Limits/maxFrameSize`` bounds every frame written.
    public var limits: Limits

    /// Creates an encoder.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Encodes `frame` into a new byte array.
    /// - Throws: a ``WireError`` when the frame's fields are invalid or it is over the size limit.
    public func encode(_ frame: Frame) throws(WireError) -> [UInt8] {
        var writer = ByteWriter()
        try encode(frame, into: &writer)
        return writer.bytes
    }

    /// Appends `frame` to `writer`.
    /// - Throws: a ``WireError`` when the frame's fields are invalid or it is over the size limit;
    ///   nothing is written then.
    public func encode(_ frame: Frame, into writer: inout ByteWriter) throws(WireError) {
        try frame.body.withUnsafeWireBytes { (body) throws(WireError) in
            try encode(
                kind: frame.kind, typeID: frame.typeID, compression: frame.compression,
                fragment: frame.fragment, session: frame.session, delivery: frame.delivery, body: body, into: &writer)
        }
    }

    /// The size of the frame these fields and a body of `bodyCount` bytes make.
    public static func frameSize(
        typeID: UInt64, compression: CompressionInfo?, fragment: FragmentInfo?, session: UInt32? = nil,
        delivery: DeliveryHeader? = nil, bodyCount: Int
    ) -> Int {
        let inner = innerLength(
            typeID: typeID, compression: compression, fragment: fragment, session: session,
            delivery: delivery, bodyCount: bodyCount)
        return 2 + Varint.encodedLength(UInt64(inner)) + inner
    }

    /// Appends a frame with these fields and `body`, copying the body once, straight into
    /// `writer`. This is the path for single-frame messages: no intermediate buffer.
    /// - Throws: a ``WireError`` when the fields are invalid or the frame is over the size
    ///   limit; nothing is written then.
    public func encode(
        kind: FrameKind,
        typeID: UInt64,
        compression: CompressionInfo? = nil,
        fragment: FragmentInfo? = nil,
        session: UInt32? = nil,
        delivery: DeliveryHeader? = nil,
        body: UnsafeRawBufferPointer,
        into writer: inout ByteWriter
    ) throws(WireError) {
        try Self.validate(kind: kind, typeID: typeID, fragment: fragment, session: session, bodyCount: body.count)
        if let delivery {
            try DeliveryHeader.validate(
                stream: UInt64(delivery.stream), sequence: delivery.sequence,
                streamOffset: nil, sequenceOffset: nil)
        }
        let inner = Self.innerLength(
            typeID: typeID, compression: compression, fragment: fragment, session: session,
            delivery: delivery, bodyCount: body.count)
        let total = 2 + Varint.encodedLength(UInt64(inner)) + inner
        guard total <= limits.maxFrameSize else {
            throw WireError(
                .frameTooLarge, "frame of \(total) bytes is over maxFrameSize \(limits.maxFrameSize); fragment the message")
        }
        writer.reserve(additional: total)
        let start = writer.count
        writer.write(Frame.magic)
        writer.write(Frame.version)
        writer.writeUVarint(UInt64(inner))
        var flags: UInt8 = compression == nil ? 0 : FrameFlags.compressed.rawValue
        if session != nil { flags |= FrameFlags.session.rawValue }
        if delivery != nil { flags |= FrameFlags.delivery.rawValue }
        writer.write(kind.rawValue | flags)
        if let delivery {
            writer.writeUVarint(UInt64(delivery.stream))
            writer.writeUVarint(delivery.sequence)
        }
        writer.writeUVarint(typeID)
        if let fragment {
            writer.writeUVarint(fragment.messageID)
            writer.writeUVarint(UInt64(fragment.index))
            writer.writeUVarint(UInt64(fragment.count))
            writer.writeUVarint(fragment.totalLength)
            writer.writeUVarint(fragment.offset)
        }
        if let session {
            writer.writeUVarint(UInt64(session))
        }
        if let compression {
            writer.write(compression.codec)
            writer.writeUVarint(UInt64(compression.dictionaryID))
            writer.writeUVarint(compression.contentSize)
        }
        writer.write(contentsOf: body)
        let crc = writer.bytes.withUnsafeBytes { raw in
            CRC32C.update(0, UnsafeRawBufferPointer(rebasing: raw[start...]))
        }
        writer.writeFixed32LE(crc)
    }

    /// Writes a whole, uncompressed frame whose body `writeBody` writes straight into the
    /// frame's buffer of exactly the frame's size: one allocation, and the body is never
    /// copied (the path for a generated message that fits one frame).
    /// - Parameters:
    ///   - kind: `FrameKind.data` or `FrameKind.control`.
    ///   - typeID: the message type id (control id for control frames).
    ///   - session: the session id for the session header, nil for none.
    ///   - bodySize: the exact number of bytes `writeBody` writes.
    ///   - writeBody: writes the body into the sink.
    /// - Returns: the frame, or nil when `writeBody` wrote other than `bodySize` bytes.
    /// - Throws: a ``WireError`` when the fields are invalid or the frame is over the size
    ///   limit.
    public func wholeFrame(
        kind: FrameKind, typeID: UInt64, session: UInt32? = nil, bodySize: Int, writeBody: (inout _WireSink) -> Void
    ) throws(WireError) -> [UInt8]? {
        try Self.validate(kind: kind, typeID: typeID, fragment: nil, session: session, bodyCount: bodySize)
        let inner = Self.innerLength(typeID: typeID, compression: nil, fragment: nil, session: session, bodyCount: bodySize)
        let total = 2 + Varint.encodedLength(UInt64(inner)) + inner
        guard total <= limits.maxFrameSize else {
            throw WireError(
                .frameTooLarge, "frame of \(total) bytes is over maxFrameSize \(limits.maxFrameSize); fragment the message")
        }
        return _WireSink.encode(size: total) { sink in
            sink.writeByte(Frame.magic)
            sink.writeByte(Frame.version)
            sink.writeUVarint(UInt64(inner))
            sink.writeByte(kind.rawValue | (session == nil ? 0 : FrameFlags.session.rawValue))
            sink.writeUVarint(typeID)
            if let session {
                sink.writeUVarint(UInt64(session))
            }
            writeBody(&sink)
            // A body of the wrong size leaves the sink short or overflowed, and encode
            // returns nil; the checksum covers whatever was written.
            let crc = CRC32C.update(0, UnsafeRawBufferPointer(start: sink.base, count: sink.count))
            sink.writeFixed32LE(crc)
        }
    }

    /// Bytes after the length field: kind byte, delivery, kind, session and compression headers, body, CRC.
    static func innerLength(
        typeID: UInt64, compression: CompressionInfo?, fragment: FragmentInfo?, session: UInt32? = nil,
        delivery: DeliveryHeader? = nil, bodyCount: Int
    ) -> Int {
        var length = 1 + Varint.encodedLength(typeID) + bodyCount + 4
        if let delivery {
            length += delivery.encodedSize
        }
        if let session {
            length += Varint.encodedLength(UInt64(session))
        }
        if let fragment {
            length += Varint.encodedLength(fragment.messageID)
            length += Varint.encodedLength(UInt64(fragment.index))
            length += Varint.encodedLength(UInt64(fragment.count))
            length += Varint.encodedLength(fragment.totalLength)
            length += Varint.encodedLength(fragment.offset)
        }
        if let compression {
            length += 1 + Varint.encodedLength(UInt64(compression.dictionaryID))
            length += Varint.encodedLength(compression.contentSize)
        }
        return length
    }

    static func validate(
        kind: FrameKind, typeID: UInt64, fragment: FragmentInfo?, session: UInt32? = nil, bodyCount: Int
    ) throws(WireError) {
        guard session != 0 else {
            throw WireError(.invalidValue, "session id 0 is reserved; session ids are 1...\(UInt32.max)")
        }
        guard kind.isDefined else {
            throw WireError(.unknownKind, "frame kind \(kind.rawValue) is reserved in version 1")
        }
        guard (1...Frame.maxTypeID).contains(typeID) else {
            throw WireError(.invalidTypeID, "type id \(typeID) is outside 1...\(Frame.maxTypeID)")
        }
        guard (kind == .fragment) == (fragment != nil) else {
            throw WireError(
                .invalidFragment,
                kind == .fragment
                    ? "a fragment frame needs a fragment header"
                    : "only fragment frames carry a fragment header")
        }
        if let fragment {
            try FragmentInfo.validate(fragment, bodyCount: bodyCount)
        }
    }
}

extension FragmentInfo {
    /// Where a decoded fragment's fields start in the input, so that an error points at
    /// the field whose value is wrong.
    struct FieldOffsets {
        let index: Int
        let count: Int
        let offset: Int
    }

    /// Checks the fields that one fragment can be checked on alone (Spec/FORMAT.md,
    /// "Fragment frames"): count at least 2, index below count, the body inside the total.
    static func validate(_ info: FragmentInfo, bodyCount: Int) throws(WireError) {
        try validateCountAndIndex(count: UInt64(info.count), index: UInt64(info.index), at: nil)
        try validateRange(info, bodyCount: bodyCount, at: nil)
    }

    /// Rule 2: count at least 2 (an error points at `count`), index below count (at `index`).
    static func validateCountAndIndex(count: UInt64, index: UInt64, at offsets: FieldOffsets?) throws(WireError) {
        guard count >= 2 else {
            throw WireError(.invalidFragment, offset: offsets?.count, "fragment count \(count) is below 2")
        }
        guard index < count else {
            throw WireError(.invalidFragment, offset: offsets?.index, "fragment index \(index) is not below count \(count)")
        }
    }

    /// Rule 3: the fragment's bytes lie inside the total length (an error points at `offset`).
    static func validateRange(_ info: FragmentInfo, bodyCount: Int, at offsets: FieldOffsets?) throws(WireError) {
        // Both values are below 2^64; compare without overflow.
        guard info.offset <= info.totalLength, UInt64(bodyCount) <= info.totalLength - info.offset else {
            throw WireError(
                .invalidFragment, offset: offsets?.offset,
                "fragment bytes \(info.offset)..<\(info.offset)+\(bodyCount) run past total length \(info.totalLength)")
        }
    }
}
