/// Splits an encoded message body into frames that each fit ``Limits/maxFrameSize``.
///
/// A body that fits one frame becomes a single ``FrameKind/data`` frame, written straight
/// from the caller's bytes with no intermediate copy. A larger body becomes ``FrameKind/fragment``
/// frames laid out by ``FragmentLayout``: every frame repeats the type id, the message id,
/// the count, the total length and (for a compressed body) the compression header, and
/// each has its own CRC32C. Spec/FORMAT.md, "Fragment frames", is the normative description.
///
/// The body is whatever goes on the wire: for a compressed message, the compressed bytes,
/// with `compression` describing them. Message ids are chosen by the caller and must be
/// unique per sender for the life of a session (a counter is enough). A `session` id puts
/// the session header on every frame of the message (Spec/FORMAT.md, "Sessions").
public struct Fragmenter: Sendable {
    /// The limits frames must fit: ``Limits/maxFrameSize`` bounds every frame,
    /// ``Limits/maxMessageSize`` the body and ``Limits/maxFragmentCount`` the fragment count.
    public var limits: Limits

    /// Creates a fragmenter.
    /// - Parameter limits: the receiver's limits; the default frame size fits a 64 KB transport.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// How a body of `bodyCount` bytes will be cut, or nil when it fits one data frame.
    ///
    /// Every fragment frame of the layout is at most ``Limits/maxFrameSize`` bytes: the
    /// fragment body size leaves room for the largest header any fragment of this message
    /// can have.
    /// - Throws: ``WireError/Kind/invalidTypeID`` for a type id outside 1 ... 2^32-1;
    ///   ``WireError/Kind/limitExceeded`` when the body is over ``Limits/maxMessageSize`` or
    ///   needs more than ``Limits/maxFragmentCount`` fragments; ``WireError/Kind/frameTooLarge``
    ///   when the frame size leaves no room for a fragment body.
    public func layout(
        typeID: UInt64, messageID: UInt64, compression: CompressionInfo? = nil, session: UInt32? = nil, bodyCount: Int
    ) throws(WireError) -> FragmentLayout? {
        guard (1...Frame.maxTypeID).contains(typeID) else {
            throw WireError(.invalidTypeID, "type id \(typeID) is outside 1...\(Frame.maxTypeID)")
        }
        guard bodyCount >= 0, bodyCount <= limits.maxMessageSize else {
            throw WireError(.limitExceeded, "message body of \(bodyCount) bytes is over maxMessageSize \(limits.maxMessageSize)")
        }
        let single = FrameEncoder.frameSize(
            typeID: typeID, compression: compression, fragment: nil, session: session, bodyCount: bodyCount)
        if single <= limits.maxFrameSize {
            return nil
        }
        // The largest fragment header of this message: index, count and offset are all at
        // most the total length, so their varints are at most as long as its varint.
        let total = UInt64(bodyCount)
        let widest = FragmentInfo(
            messageID: messageID, index: UInt32(clamping: total), count: UInt32(clamping: total),
            totalLength: total, offset: total)
        let headerAndChecksum = FrameEncoder.innerLength(
            typeID: typeID, compression: compression, fragment: widest, session: session, bodyCount: 0)
        let chunk = limits.maxFrameSize - 2 - Varint.encodedLength(UInt64(clamping: limits.maxFrameSize)) - headerAndChecksum
        guard chunk > 0 else {
            throw WireError(
                .frameTooLarge,
                "maxFrameSize \(limits.maxFrameSize) leaves no room for a fragment body after a \(headerAndChecksum)-byte header")
        }
        // A data frame did not fit and a fragment header is longer, so chunk < bodyCount and
        // the layout has at least two fragments.
        guard let layout = FragmentLayout(totalLength: bodyCount, fragmentBodySize: chunk) else {
            throw WireError(.frameTooLarge, "a \(bodyCount)-byte body cannot be cut into fragments of \(chunk) bytes")
        }
        guard layout.count <= limits.maxFragmentCount else {
            throw WireError(
                .limitExceeded,
                "a \(bodyCount)-byte body needs \(layout.count) fragments of \(chunk) bytes, over maxFragmentCount \(limits.maxFragmentCount)"
            )
        }
        return layout
    }

    /// Appends every frame of the message to `writer`, back to back (a stream or a file).
    /// - Throws: the errors of ``layout(typeID:messageID:compression:session:bodyCount:)``; nothing
    ///   is written then.
    public func encode(
        typeID: UInt64, messageID: UInt64, compression: CompressionInfo? = nil, session: UInt32? = nil, body: [UInt8],
        into writer: inout ByteWriter
    ) throws(WireError) {
        let layout = try layout(
            typeID: typeID, messageID: messageID, compression: compression, session: session, bodyCount: body.count)
        // Reserve every frame's bytes at once, so the buffer is allocated exactly once.
        let frameCount = layout?.count ?? 1
        let total = (0..<frameCount).reduce(0) { sum, index in
            sum
                + frameSize(
                    index, of: layout, typeID: typeID, messageID: messageID, compression: compression, session: session,
                    bodyCount: body.count)
        }
        writer.reserve(additional: total)
        try body.withUnsafeWireBytes { (raw) throws(WireError) in
            for index in 0..<frameCount {
                try writeFrame(
                    index, of: layout, typeID: typeID, messageID: messageID, compression: compression, session: session,
                    body: raw, into: &writer)
            }
        }
    }

    /// Returns every frame of the message, one byte array per frame (one transport message each).
    /// - Throws: the errors of ``layout(typeID:messageID:compression:session:bodyCount:)``.
    public func frames(
        typeID: UInt64, messageID: UInt64, compression: CompressionInfo? = nil, session: UInt32? = nil, body: [UInt8]
    ) throws(WireError) -> [[UInt8]] {
        let layout = try layout(
            typeID: typeID, messageID: messageID, compression: compression, session: session, bodyCount: body.count)
        return try body.withUnsafeWireBytes { (raw) throws(WireError) in
            let frameCount = layout?.count ?? 1
            var frames: [[UInt8]] = []
            frames.reserveCapacity(frameCount)
            for index in 0..<frameCount {
                var writer = ByteWriter()
                try writeFrame(
                    index, of: layout, typeID: typeID, messageID: messageID, compression: compression, session: session,
                    body: raw, into: &writer)
                frames.append(writer.bytes)
            }
            return frames
        }
    }

    /// Calls `emit` with each frame of the message in order, one at a time, so that only
    /// one frame exists besides the body (the way to send a large message with bounded memory).
    ///
    /// Frames are written into one reused buffer: when `emit` does not keep the array it
    /// is given, no frame allocates. An array that `emit` keeps stays valid (value
    /// semantics: the next frame then gets a buffer of its own).
    /// - Throws: the errors of ``layout(typeID:messageID:compression:session:bodyCount:)`` before any
    ///   frame is emitted, or whatever `emit` throws (no further frames are emitted then).
    public func forEachFrame(
        typeID: UInt64, messageID: UInt64, compression: CompressionInfo? = nil, session: UInt32? = nil, body: [UInt8],
        _ emit: ([UInt8]) throws -> Void
    ) throws {
        let layout = try layout(
            typeID: typeID, messageID: messageID, compression: compression, session: session, bodyCount: body.count)
        var writer = ByteWriter(capacity: min(limits.maxFrameSize, body.count + 64))
        try body.withUnsafeBytes { raw in
            let frameCount = layout?.count ?? 1
            for index in 0..<frameCount {
                writer.storage.removeAll(keepingCapacity: true)
                try writeFrame(
                    index, of: layout, typeID: typeID, messageID: messageID, compression: compression, session: session,
                    body: raw, into: &writer)
                try emit(writer.storage)
            }
        }
    }

    /// The size of frame `index` of the message (see ``writeFrame``).
    private func frameSize(
        _ index: Int, of layout: FragmentLayout?, typeID: UInt64, messageID: UInt64, compression: CompressionInfo?,
        session: UInt32?, bodyCount: Int
    ) -> Int {
        guard let layout else {
            return FrameEncoder.frameSize(
                typeID: typeID, compression: compression, fragment: nil, session: session, bodyCount: bodyCount)
        }
        let range = layout.range(ofFragment: index)
        return FrameEncoder.frameSize(
            typeID: typeID, compression: compression,
            fragment: fragmentInfo(index, of: layout, messageID: messageID), session: session,
            bodyCount: range.count)
    }

    /// The fragment header of fragment `index`.
    private func fragmentInfo(_ index: Int, of layout: FragmentLayout, messageID: UInt64) -> FragmentInfo {
        // layout() checked count <= maxFragmentCount, so index and count fit UInt32.
        FragmentInfo(
            messageID: messageID, index: UInt32(index), count: UInt32(layout.count),
            totalLength: UInt64(layout.totalLength), offset: UInt64(layout.range(ofFragment: index).lowerBound))
    }

    /// Writes frame `index` of the message: the whole body as a data frame when `layout`
    /// is nil, else fragment `index`, copying its slice of the body once, into `writer`.
    private func writeFrame(
        _ index: Int, of layout: FragmentLayout?, typeID: UInt64, messageID: UInt64,
        compression: CompressionInfo?, session: UInt32?, body: UnsafeRawBufferPointer, into writer: inout ByteWriter
    ) throws(WireError) {
        let encoder = FrameEncoder(limits: limits)
        guard let layout else {
            try encoder.encode(kind: .data, typeID: typeID, compression: compression, session: session, body: body, into: &writer)
            return
        }
        let range = layout.range(ofFragment: index)
        let info = fragmentInfo(index, of: layout, messageID: messageID)
        try encoder.encode(
            kind: .fragment, typeID: typeID, compression: compression, fragment: info, session: session,
            body: UnsafeRawBufferPointer(rebasing: body[range]), into: &writer)
    }
}
