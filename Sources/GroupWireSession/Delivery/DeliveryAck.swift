import GroupWire

/// The acknowledgement of a reliable stream (control id 32, Spec/FORMAT.md,
/// "Acknowledgement"): every sequence `1 ... through` of `stream` was delivered, and the
/// frames after the next missing one that the receiver holds.
struct DeliveryAck: Sendable, Hashable {
    /// The control id of acknowledgements.
    static let controlID: UInt64 = 32

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

    /// The body: `1 stream`, `2 through`, `3 received` when not empty, `4 delay` and `5 duplicate` when not 0.
    func payload() -> [UInt8] {
        var writer = PayloadWriter()
        writer.writeUInt(1, UInt64(stream))
        writer.writeUInt(2, through)
        if !received.isEmpty {
            writer.writeBytes(3, received)
        }
        if delayMicroseconds != 0 {
            writer.writeUInt(4, delayMicroseconds)
        }
        if duplicate != 0 {
            writer.writeUInt(5, duplicate)
        }
        return writer.bytes
    }

    /// The whole control frame, without session or delivery header.
    func frame() -> [UInt8] {
        let body = payload()
        // safe because: a control frame of a few bytes always encodes (type id 32 is valid).
        return (try? FrameEncoder().encode(Frame(kind: .control, typeID: Self.controlID, body: body))) ?? []
    }

    /// Decodes a body.
    /// - Throws: `missingField` (offset: the end of the body) without stream or through;
    ///   `invalidValue` for a stream that is not a reliable stream value; the payload
    ///   reader's errors.
    init(_ payload: [UInt8], limits: Limits = .default) throws(WireError) {
        var reader = PayloadReader(payload, limits: limits)
        var stream: UInt32?
        var through: UInt64?
        var received: [UInt8] = []
        var delay: UInt64 = 0
        var duplicate: UInt64 = 0
        while let key = try reader.nextKey() {
            switch key.number {
            case 1:
                try reader.expect(key, .varint, field: "stream")
                let offset = reader.reader.position
                let value = try reader.readUInt()
                guard (DeliveryHeader.minStream...UInt64(UInt32.max)).contains(value), value & 1 == 1 else {
                    throw WireError(
                        .invalidValue, offset: offset,
                        "acknowledged stream \(value) is not a reliable stream (odd, 3...\(UInt32.max))")
                }
                stream = UInt32(value)
            case 2:
                try reader.expect(key, .varint, field: "through")
                through = try reader.readUInt()
            case 3:
                try reader.expect(key, .lengthDelimited, field: "received")
                let offset = reader.reader.position
                let bitmap = try reader.readBytes()
                guard bitmap.count <= Self.maxReceivedBytes else {
                    throw WireError(
                        .limitExceeded, offset: offset,
                        "a received bitmap of \(bitmap.count) bytes is over \(Self.maxReceivedBytes)")
                }
                received = bitmap
            case 4:
                try reader.expect(key, .varint, field: "delay")
                delay = try reader.readUInt()
            case 5:
                try reader.expect(key, .varint, field: "duplicate")
                duplicate = try reader.readUInt()
            default:
                try reader.skip(key)
            }
        }
        guard let stream else {
            throw WireError(.missingField, offset: payload.count, "acknowledgement names no stream")
        }
        guard let through else {
            throw WireError(.missingField, offset: payload.count, "acknowledgement of stream \(stream) has no through")
        }
        self.stream = stream
        self.through = through
        self.received = received
        self.delayMicroseconds = delay
        self.duplicate = duplicate
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
