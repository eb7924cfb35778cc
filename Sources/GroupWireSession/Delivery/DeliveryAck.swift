import GroupWire
import GroupWireNegotiation

/// The acknowledgement of a reliable stream (control id 32, Spec/FORMAT.md,
/// "Acknowledgement"): every sequence `1 ... through` of `stream` was delivered, and the
/// frames after the next missing one that the receiver holds.
struct DeliveryAck: Sendable, Hashable {
    /// The control id of acknowledgements (Spec/Control.gwspec's `ControlID`).
    static let controlID = UInt64(ControlID.acknowledgement.rawValue)

    /// The reliable stream acknowledged.
    var stream: UInt32
    /// The highest sequence up to which every frame was delivered; 0 before the first.
    var through: UInt64
    /// Which sequences after `through + 1` the receiver holds, as a bitmap (bit i of byte
    /// j, least significant first: sequence `through + 2 + 8j + i`), so the sender resends
    /// only what is missing; empty when none. At most ``maxReceivedBytes`` long.
    var received: [UInt8] = []
    /// How long the receiver held this acknowledgement back after the frame with the
    /// highest sequence it acknowledges (through, or the last held) arrived, in
    /// microseconds; 0 when absent. The sender takes it off its round-trip sample, up to its
    /// ``DeliveryConfiguration/maxAckDelay``.
    var delayMicroseconds: UInt64 = 0
    /// The highest sequence received again, as a duplicate, since the receiver's previous
    /// acknowledgement; 0 when none. A sender that declared that frame lost learns the loss
    /// was spurious (the first copy arrived), as TCP's D-SACK tells it (RFC 3708).
    var duplicate: UInt64 = 0

    /// The longest `received` bitmap read: 8,192 frames after the hole.
    static let maxReceivedBytes = 1024

    /// The body (Spec/Control.gwspec's `ControlAcknowledgement`): `1 stream`, `2 through`,
    /// `3 received` when not empty, `4 delay` and `5 duplicate` when not 0.
    func payload() -> [UInt8] {
        ControlAcknowledgement(
            stream: stream, through: through, received: received, delay: delayMicroseconds, duplicate: duplicate
        ).wirePayload()
    }

    /// The whole control frame, without session or delivery header.
    func frame() -> [UInt8] {
        let body = payload()
        // safe because: a control frame of a few bytes always encodes (type id 32 is valid).
        return (try? FrameEncoder().encode(Frame(kind: .control, typeID: Self.controlID, body: body))) ?? []
    }

    /// Decodes a body.
    /// - Throws: `invalidValue` (at its varint) for a stream that is not a reliable stream
    ///   value; `limitExceeded` (at its length) for a bitmap over ``maxReceivedBytes``;
    ///   `missingField` (offset: the end of the body) without stream or through; the
    ///   payload reader's errors.
    init(_ payload: [UInt8], limits: Limits = .default) throws(WireError) {
        let body = try ControlAcknowledgement(wirePayload: payload, limits: limits)
        if let stream = body.stream, UInt64(stream) < DeliveryHeader.minStream || stream & 1 == 0 {
            throw WireError(
                .invalidValue, offset: ControlBody.valueOffset(ofField: 1, in: payload, limits: limits),
                "acknowledged stream \(stream) is not a reliable stream (odd, 3...\(UInt32.max))")
        }
        guard body.received.count <= Self.maxReceivedBytes else {
            throw WireError(
                .limitExceeded, offset: ControlBody.valueOffset(ofField: 3, in: payload, limits: limits),
                "a received bitmap of \(body.received.count) bytes is over \(Self.maxReceivedBytes)")
        }
        guard let stream = body.stream else {
            throw WireError(.missingField, offset: payload.count, "acknowledgement names no stream")
        }
        guard let through = body.through else {
            throw WireError(.missingField, offset: payload.count, "acknowledgement of stream \(stream) has no through")
        }
        self.init(
            stream: stream, through: through, received: body.received, delayMicroseconds: body.delay, duplicate: body.duplicate)
    }

    init(stream: UInt32, through: UInt64, received: [UInt8] = [], delayMicroseconds: UInt64 = 0, duplicate: UInt64 = 0) {
        self.stream = stream
        self.through = through
        self.received = received
        self.delayMicroseconds = delayMicroseconds
        self.duplicate = duplicate
    }

    /// The highest sequence this acknowledges: the last one held, else `through`.
    var largest: UInt64 {
        guard let last = received.lastIndex(where: { $0 != 0 }) else { return through }
        let bit = UInt64(last * 8 + (7 - received[last].leadingZeroBitCount))
        let (sequence, overflow) = through.addingReportingOverflow(2 + bit)
        return overflow ? UInt64.max : sequence
    }
}
