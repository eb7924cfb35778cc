import GroupWireJSON

/// Reads frames in the version 1 layout of Spec/FORMAT.md, checking every field against
/// its ``Limits`` before anything is allocated.
public struct FrameDecoder: Sendable {
    /// The limits every frame is checked against.
    public var limits: Limits

    /// Creates a decoder.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Decodes exactly one frame that fills `bytes`.
    /// - Throws: a ``WireError`` saying what is wrong and at which offset; a complete frame
    ///   followed by more bytes is ``WireError/Kind/trailingBytes``.
    public func decode(_ bytes: [UInt8]) throws(WireError) -> Frame {
        try decodeSingle(bytes, copyBody: true).frame
    }

    /// The one frame that fills `bytes`, and where it ends (which is `bytes.count`).
    private func decodeSingle(_ bytes: [UInt8], copyBody: Bool) throws(WireError) -> (frame: Frame, body: Range<Int>) {
        var frame = Frame(kind: .data, typeID: 0, body: [])
        switch scan(bytes, from: 0, copyBody: copyBody, into: &frame) {
        case .needMore:
            // `truncated` points at the first byte of what the input ends inside: the frame.
            throw WireError(.truncated, offset: 0, "frame is incomplete: input ends after \(bytes.count) bytes")
        case .invalid(let error, _), .unconfirmed(let error):
            throw error
        case .frame(let bodyStart, let end):
            guard end == bytes.count else {
                throw WireError(.trailingBytes, offset: end, "\(bytes.count - end) bytes follow the frame")
            }
            return (frame, bodyStart..<(end - 4))
        }
    }

    /// Decodes back-to-back frames, reporting each invalid one and carrying on after it.
    /// - Returns: one result per frame or invalid run, in input order, with its offset.
    public func decodeAll(_ bytes: [UInt8]) -> [FrameStreamEvent] {
        decodeAll(chunks: CollectionOfOne(bytes))
    }

    /// What ``scan(_:from:upTo:copyBody:into:)`` found at a position.
    enum Scan {
        /// More bytes are needed to decide.
        case needMore
        /// A valid frame, ending at `end`, whose body starts at `bodyStart` (and ends where
        /// its 4-byte checksum starts); the frame is in the scan's `into` variable. Not in
        /// this case's payload: a frame, a large value, was copied into the case and out
        /// of it again, about 100 instructions a frame on the capture validator's path.
        case frame(bodyStart: Int, end: Int)
        /// A run of bytes without a magic byte (ending at `resume`, the next 0xC7 or the
        /// end of the bytes), or a frame whose checksum passed but whose content is invalid
        /// (`resume` is its end: a confirmed length may be skipped).
        case invalid(WireError, resume: Int)
        /// A candidate frame at `start` whose length its checksum has not confirmed: a bad
        /// length, or a checksum that does not match. Its length is not trusted, so reading
        /// resumes at the byte after its magic byte (Spec/FORMAT.md, "Reading a stream").
        case unconfirmed(WireError)
    }

    /// Decodes exactly one frame that fills `bytes`, like ``decode(_:)``, but leaves the
    /// frame's body empty and returns where the body lies in `bytes` instead, so a caller
    /// that copies the body to its final place (the ``Reassembler``) saves one copy and one
    /// allocation per frame.
    /// - Throws: the errors of ``decode(_:)``.
    public func decodeBorrowingBody(_ bytes: [UInt8]) throws(WireError) -> (frame: Frame, body: Range<Int>) {
        try decodeSingle(bytes, copyBody: false)
    }

    /// The one valid frame that fills `range` of `bytes` (which may hold more around it,
    /// as a capture reader's buffer does), its body left where it lies; nil for anything
    /// else, whose error ``decode(_:)`` of those bytes reports. For a reader that takes
    /// the common case in place and hands every other one to the general path.
    ///
    /// The frame is written to `frame` and its body's range returned (nil: `frame` holds
    /// nothing to use; it may have been written, as by a valid frame shorter than `range`):
    /// an optional holding a `Frame`, a large value, was destroyed through the runtime's
    /// generic value witnesses, about 190 instructions a frame.
    package func decodeInPlace(_ bytes: [UInt8], in range: Range<Int>, into frame: inout Frame) -> Range<Int>? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count,
            case .frame(let bodyStart, let end) = scan(
                bytes, from: range.lowerBound, upTo: range.upperBound, copyBody: false, into: &frame),
            end == range.upperBound
        else { return nil }
        return bodyStart..<(end - 4)
    }

    /// Examines the bytes at `start`, up to `limit` (the end of `bytes` when nil): a frame
    /// that would run past it needs more. Every error's offset is absolute in `bytes`.
    /// A valid frame is written to `frame` (anything else may leave it changed).
    /// `copyBody: false` leaves the frame's body empty (for ``decodeBorrowingBody(_:)``).
    func scan(
        _ bytes: [UInt8], from start: Int, upTo limit: Int? = nil, copyBody: Bool = true, into frame: inout Frame
    ) -> Scan {
        let count = limit ?? bytes.count
        guard start < count else { return .needMore }
        guard bytes[start] == Frame.magic else {
            let next = bytes[(start + 1)..<count].firstIndex(of: Frame.magic) ?? count
            return .invalid(
                WireError(
                    .badMagic, offset: start,
                    "expected magic byte 0xC7, found \(Hex.literal(bytes[start], width: 2)); skipped \(next - start) bytes"),
                resume: next)
        }
        guard start + 2 < count else { return .needMore }
        // The length varint: an incomplete one asks for more bytes.
        var cursor = start + 2
        var failure = Varint.Failure.truncated
        let read = bytes.withUnsafeBufferPointer { Varint.read($0, at: &cursor, end: count, failure: &failure) }
        guard let length = read else {
            switch failure {
            case .truncated: return .needMore
            case .tooLarge:
                return .unconfirmed(WireError(.malformedVarint, offset: start + 2, "frame length varint does not fit 64 bits"))
            case .notMinimal:
                return .unconfirmed(
                    WireError(.malformedVarint, offset: start + 2, "frame length varint is not minimally encoded"))
            }
        }
        let prelude = cursor - start
        guard length >= 5 else {
            return .unconfirmed(
                WireError(
                    .frameTooSmall, offset: start + 2,
                    "frame length \(length) is below the minimum of 5 (kind byte and checksum)"))
        }
        guard length <= UInt64(limits.maxFrameSize), prelude + Int(length) <= limits.maxFrameSize else {
            return .unconfirmed(
                WireError(
                    .frameTooLarge, offset: start + 2,
                    "frame of \(UInt64(prelude) &+ length) bytes is over maxFrameSize \(limits.maxFrameSize)"))
        }
        // safe because: length <= maxFrameSize (an Int), so the sum cannot overflow.
        let end = cursor + Int(length)
        guard end <= count else { return .needMore }
        let stored =
            UInt32(bytes[end - 4]) | UInt32(bytes[end - 3]) << 8 | UInt32(bytes[end - 2]) << 16 | UInt32(bytes[end - 1]) << 24
        let computed = CRC32C.checksum(bytes, range: start..<(end - 4))
        guard stored == computed else {
            return .unconfirmed(
                WireError(
                    .checksumMismatch, offset: end - 4,
                    "stored crc32c \(Hex.literal(stored, width: 8)) but the \(end - 4 - start) bytes it covers give \(Hex.literal(computed, width: 8))"
                ))
        }
        let version = bytes[start + 1]
        guard version == Frame.version else {
            return .invalid(
                WireError(
                    .unsupportedVersion, offset: start + 1,
                    "frame version \(version) is not supported (this decoder reads version \(Frame.version)); frame skipped"),
                resume: end)
        }
        do throws(WireError) {
            var bodyStart = end - 4
            try parseHeader(bytes, kindAt: cursor, end: end, copyBody: copyBody, bodyStart: &bodyStart, into: &frame)
            return .frame(bodyStart: bodyStart, end: end)
        } catch {
            return .invalid(error, resume: end)
        }
    }

    /// Parses the kind byte, the headers and the body of a frame whose prelude and
    /// checksum have been checked into `frame` (written only when valid); sets `bodyStart`
    /// to where the body starts in `bytes`.
    private func parseHeader(
        _ bytes: [UInt8], kindAt kindOffset: Int, end: Int, copyBody: Bool, bodyStart: inout Int, into frame: inout Frame
    ) throws(WireError) {
        // Most traffic is a data or control frame whose only header is the session's (or
        // none), with a type id and a session id of one byte each: read where it lies.
        // Anything else, and everything the checks below would refuse, takes the general
        // way, which says why.
        let limit = end - 4
        if kindOffset + 2 <= limit {
            let kindByte = bytes[kindOffset]
            // Kind 0 or 1 and no flag but `session` (0x20).
            if kindByte & 0xDF <= 1 {
                let hasSession = kindByte & 0x20 != 0
                let headerEnd = kindOffset + (hasSession ? 3 : 2)
                let typeID = bytes[kindOffset + 1]
                // Both in 1...127 (a byte of 0 wraps to 255).
                if headerEnd <= limit, typeID &- 1 < 0x7F {
                    let session = hasSession ? bytes[kindOffset + 2] : 1
                    if session &- 1 < 0x7F {
                        bodyStart = headerEnd
                        frame = Frame(
                            kind: FrameKind(rawValue: kindByte & 0x0F), typeID: UInt64(typeID), compression: nil,
                            fragment: nil, session: hasSession ? UInt32(session) : nil, delivery: nil,
                            body: copyBody ? Array(bytes[headerEnd..<limit]) : [])
                        return
                    }
                }
            }
        }
        var reader = try ByteReader(bytes, range: kindOffset..<(end - 4))
        let kindByte = try reader.readByte()
        let kind = FrameKind(rawValue: kindByte & 0x0F)
        let flags = FrameFlags(rawValue: kindByte & 0xF0)
        guard kind.isDefined else {
            throw WireError(.unknownKind, offset: kindOffset, "frame kind \(kind.rawValue) is reserved in version 1")
        }
        guard flags.subtracting(.known).isEmpty else {
            throw WireError(
                .unknownFlags, offset: kindOffset,
                "reserved flag bits \(Hex.literal(flags.subtracting(.known).rawValue, width: 2)) are set")
        }
        var delivery: DeliveryHeader?
        if flags.contains(.delivery) {
            delivery = try DeliveryHeader.read(from: &reader)
        }
        let typeOffset = reader.position
        let typeID = try reader.readUVarint()
        guard (1...Frame.maxTypeID).contains(typeID) else {
            throw WireError(.invalidTypeID, offset: typeOffset, "type id \(typeID) is outside 1...\(Frame.maxTypeID)")
        }
        var fragment: FragmentInfo?
        var fieldOffsets: FragmentInfo.FieldOffsets?
        if kind == .fragment {
            let messageID = try reader.readUVarint()
            let indexOffset = reader.position
            let index = try reader.readUVarint()
            let countOffset = reader.position
            let count = try reader.readUVarint()
            let totalOffset = reader.position
            let totalLength = try reader.readUVarint()
            let offsetOffset = reader.position
            let offset = try reader.readUVarint()
            let offsets = FragmentInfo.FieldOffsets(index: indexOffset, count: countOffset, offset: offsetOffset)
            // Rule 1 of "Consistency rules", then rule 2, before the compression header.
            guard count <= UInt64(min(limits.maxFragmentCount, Int(UInt32.max))) else {
                throw WireError(
                    .limitExceeded, offset: countOffset,
                    "fragment count \(count) is over maxFragmentCount \(limits.maxFragmentCount)")
            }
            guard totalLength <= UInt64(limits.maxMessageSize) else {
                throw WireError(
                    .limitExceeded, offset: totalOffset,
                    "message total length \(totalLength) is over maxMessageSize \(limits.maxMessageSize)")
            }
            try FragmentInfo.validateCountAndIndex(count: count, index: index, at: offsets)
            // safe because: count fits UInt32 (checked above) and index < count.
            let info = FragmentInfo(
                messageID: messageID, index: UInt32(index), count: UInt32(count),
                totalLength: totalLength, offset: offset)
            fragment = info
            fieldOffsets = offsets
        }
        var session: UInt32?
        if flags.contains(.session) {
            let sessionOffset = reader.position
            let id = try reader.readUVarint()
            guard (1...UInt64(UInt32.max)).contains(id) else {
                throw WireError(.invalidValue, offset: sessionOffset, "session id \(id) is outside 1...\(UInt32.max)")
            }
            session = UInt32(id)
        }
        var compression: CompressionInfo?
        if flags.contains(.compressed) {
            let codecOffset = reader.position
            let codec = try reader.readByte()
            guard codec == CompressionInfo.zstdCodec else {
                throw WireError(.unknownCodec, offset: codecOffset, "compression codec \(codec) is not defined (1 is zstd)")
            }
            let dictionaryOffset = reader.position
            let dictionaryID = try reader.readUVarint()
            guard dictionaryID <= UInt64(UInt32.max) else {
                throw WireError(.invalidValue, offset: dictionaryOffset, "dictionary id \(dictionaryID) does not fit 32 bits")
            }
            let sizeOffset = reader.position
            let contentSize = try reader.readUVarint()
            guard contentSize <= UInt64(limits.maxMessageSize) else {
                throw WireError(
                    .limitExceeded, offset: sizeOffset,
                    "decompressed size \(contentSize) is over maxMessageSize \(limits.maxMessageSize)")
            }
            compression = CompressionInfo(codec: codec, dictionaryID: UInt32(dictionaryID), contentSize: contentSize)
        }
        let bodyCount = reader.remaining
        bodyStart = reader.position
        let body = copyBody ? try reader.readBytes(count: bodyCount, "frame body") : []
        if let fragment {
            // Rule 3 needs the body's length, known once the compression header is read.
            try FragmentInfo.validateRange(fragment, bodyCount: bodyCount, at: fieldOffsets)
        }
        frame = Frame(
            kind: kind, typeID: typeID, compression: compression, fragment: fragment, session: session,
            delivery: delivery, body: body)
    }
}
