import GroupWire

/// The receiving half of the messenger's pipeline: frame decoder → reassembler (per
/// sender) → bounded decompression, yielding whole message payloads.
///
/// Everything a peer sends is untrusted: frames are checked against ``limits`` before
/// anything is allocated, partial messages are bounded by `ReassemblyLimits`,
/// and a compressed body is decompressed only when its declared size is within
/// `Limits.maxMessageSize`. A bad frame or body is reported in the result and
/// never stops the pipeline.
///
/// Whole (unfragmented) frames, the common small message, bypass the reassembler; partial
/// messages past their timeout are dropped whenever a fragment arrives, and whenever a
/// whole frame arrives while some are held, or on ``expire()``.
public struct ReceivePipeline: Sendable {
    /// The limits frames and messages are checked against.
    public let limits: Limits
    /// The codec that decompresses bodies, or nil: compressed messages are then rejected
    /// with `WireError.Kind.unknownCodec`.
    public let codec: (any PayloadCodec)?
    private var reassembler: Reassembler<ParticipantID>
    /// Whether the reassembler holds partial messages, kept here so that a whole frame
    /// costs no call into it.
    private var holdsPartials = false

    /// Creates a pipeline.
    /// - Parameters:
    ///   - limits: the frame and message limits.
    ///   - reassemblyLimits: the bounds on partial messages.
    ///   - clock: the time source for reassembly timeouts.
    ///   - codec: the decompressing codec, if any.
    public init(
        limits: Limits = .default, reassemblyLimits: ReassemblyLimits = .default,
        clock: ReassemblyClock = .continuous(), codec: (any PayloadCodec)? = nil
    ) {
        self.limits = limits
        self.codec = codec
        reassembler = Reassembler(limits: limits, reassemblyLimits: reassemblyLimits, clock: clock)
    }

    /// The reassembler's counters (fragments only) and what it holds now.
    public var reassemblyMetrics: ReassemblyMetrics { reassembler.metrics }

    /// Handles one transport message from `sender`: one frame.
    /// - Returns: the whole message it completed (if any), the messages dropped meanwhile,
    ///   and the reason the frame or its message was rejected (if it was).
    public mutating func receive(frameBytes bytes: [UInt8], from sender: ParticipantID) -> ReceiveResult {
        let header: Frame
        let range: Range<Int>
        do {
            (header, range) = try FrameDecoder(limits: limits).decodeBorrowingBody(bytes)
        } catch {
            return ReceiveResult(rejection: error)
        }
        guard header.kind == .fragment else {
            let drops = holdsPartials ? expire() : []
            guard header.compression != nil else {
                // The common small message: an uncompressed whole frame. Its body is the
                // payload as it stands (the frame decoder checked the CRC and the limits), so
                // the result refers to it in the frame, not copied, with no intermediate
                // Frame and no call that takes the whole pipeline (which copied it, codec and all).
                return ReceiveResult(
                    message: ReceivedMessage(
                        sender: sender, kind: header.kind, typeID: header.typeID, session: header.session,
                        frameBytes: bytes, payloadRange: range),
                    drops: drops)
            }
            var whole = header
            whole.body = Array(bytes[range])
            return Self.finish(whole, drops: drops, sender: sender, limits: limits, codec: codec)
        }
        let reassembled = bytes.withUnsafeBytes { raw in
            reassembler.receive(header: header, body: UnsafeRawBufferPointer(rebasing: raw[range]), from: sender)
        }
        holdsPartials = reassembler.partialMessageCount > 0
        return Self.finish(reassembled.message, drops: reassembled.drops, sender: sender, limits: limits, codec: codec)
    }

    /// Handles one frame from `sender` that was already decoded (read from a stream or a
    /// file by a `FrameStreamReader`), like ``receive(frameBytes:from:)``.
    public mutating func receive(_ frame: Frame, from sender: ParticipantID) -> ReceiveResult {
        guard frame.kind == .fragment else {
            return Self.finish(frame, drops: holdsPartials ? expire() : [], sender: sender, limits: limits, codec: codec)
        }
        let reassembled = reassembler.receive(frame, from: sender)
        holdsPartials = reassembler.partialMessageCount > 0
        return Self.finish(reassembled.message, drops: reassembled.drops, sender: sender, limits: limits, codec: codec)
    }

    /// Drops the partial messages past their timeout, returning what was dropped.
    public mutating func expire() -> [DropEvent<ParticipantID>] {
        let drops = reassembler.expire()
        holdsPartials = reassembler.partialMessageCount > 0
        return drops
    }

    /// The number of partial messages held.
    public var partialMessageCount: Int { reassembler.partialMessageCount }

    /// Whether any partial message is held (`partialMessageCount > 0`, kept as the
    /// reassembler changes, without counting).
    package var holdsPartialMessages: Bool { holdsPartials }

    /// The result for a whole frame (if any), with its body decompressed. Static, taking
    /// what it reads: a method called from the mutating ones copied the whole pipeline
    /// (codec, reassembler and all) once per frame.
    private static func finish(
        _ frame: Frame?, drops: [DropEvent<ParticipantID>], sender: ParticipantID, limits: Limits,
        codec: (any PayloadCodec)?
    ) -> ReceiveResult {
        var result = ReceiveResult(drops: drops)
        guard let frame else { return result }
        do {
            result.message = try message(from: frame, sender: sender, limits: limits, codec: codec)
        } catch {
            result.rejection = error
        }
        return result
    }

    /// The payload of a whole (data or control) frame, decompressed within the limits.
    private static func message(
        from frame: Frame, sender: ParticipantID, limits: Limits, codec: (any PayloadCodec)?
    ) throws(WireError) -> ReceivedMessage {
        guard let info = frame.compression else {
            var message = ReceivedMessage(
                sender: sender, kind: frame.kind, typeID: frame.typeID, payload: frame.body, compression: nil)
            message.session = frame.session
            return message
        }
        guard let codec, codec.codecID == info.codec else {
            throw WireError(
                .unknownCodec, "type \(frame.typeID): body compressed with codec \(info.codec), which this receiver lacks")
        }
        guard info.contentSize <= UInt64(limits.maxMessageSize) else {
            throw WireError(
                .limitExceeded,
                "type \(frame.typeID): declared content size \(info.contentSize) is over maxMessageSize \(limits.maxMessageSize)")
        }
        let payload = try codec.decompressPayload(frame.body, info: info)
        guard payload.count == Int(info.contentSize) else {
            throw WireError(
                .invalidValue,
                "type \(frame.typeID): body decompressed to \(payload.count) bytes, not the declared \(info.contentSize)")
        }
        var message = ReceivedMessage(sender: sender, kind: frame.kind, typeID: frame.typeID, payload: payload, compression: info)
        message.session = frame.session
        return message
    }
}

/// A whole message out of a ``ReceivePipeline``: its payload, decompressed.
///
/// The payload of an uncompressed whole frame stays where it is in the frame's bytes (no
/// copy); ``payload`` copies it out on demand and ``decode(_:limits:)`` decodes it in place.
public struct ReceivedMessage: Sendable {
    /// Who sent it.
    public var sender: ParticipantID
    /// `FrameKind.data` or `FrameKind.control`.
    public var kind: FrameKind
    /// The message type id (control id for control frames).
    public var typeID: UInt64
    /// The compression header it travelled with, nil when it was not compressed.
    public var compression: CompressionInfo?
    /// The session its frames named in their session header, nil for none.
    public var session: UInt32?
    /// The bytes holding the payload: the payload itself, or the frame it stands in.
    private var storage: [UInt8]
    /// Where the payload is in ``storage``.
    private var range: Range<Int>

    /// The message payload, reassembled and decompressed.
    public var payload: [UInt8] {
        get { range.count == storage.count ? storage : Array(storage[range]) }
        set {
            storage = newValue
            range = 0..<newValue.count
        }
    }

    /// The payload's size in bytes.
    public var payloadCount: Int { range.count }

    /// The bytes holding the payload and where in them it stands, for readers that read it
    /// in place (the validator) without the copy ``payload`` makes of a frame's body.
    package var payloadBytes: (bytes: [UInt8], range: Range<Int>) { (storage, range) }

    /// Creates a received message.
    public init(sender: ParticipantID, kind: FrameKind, typeID: UInt64, payload: [UInt8], compression: CompressionInfo?) {
        self.sender = sender
        self.kind = kind
        self.typeID = typeID
        self.compression = compression
        storage = payload
        range = 0..<payload.count
    }

    /// A message whose payload stands at `payloadRange` of a frame's bytes, which the frame
    /// decoder has checked.
    package init(
        sender: ParticipantID, kind: FrameKind, typeID: UInt64, session: UInt32?, frameBytes: [UInt8], payloadRange: Range<Int>
    ) {
        self.sender = sender
        self.kind = kind
        self.typeID = typeID
        self.session = session
        compression = nil
        storage = frameBytes
        range = payloadRange
    }

    /// Decodes the payload as `type` where it stands, without copying it for generated
    /// messages. Error offsets count from the payload's first byte.
    /// - Throws: the decoder's `WireError`.
    public func decode<Message: MessageCodable>(_ type: Message.Type, limits: Limits = .default) throws(WireError) -> Message {
        try Message(_messagePayload: storage, in: range, limits: limits)
    }

    /// Decodes the payload as the registered `type`, like ``decode(_:limits:)``.
    /// - Throws: the decoder's `WireError`.
    public func decode(as type: any MessageCodable.Type, limits: Limits) throws(WireError) -> any MessageCodable {
        try type.init(_messagePayload: storage, in: range, limits: limits)
    }
}

/// What one frame handed to a ``ReceivePipeline`` produced.
public struct ReceiveResult: Sendable {
    /// The whole message the frame completed, if any.
    public var message: ReceivedMessage?
    /// Partial messages dropped while handling the frame (evicted, timed out, contradicted).
    public var drops: [DropEvent<ParticipantID>]
    /// Why the frame, or the message it completed, was rejected; nil when nothing was.
    public var rejection: WireError?

    /// Creates a result.
    public init(message: ReceivedMessage? = nil, drops: [DropEvent<ParticipantID>] = [], rejection: WireError? = nil) {
        self.message = message
        self.drops = drops
        self.rejection = rejection
    }
}
