import Foundation
import GroupWireSession

/// One frame as a capture holds it: when and which way it went, between whom, and its
/// bytes exactly as they travelled.
///
/// In a pcapng or pcap file each record is one packet of link type ``linkType``
/// (LINKTYPE_USER0, 147): a pseudo-header (Spec/CAPTURE.md) followed by the frame.
public struct CaptureRecord: Sendable, Hashable {
    /// Which way a frame went, seen from the participant that captured it.
    public struct Direction: Sendable, Hashable, CustomStringConvertible {
        /// The value in the pseudo-header.
        public let rawValue: UInt8

        private init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// The capturing participant received the frame.
        public static let received = Direction(rawValue: 0)
        /// The capturing participant sent the frame.
        public static let sent = Direction(rawValue: 1)

        /// The direction for a pseudo-header value, nil for an unknown one.
        public init?(_ rawValue: UInt8) {
            guard rawValue <= 1 else { return nil }
            self.init(rawValue: rawValue)
        }

        /// `received` or `sent`.
        public var description: String { self == .sent ? "sent" : "received" }
    }

    /// The pcap link type of GroupWire captures: LINKTYPE_USER0 (147), which tcpdump.org
    /// reserves for private use.
    public static let linkType: UInt16 = 147
    /// The pseudo-header's version.
    public static let pseudoHeaderVersion: UInt8 = 1
    /// The pseudo-header's length without the room name.
    public static let fixedPseudoHeaderLength = 41

    /// When the frame was sent or received, in nanoseconds since 1970-01-01 UTC.
    public var timestamp: UInt64
    /// Which way it went.
    public var direction: Direction
    /// The session id from the frame's session header, nil for a frame outside a session.
    public var sessionID: UInt32?
    /// The capturing participant (all zero for a relay).
    public var local: UUID
    /// The other end: the sender of a received frame, the recipient of a frame sent to
    /// one participant; nil for a frame sent to several or to everyone.
    public var peer: UUID?
    /// The room (the relay's room name), empty when the transport has none.
    public var room: String
    /// The frame, byte for byte.
    public var frame: [UInt8]

    /// Creates a record.
    public init(
        timestamp: UInt64, direction: Direction, sessionID: UInt32? = nil, local: UUID, peer: UUID?, room: String = "",
        frame: [UInt8]
    ) {
        self.timestamp = timestamp
        self.direction = direction
        self.sessionID = sessionID
        self.local = local
        self.peer = peer
        self.room = room
        self.frame = frame
    }

    /// The current wall-clock time in nanoseconds since 1970.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(max(0, time.tv_sec)) * 1_000_000_000 + UInt64(max(0, time.tv_nsec))
    }

    /// The sender of the frame: the peer of a received frame, the capturing participant of
    /// a sent one.
    public var sender: UUID? { direction == .sent ? local : peer }

    /// The all-zero UUID, which stands for "none" (a relay's own id, no single peer).
    public static let noParticipant = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The room name as stored: UTF-8, cut to at most 255 bytes on a character boundary.
    var storedRoom: [UInt8] {
        var bytes = Array(room.utf8)
        guard bytes.count > 255 else { return bytes }
        bytes.removeLast(bytes.count - 255)
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil {
            bytes.removeLast()
        }
        return bytes
    }

    /// The packet data: pseudo-header, then the frame.
    public var packetData: [UInt8] {
        let room = storedRoom
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.fixedPseudoHeaderLength + room.count + frame.count)
        let headerLength = Self.fixedPseudoHeaderLength + room.count
        bytes.append(Self.pseudoHeaderVersion)
        bytes.append(direction.rawValue)
        bytes.append(UInt8(truncatingIfNeeded: headerLength))
        bytes.append(UInt8(truncatingIfNeeded: headerLength >> 8))
        let session = sessionID ?? 0
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: session >> UInt32(shift))) }
        Self.append(local, to: &bytes)
        Self.append(peer ?? Self.noParticipant, to: &bytes)
        bytes.append(UInt8(room.count))
        bytes.append(contentsOf: room)
        bytes.append(contentsOf: frame)
        return bytes
    }

    private static func append(_ uuid: UUID, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
    }

    /// Reads packet data (pseudo-header and frame).
    /// - Parameters:
    ///   - packet: the packet data as captured.
    ///   - timestamp: the packet's time in nanoseconds since 1970.
    /// - Returns: the record, or why the pseudo-header is not one (with the byte offset in
    ///   the packet data).
    public static func parse(packet: [UInt8], timestamp: UInt64) -> Result<CaptureRecord, PseudoHeaderProblem> {
        var room: String?
        return parse(packet, in: packet.indices, timestamp: timestamp, room: &room)
    }

    /// ``parse(packet:timestamp:)`` of the packet at `range` of `bytes`, where a capture
    /// reader holds it: only the frame is copied out. Problem offsets count from the
    /// packet's first byte. `room` is the room of the packet before: when this packet
    /// names the same bytes, that string is taken without validating them again.
    static func parse(_ bytes: [UInt8], in range: Range<Int>, timestamp: UInt64, room lastRoom: inout String?)
        -> Result<CaptureRecord, PseudoHeaderProblem>
    {
        let header: PseudoHeader
        switch PseudoHeader.parse(bytes, in: range) {
        case .failure(let problem): return .failure(problem)
        case .success(let parsed): header = parsed
        }
        let roomBytes = bytes[header.room]
        let room: String
        if let last = lastRoom, PseudoHeader.equal(last, roomBytes) {
            room = last
        } else {
            guard let valid = String(validating: roomBytes, as: UTF8.self) else {
                return .failure(PseudoHeaderProblem(offset: 41, "the room name is not UTF-8"))
            }
            room = valid
            lastRoom = valid
        }
        return .success(
            CaptureRecord(
                timestamp: timestamp, direction: header.direction, sessionID: header.sessionID, local: header.local,
                peer: header.peer, room: room, frame: Array(bytes[header.frame])))
    }

    /// The fields of a pseudo-header as it lies in a capture reader's buffer, before a
    /// record is made of them: the one parser of Spec/CAPTURE.md's pseudo-header, which
    /// ``parse(packet:timestamp:)`` and the validator's in-place path share. The room's
    /// bytes are not checked for UTF-8 here.
    package struct PseudoHeader {
        /// Which way the frame went.
        package var direction: Direction
        /// The session id, nil for 0.
        package var sessionID: UInt32?
        /// The capturing participant.
        package var localID: ParticipantID
        /// The other end, nil for the all-zero UUID.
        package var peerID: ParticipantID?
        /// Where the room's bytes lie in the buffer.
        package var room: Range<Int>
        /// Where the frame lies in the buffer: the rest of the packet.
        package var frame: Range<Int>

        /// The capturing participant.
        package var local: UUID { localID.uuid }
        /// The other end, nil for the all-zero UUID.
        package var peer: UUID? { peerID?.uuid }
        /// The sender of the frame: the peer of a received frame, the capturing participant of a sent one.
        package var sender: UUID? { direction == .sent ? local : peer }

        /// Reads the pseudo-header of the packet at `range` of `bytes`; problem offsets
        /// count from the packet's first byte.
        package static func parse(_ bytes: [UInt8], in range: Range<Int>) -> Result<PseudoHeader, PseudoHeaderProblem> {
            if let header = read(bytes, in: range) { return .success(header) }
            return .failure(problem(bytes, in: range))
        }

        /// The pseudo-header of the packet at `range` of `bytes`, nil when it is not one:
        /// the checks of ``problem(_:in:)``, without building its message. Every packet
        /// comes through here; returning an optional and not a `Result` whose error holds a
        /// string saved about 45 instructions a packet.
        @inline(__always) package static func read(_ bytes: [UInt8], in range: Range<Int>) -> PseudoHeader? {
            let at = range.lowerBound
            guard range.count >= fixedPseudoHeaderLength, bytes[at] == pseudoHeaderVersion,
                let direction = Direction(bytes[at + 1])
            else { return nil }
            let headerLength = Int(bytes[at + 2]) | Int(bytes[at + 3]) << 8
            let roomLength = Int(bytes[at + 40])
            guard headerLength >= fixedPseudoHeaderLength + roomLength, headerLength <= range.count else { return nil }
            var session: UInt32 = 0
            for index in 0..<4 { session |= UInt32(bytes[at + 4 + index]) << UInt32(8 * index) }
            // safe because: the packet holds the fixed pseudo-header, 41 bytes from `at`.
            let peer = ParticipantID(bytes, at: at + 24)
            return PseudoHeader(
                direction: direction, sessionID: session == 0 ? nil : session, localID: ParticipantID(bytes, at: at + 8),
                peerID: peer.isZero ? nil : peer, room: (at + 41)..<(at + 41 + roomLength),
                frame: (at + headerLength)..<range.upperBound)
        }

        /// What is wrong with a packet ``read(_:in:)`` refused: its checks in the same order.
        private static func problem(_ bytes: [UInt8], in range: Range<Int>) -> PseudoHeaderProblem {
            let count = range.count
            let at = range.lowerBound
            guard count >= fixedPseudoHeaderLength else {
                return PseudoHeaderProblem(
                    offset: count, "the packet has \(count) bytes, less than the \(fixedPseudoHeaderLength)-byte pseudo-header")
            }
            guard bytes[at] == pseudoHeaderVersion else {
                return PseudoHeaderProblem(offset: 0, "pseudo-header version \(bytes[at]); this reader knows version 1")
            }
            guard Direction(bytes[at + 1]) != nil else {
                return PseudoHeaderProblem(offset: 1, "direction \(bytes[at + 1]) is neither 0 (received) nor 1 (sent)")
            }
            let headerLength = Int(bytes[at + 2]) | Int(bytes[at + 3]) << 8
            let roomLength = Int(bytes[at + 40])
            guard headerLength >= fixedPseudoHeaderLength + roomLength else {
                return PseudoHeaderProblem(
                    offset: 2,
                    "header length \(headerLength) is less than the \(fixedPseudoHeaderLength + roomLength) bytes its fields take"
                )
            }
            return PseudoHeaderProblem(offset: 2, "header length \(headerLength) runs past the packet's \(count) bytes")
        }

        /// Whether `string`'s UTF-8 is `bytes`, compared as memory.
        package static func equal(_ string: String, _ bytes: ArraySlice<UInt8>) -> Bool {
            var string = string
            return string.withUTF8 { utf8 in
                bytes.withUnsafeBufferPointer { slice in
                    guard utf8.count == slice.count else { return false }
                    guard let left = utf8.baseAddress, let right = slice.baseAddress else { return true }  // both empty
                    return memcmp(left, right, utf8.count) == 0
                }
            }
        }
    }

    /// Why packet data does not start with a pseudo-header.
    public struct PseudoHeaderProblem: Error, Sendable, Hashable {
        /// The offset of the problem in the packet data.
        public let offset: Int
        /// What is wrong.
        public let message: String

        init(offset: Int, _ message: String) {
            self.offset = offset
            self.message = message
        }
    }
}
