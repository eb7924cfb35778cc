import GroupWire

/// The receiving half of the messenger's pipeline: frame decoder → reassembler (per
/// sender) → bounded decompression, yielding whole message payloads.
///
/// Everything a peer sends is untrusted: frames are checked against ``limits`` before
/// anything is allocated, partial messages are bounded by ``GroupWire/ReassemblyLimits``,
/// and a compressed body is decompressed only when its declared size is within
/// ``GroupWire/Limits/maxMessageSize``. A bad frame or body is reported in the result and
/// never stops the pipeline.
public struct ReceivePipeline<Sender: Hashable & Sendable>: Sendable {
    /// The limits frames and messages are checked against.
    public let limits: Limits
    /// The codec that decompresses bodies, or nil: compressed messages are then rejected
    /// with ``GroupWire/WireError/Kind/unknownCodec``.
    public let codec: (any PayloadCodec)?
    private var reassembler: Reassembler<Sender>

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

    /// The reassembler's counters and what it holds now.
    public var reassemblyMetrics: ReassemblyMetrics { reassembler.metrics }

    /// Handles one transport message from `sender`: one frame.
    /// - Returns: the whole message it completed (if any), the messages dropped meanwhile,
    ///   and the reason the frame or its message was rejected (if it was).
    public mutating func receive(frameBytes bytes: [UInt8], from sender: Sender) -> ReceiveResult<Sender> {
        let reassembled: ReassemblyResult<Sender>
        do {
            reassembled = try reassembler.receive(frameBytes: bytes, from: sender)
        } catch {
            return ReceiveResult(rejection: error)
        }
        return finish(reassembled, sender: sender)
    }

    /// The reassembler's result, with a completed message decompressed.
    private func finish(_ reassembled: ReassemblyResult<Sender>, sender: Sender) -> ReceiveResult<Sender> {
        var result = ReceiveResult<Sender>(drops: reassembled.drops)
        guard let frame = reassembled.message else { return result }
        do {
            result.message = try message(from: frame, sender: sender)
        } catch {
            result.rejection = error
        }
        return result
    }

    /// Handles one frame from `sender` that was already decoded (read from a stream or a
    /// file by a `FrameStreamReader`), like ``receive(frameBytes:from:)``.
    public mutating func receive(_ frame: Frame, from sender: Sender) -> ReceiveResult<Sender> {
        let reassembled = reassembler.receive(frame, from: sender)
        return finish(reassembled, sender: sender)
    }

    /// Drops the partial messages past their timeout, returning what was dropped.
    public mutating func expire() -> [DropEvent<Sender>] {
        reassembler.expire()
    }

    /// The payload of a whole (data or control) frame, decompressed within the limits.
    private func message(from frame: Frame, sender: Sender) throws(WireError) -> ReceivedMessage<Sender> {
        guard let info = frame.compression else {
            return ReceivedMessage(sender: sender, kind: frame.kind, typeID: frame.typeID, payload: frame.body, compression: nil)
        }
        guard let codec, codec.codecID == info.codec else {
            throw WireError(.unknownCodec, "type \(frame.typeID): body compressed with codec \(info.codec), which this receiver lacks")
        }
        guard info.contentSize <= UInt64(limits.maxMessageSize) else {
            throw WireError(.limitExceeded, "type \(frame.typeID): declared content size \(info.contentSize) is over maxMessageSize \(limits.maxMessageSize)")
        }
        let payload = try codec.decompressPayload(frame.body, info: info)
        guard payload.count == Int(info.contentSize) else {
            throw WireError(.invalidValue, "type \(frame.typeID): body decompressed to \(payload.count) bytes, not the declared \(info.contentSize)")
        }
        return ReceivedMessage(sender: sender, kind: frame.kind, typeID: frame.typeID, payload: payload, compression: info)
    }
}

/// A whole message out of a ``ReceivePipeline``: its payload, decompressed.
public struct ReceivedMessage<Sender: Hashable & Sendable>: Sendable {
    /// Who sent it.
    public var sender: Sender
    /// ``GroupWire/FrameKind/data`` or ``GroupWire/FrameKind/control``.
    public var kind: FrameKind
    /// The message type id (control id for control frames).
    public var typeID: UInt64
    /// The message payload, reassembled and decompressed.
    public var payload: [UInt8]
    /// The compression header it travelled with, nil when it was not compressed.
    public var compression: CompressionInfo?

    /// Creates a received message.
    public init(sender: Sender, kind: FrameKind, typeID: UInt64, payload: [UInt8], compression: CompressionInfo?) {
        self.sender = sender
        self.kind = kind
        self.typeID = typeID
        self.payload = payload
        self.compression = compression
    }
}

/// What one frame handed to a ``ReceivePipeline`` produced.
public struct ReceiveResult<Sender: Hashable & Sendable>: Sendable {
    /// The whole message the frame completed, if any.
    public var message: ReceivedMessage<Sender>?
    /// Partial messages dropped while handling the frame (evicted, timed out, contradicted).
    public var drops: [DropEvent<Sender>]
    /// Why the frame, or the message it completed, was rejected; nil when nothing was.
    public var rejection: WireError?

    /// Creates a result.
    public init(message: ReceivedMessage<Sender>? = nil, drops: [DropEvent<Sender>] = [], rejection: WireError? = nil) {
        self.message = message
        self.drops = drops
        self.rejection = rejection
    }
}
