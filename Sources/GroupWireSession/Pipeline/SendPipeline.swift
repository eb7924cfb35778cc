import GroupWire

/// The sending half of the messenger's pipeline: payload → compression → frame →
/// fragments, synchronous and without state, so tools and benchmarks use the very path
/// a ``Messenger`` sends through.
public struct SendPipeline: Sendable {
    /// The codec that compresses payloads, or nil: payloads then travel uncompressed.
    public let codec: (any PayloadCodec)?

    /// Creates a pipeline.
    public init(codec: (any PayloadCodec)? = nil) {
        self.codec = codec
    }

    /// The frames (one transport message each) that carry `payload` to a recipient with
    /// `profile`.
    /// - Parameters:
    ///   - kind: `FrameKind.data` or `FrameKind.control`.
    ///   - typeID: the message type id.
    ///   - payload: the encoded message.
    ///   - messageID: the sender's id for this message, unique among its messages in flight
    ///     (names the fragments, when there are several).
    ///   - profile: the recipient's profile.
    ///   - session: the session id every frame names in its session header, nil for none.
    /// - Returns: one frame, or the fragments of a body over the profile's frame size.
    /// - Throws: `WireError.Kind.messageTooLarge` when the payload is over the
    ///   profile's message size (nothing is sent then),
    ///   `WireError.Kind.unsupportedVersion` for an envelope version other than
    ///   1, `WireError.Kind.unknownCodec` when the profile names a codec the
    ///   pipeline lacks, and the codec's and `Fragmenter`'s errors.
    public func frames(
        kind: FrameKind = .data, typeID: UInt64, payload: [UInt8], messageID: UInt64, profile: PeerProfile, session: UInt32? = nil
    ) throws(WireError) -> [[UInt8]] {
        let (compression, body) = try body(for: payload, profile: profile)
        guard kind == .data || kind == .control else {
            throw WireError(.invalidValue, "a message travels in a data or control frame, not \(kind)")
        }
        let limits = profile.limits
        let single = FrameEncoder.frameSize(
            typeID: typeID, compression: compression, fragment: nil, session: session, bodyCount: body.count)
        guard kind == .control || single <= limits.maxFrameSize else {
            return try Fragmenter(limits: limits).frames(
                typeID: typeID, messageID: messageID, compression: compression, session: session, body: body)
        }
        // One whole frame (every control message; a data message that fits): written
        // straight into a buffer of its exact size, the frame's only allocation. The bytes
        // are those `Fragmenter` writes for a body that needs no fragments.
        var writer = ByteWriter(capacity: single)
        var failure: WireError?
        body.withUnsafeBytes { raw in
            do throws(WireError) {
                try FrameEncoder(limits: limits).encode(
                    kind: kind, typeID: typeID, compression: compression, session: session, body: raw, into: &writer)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return [writer.bytes]
    }

    /// The one frame that carries `message` to a recipient with `profile`, written with the
    /// payload encoded straight into it (one allocation in all), when that is possible: the
    /// type knows its payload size up front (generated messages), the payload stays under
    /// the codec's compression threshold (or the profile compresses nothing) and the frame
    /// fits the profile's frame size. Otherwise nil: encode the payload and call
    /// ``frames(kind:typeID:payload:messageID:profile:session:)``, which makes the same bytes.
    /// - Throws: as ``frames(kind:typeID:payload:messageID:profile:session:)``.
    public func frame<Message: MessageCodable>(
        kind: FrameKind = .data, message: Message, profile: PeerProfile, session: UInt32? = nil
    ) throws(WireError) -> [UInt8]? {
        guard let size = message._exactPayloadSize, kind == .data || kind == .control else { return nil }
        guard profile.envelopeVersion == Frame.version else {
            throw WireError(
                .unsupportedVersion,
                "envelope version \(profile.envelopeVersion) is not supported; this library writes version \(Frame.version)")
        }
        guard size <= profile.maxMessageSize else {
            throw WireError(
                .messageTooLarge,
                "message payload of \(size) bytes is over the recipient's maxMessageSize \(profile.maxMessageSize)")
        }
        if let choice = profile.compression {
            guard let codec, codec.codecID == choice.codec else { return nil }
            guard size < codec.compressionThreshold(dictionaryID: choice.dictionaryID) else { return nil }
        }
        let limits = profile.limits
        guard
            kind == .control
                || FrameEncoder.frameSize(
                    typeID: Message.wireTypeID, compression: nil, fragment: nil, session: session, bodyCount: size)
                    <= limits.maxFrameSize
        else { return nil }
        return try FrameEncoder(limits: limits).wholeFrame(
            kind: kind, typeID: Message.wireTypeID, session: session, bodySize: size
        ) { sink in
            message._encodePayload(into: &sink)
        }
    }

    /// The frame body for `payload` under `profile`: compressed (with its header) when the
    /// profile names a codec and compressing makes it strictly smaller, else `payload`.
    /// - Throws: as ``frames(kind:typeID:payload:messageID:profile:session:)``.
    public func body(for payload: [UInt8], profile: PeerProfile) throws(WireError) -> (CompressionInfo?, [UInt8]) {
        guard profile.envelopeVersion == Frame.version else {
            throw WireError(
                .unsupportedVersion,
                "envelope version \(profile.envelopeVersion) is not supported; this library writes version \(Frame.version)")
        }
        guard payload.count <= profile.maxMessageSize else {
            throw WireError(
                .messageTooLarge,
                "message payload of \(payload.count) bytes is over the recipient's maxMessageSize \(profile.maxMessageSize)")
        }
        guard let choice = profile.compression else { return (nil, payload) }
        guard let codec, codec.codecID == choice.codec else {
            throw WireError(
                .unknownCodec,
                "the profile asks for codec \(choice.codec) but the pipeline has \(codec.map { "codec \($0.codecID)" } ?? "no codec")"
            )
        }
        guard let compressed = try codec.compressPayload(payload, dictionaryID: choice.dictionaryID) else {
            return (nil, payload)
        }
        let info = CompressionInfo(codec: choice.codec, dictionaryID: choice.dictionaryID, contentSize: UInt64(payload.count))
        return (info, compressed)
    }
}
