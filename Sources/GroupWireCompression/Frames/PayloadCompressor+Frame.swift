import GroupWire

extension PayloadCompressor {
    /// Makes a data (or control) frame carrying `payload`, compressed when the policy says
    /// so and it gets strictly smaller; otherwise the frame carries `payload` as is. For
    /// our tests and tools' fixtures only: messages are sent through GroupWireSession's
    /// `SendPipeline`, the one path that makes frames.
    /// - Parameters:
    ///   - kind: `FrameKind/data` (default) or `FrameKind/control`.
    ///   - typeID: the message type id.
    ///   - payload: the encoded message.
    /// - Returns: the frame; its `Frame/compression` is set exactly when the body is compressed.
    /// - Throws: `WireError` `.invalidValue` for a fragment kind (fragmentation splits a
    ///   body that was compressed whole), or the errors of ``compress(_:)``.
    package func makeFrame(kind: FrameKind = .data, typeID: UInt64, payload: [UInt8]) throws(WireError) -> Frame {
        guard kind == .data || kind == .control else {
            throw WireError(.invalidValue, "makeFrame builds data and control frames, not \(kind)")
        }
        guard let compressed = try compress(payload) else {
            return Frame(kind: kind, typeID: typeID, body: payload)
        }
        return Frame(kind: kind, typeID: typeID, compression: compressed.info, body: compressed.bytes)
    }

    /// The message payload a data or control frame carries, decompressed when the frame's
    /// compressed flag is set: the read of one whole frame held alone (a dictionary's
    /// training samples, a tool's single frame); a messenger reads through GroupWireSession's
    /// `ReceivePipeline`, which also reassembles.
    /// - Parameter frame: a decoded frame (not a fragment: reassemble first, then call
    ///   ``decompress(_:info:)`` with the reassembled body).
    /// - Returns: the payload; for an uncompressed frame, its body unchanged.
    /// - Throws: `WireError` `.invalidValue` for a fragment frame, or the errors of
    ///   ``decompress(_:info:)``.
    public func payload(of frame: Frame) throws(WireError) -> [UInt8] {
        guard frame.kind != .fragment else {
            throw WireError(.invalidValue, "a fragment carries part of a body; reassemble the message first")
        }
        guard let info = frame.compression else {
            return frame.body
        }
        return try decompress(frame.body, info: info)
    }
}
