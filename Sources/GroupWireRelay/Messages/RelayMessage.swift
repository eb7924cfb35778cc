import Foundation
import GroupWire
import GroupWireJSON

/// One WebSocket binary message of the relay protocol (Spec/RELAY.md, "Messages"): a type
/// byte, then its fields. A client sends ``send(to:frame:)``; the relay sends the others.
///
/// ```swift
/// let bytes = RelayMessage.send(to: nil, frame: frame).encoded()        // to everyone else
/// switch try RelayMessage(decoding: received) {
/// case .deliver(let source, let frame): ...
/// case .joined(let member): ...
/// default: ...
/// }
/// ```
public enum RelayMessage: Sendable, Hashable {
    /// Client to relay: one GroupWire frame for `recipients` in the sender's room (nil:
    /// everyone else, type 0x01; a list, type 0x03, may be empty), which the relay forwards
    /// without reading.
    case send(to: [UUID]?, frame: [UInt8])
    /// Relay to client: a frame exactly as `source` sent it; the relay names the source.
    case deliver(from: UUID, frame: [UInt8])
    /// Relay to client, first: who the client is, its room, the limits, who is there.
    case welcome(RelayWelcome)
    /// Relay to client: someone entered the room.
    case joined(RelayMember)
    /// Relay to client: someone left the room, and why.
    case left(UUID, reason: RelayLeaveReason)
    /// Relay to client: what the client did wrong (or that the relay stops); a fatal error
    /// is followed by the WebSocket close.
    case error(RelayError)

    /// The type bytes.
    enum TypeByte {
        static let sendAll: UInt8 = 0x01
        static let deliver: UInt8 = 0x02
        static let sendTo: UInt8 = 0x03
        static let welcome: UInt8 = 0x10
        static let joined: UInt8 = 0x11
        static let left: UInt8 = 0x12
        static let error: UInt8 = 0x20
    }

    /// The message's bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .send(let recipients, let frame):
            RelaySendHeader(recipients: recipients).write(to: &writer)
            writer.write(contentsOf: frame)
        case .deliver(let source, let frame):
            writer.write(contentsOf: RelayMessage.deliverHeader(from: source))
            writer.write(contentsOf: frame)
        case .welcome(let welcome):
            writer.write(TypeByte.welcome)
            Self.write(welcome.you, to: &writer)
            Self.write(welcome.room, to: &writer)
            writer.writeUVarint(UInt64(welcome.maxFrameSize))
            writer.writeUVarint(UInt64(welcome.members.count))
            for member in welcome.members { Self.write(member, to: &writer) }
        case .joined(let member):
            writer.write(TypeByte.joined)
            Self.write(member, to: &writer)
        case .left(let id, let reason):
            writer.write(TypeByte.left)
            Self.write(id, to: &writer)
            writer.write(reason.rawValue)
        case .error(let error):
            writer.write(TypeByte.error)
            writer.writeUVarint(error.code.rawValue)
            Self.write(error.message, to: &writer)
        }
        return writer.take()
    }

    /// The 17 bytes the relay puts before a frame it forwards from `source`.
    public static func deliverHeader(from source: UUID) -> [UInt8] {
        var writer = ByteWriter(capacity: 17)
        writer.write(TypeByte.deliver)
        write(source, to: &writer)
        return writer.take()
    }

    /// Reads a message, checking every length and count against `limits` before using it.
    /// - Throws: `truncated` (cut short), `unknownRelayMessage` (type byte), `limitExceeded`
    ///   (a count, a name or a frame over the limits), `invalidUTF8`, `invalidValue` (an
    ///   empty frame, a zero-length name, an unknown leave reason), `trailingBytes`; each at
    ///   the offset of the offending byte.
    public init(decoding bytes: [UInt8], limits: RelayLimits = .default) throws(WireError) {
        var reader = ByteReader(bytes)
        guard let type = reader.peekByte() else { throw WireError(.truncated, offset: 0, "an empty relay message") }
        switch type {
        case TypeByte.sendAll, TypeByte.sendTo:
            let header = try RelaySendHeader(decoding: bytes, limits: limits)
            self = .send(to: header.recipients, frame: Array(bytes[header.length...]))
            return
        case TypeByte.deliver:
            _ = try reader.readByte()
            let source = try Self.readID(&reader)
            let frame = try Self.readFrame(&reader, limits: limits)
            self = .deliver(from: source, frame: frame)
            return
        case TypeByte.welcome:
            _ = try reader.readByte()
            let you = try Self.readMember(&reader, limits: limits)
            let room = try Self.readName(&reader, limits: limits, what: "room")
            let sizeOffset = reader.position
            let maxFrameSize = try reader.readUVarint()
            guard maxFrameSize >= 64, maxFrameSize <= UInt64(UInt32.max) else {
                throw WireError(
                    .invalidValue, offset: sizeOffset, "maxFrameSize \(maxFrameSize) is outside 64...\(UInt32.max)")
            }
            let count = try Self.readCount(&reader, limit: limits.maxMembers, what: "members")
            var members: [RelayMember] = []
            members.reserveCapacity(count)
            for _ in 0..<count { members.append(try Self.readMember(&reader, limits: limits)) }
            self = .welcome(RelayWelcome(you: you, room: room, maxFrameSize: Int(maxFrameSize), members: members))
        case TypeByte.joined:
            _ = try reader.readByte()
            self = .joined(try Self.readMember(&reader, limits: limits))
        case TypeByte.left:
            _ = try reader.readByte()
            let id = try Self.readID(&reader)
            let offset = reader.position
            let reason = RelayLeaveReason(rawValue: try reader.readByte())
            guard RelayLeaveReason.all.contains(reason) else {
                throw WireError(
                    .invalidValue, offset: offset,
                    "leave reason \(reason.rawValue) is not one of 0...\(RelayLeaveReason.all.count - 1)")
            }
            self = .left(id, reason: reason)
        case TypeByte.error:
            _ = try reader.readByte()
            let code = RelayErrorCode(rawValue: try reader.readUVarint())
            let message = try Self.readString(
                &reader, limit: limits.maxErrorMessageLength, what: "error message", allowEmpty: true)
            self = .error(RelayError(code, message))
        default:
            throw WireError(
                .unknownRelayMessage, offset: 0, "relay message type 0x\(Hex.digits(type)) is not one of Spec/RELAY.md's")
        }
        guard reader.isAtEnd else {
            throw WireError(.trailingBytes, offset: reader.position, "\(reader.remaining) bytes after the message")
        }
    }

    static func write(_ id: UUID, to writer: inout ByteWriter) {
        withUnsafeBytes(of: id.uuid) { writer.write(contentsOf: $0) }
    }

    static func write(_ text: String, to writer: inout ByteWriter) {
        let utf8 = Array(text.utf8)
        writer.writeUVarint(UInt64(utf8.count))
        writer.write(contentsOf: utf8)
    }

    static func write(_ member: RelayMember, to writer: inout ByteWriter) {
        write(member.id, to: &writer)
        write(member.identity, to: &writer)
    }

    static func readID(_ reader: inout ByteReader) throws(WireError) -> UUID {
        let b = try reader.readBytes(count: 16, "participant id")
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    static func readCount(_ reader: inout ByteReader, limit: Int, what: String) throws(WireError) -> Int {
        let offset = reader.position
        let count = try reader.readUVarint()
        guard count <= UInt64(limit) else {
            throw WireError(.limitExceeded, offset: offset, "\(count) \(what), over the limit of \(limit)")
        }
        return Int(count)
    }

    static func readString(_ reader: inout ByteReader, limit: Int, what: String, allowEmpty: Bool) throws(WireError) -> String {
        let offset = reader.position
        let length = try readCount(&reader, limit: limit, what: "bytes of \(what)")
        guard allowEmpty || length > 0 else { throw WireError(.invalidValue, offset: offset, "an empty \(what)") }
        return try reader.readUTF8(count: length)
    }

    static func readName(_ reader: inout ByteReader, limits: RelayLimits, what: String) throws(WireError) -> String {
        try readString(&reader, limit: limits.maxNameLength, what: what, allowEmpty: false)
    }

    static func readMember(_ reader: inout ByteReader, limits: RelayLimits) throws(WireError) -> RelayMember {
        RelayMember(id: try readID(&reader), identity: try readName(&reader, limits: limits, what: "identity"))
    }

    static func readFrame(_ reader: inout ByteReader, limits: RelayLimits) throws(WireError) -> [UInt8] {
        try checkFrame(reader, limits: limits)
        return try reader.readBytes(count: reader.remaining, "frame")
    }

    /// Checks that the rest of `reader` is a frame (at least one byte, at most
    /// `limits.maxFrameSize`), without copying it.
    static func checkFrame(_ reader: ByteReader, limits: RelayLimits) throws(WireError) {
        try checkFrame(at: reader.position, size: reader.remaining, limits: limits)
    }

    /// Checks a frame of `size` bytes at `offset`: not empty, within `limits.maxFrameSize`.
    static func checkFrame(at offset: Int, size: Int, limits: RelayLimits) throws(WireError) {
        guard size > 0 else { throw WireError(.invalidValue, offset: offset, "a message without a frame") }
        guard size <= limits.maxFrameSize else {
            throw WireError(.limitExceeded, offset: offset, "a frame of \(size) bytes, over maxFrameSize \(limits.maxFrameSize)")
        }
    }
}

/// The header of a ``RelayMessage/send(to:frame:)``: what the relay reads of a client's
/// message, never the frame after it.
public struct RelaySendHeader: Sendable, Hashable {
    /// The recipients, or nil for everyone else in the room.
    public var recipients: [UUID]?
    /// The header's length: the frame starts here.
    public var length: Int

    /// A header for `recipients`.
    public init(recipients: [UUID]?) {
        self.recipients = recipients
        length = recipients.map { 1 + Varint.encodedLength(UInt64($0.count)) + 16 * $0.count } ?? 1
    }

    /// Reads the header at the start of `bytes` and checks the frame after it is there and
    /// within `limits.maxFrameSize`.
    /// - Throws: as ``RelayMessage/init(decoding:limits:)``; `unknownRelayMessage` for
    ///   any type byte but the two sends'.
    public init(decoding bytes: [UInt8], limits: RelayLimits = .default) throws(WireError) {
        try self.init(decodingPrefix: bytes, messageLength: bytes.count, limits: limits)
    }

    /// How many of a message's first bytes ``init(decodingPrefix:messageLength:limits:)``
    /// needs when the first is `type`: one for a send to everyone, else as many as the
    /// longest header `limits` allows (or the whole message, when shorter).
    public static func prefixLength(type: UInt8, messageLength: Int, limits: RelayLimits = .default) -> Int {
        guard type == RelayMessage.TypeByte.sendTo else { return min(1, messageLength) }
        return min(messageLength, limits.maxSendSize - limits.maxFrameSize)
    }

    /// Reads the header from `prefix`, the first ``prefixLength(type:messageLength:limits:)``
    /// bytes of a message of `messageLength` bytes, and checks the frame after it is there
    /// and within `limits.maxFrameSize`: the frame is neither read nor copied.
    /// - Throws: as ``init(decoding:limits:)``, at the same offsets.
    public init(decodingPrefix prefix: [UInt8], messageLength: Int, limits: RelayLimits = .default) throws(WireError) {
        var reader = ByteReader(prefix)
        let type = try reader.readByte()
        switch type {
        case RelayMessage.TypeByte.sendAll:
            recipients = nil
        case RelayMessage.TypeByte.sendTo:
            let count = try RelayMessage.readCount(&reader, limit: limits.maxRecipients, what: "recipients")
            try reader.require(16 * count, "\(count) recipient ids")
            var ids: [UUID] = []
            ids.reserveCapacity(count)
            for _ in 0..<count { ids.append(try RelayMessage.readID(&reader)) }
            recipients = ids
        default:
            throw WireError(
                .unknownRelayMessage, offset: 0, "a client sends only send messages (0x01, 0x03), not 0x\(Hex.digits(type))")
        }
        length = reader.position
        // The frame is the relay's to forward untouched: checked, not copied.
        try RelayMessage.checkFrame(at: length, size: messageLength - length, limits: limits)
    }

    func write(to writer: inout ByteWriter) {
        guard let recipients else {
            writer.write(RelayMessage.TypeByte.sendAll)
            return
        }
        writer.write(RelayMessage.TypeByte.sendTo)
        writer.writeUVarint(UInt64(recipients.count))
        for id in recipients { RelayMessage.write(id, to: &writer) }
    }
}

/// A participant in a room: its id (derived from room and identity, ``RelayIdentity``) and
/// the identity its token names.
public struct RelayMember: Sendable, Hashable {
    /// The participant id frames are addressed by.
    public var id: UUID
    /// The token's `sub`.
    public var identity: String

    /// Creates a member.
    public init(id: UUID, identity: String) {
        self.id = id
        self.identity = identity
    }
}

/// What a client learns first.
public struct RelayWelcome: Sendable, Hashable {
    /// The client itself.
    public var you: RelayMember
    /// Its room.
    public var room: String
    /// The largest frame the relay forwards for it.
    public var maxFrameSize: Int
    /// Everyone else in the room now.
    public var members: [RelayMember]

    /// Creates a welcome.
    public init(you: RelayMember, room: String, maxFrameSize: Int, members: [RelayMember]) {
        self.you = you
        self.room = room
        self.maxFrameSize = maxFrameSize
        self.members = members
    }
}

/// Why someone left a room.
public struct RelayLeaveReason: Sendable, Hashable, CustomStringConvertible {
    /// The byte on the wire.
    public let rawValue: UInt8

    /// Wraps a byte (any; decoding accepts only the named ones).
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The client closed its connection.
    public static let closed = RelayLeaveReason(rawValue: 0)
    /// The connection was lost (reset, or silent past the timeout).
    public static let lost = RelayLeaveReason(rawValue: 1)
    /// The relay dropped it: it read too slowly (its queue passed the limit).
    public static let tooSlow = RelayLeaveReason(rawValue: 2)
    /// The relay dropped it: it broke the protocol or a limit.
    public static let violation = RelayLeaveReason(rawValue: 3)
    /// A newer connection with the same identity took its place.
    public static let replaced = RelayLeaveReason(rawValue: 4)
    /// The relay shut down.
    public static let shutdown = RelayLeaveReason(rawValue: 5)

    static let all: [RelayLeaveReason] = [.closed, .lost, .tooSlow, .violation, .replaced, .shutdown]
    private static let names = ["closed", "lost", "tooSlow", "violation", "replaced", "shutdown"]

    /// The reason's name.
    public var description: String {
        Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : "reason \(rawValue)"
    }
}

/// An error the relay reports to a client (Spec/RELAY.md, "Errors").
public struct RelayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var code: RelayErrorCode
    /// A sentence for logs and people.
    public var message: String

    /// Creates an error.
    public init(_ code: RelayErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}

/// The relay's error codes (Spec/RELAY.md, "Errors").
public struct RelayErrorCode: Sendable, Hashable, CustomStringConvertible {
    /// The varint on the wire.
    public let rawValue: UInt64

    /// Wraps a code (unknown codes are kept: a newer relay may send more).
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// A message that does not parse, a text message, or a type a client may not send. Fatal.
    public static let malformed = RelayErrorCode(rawValue: 1)
    /// A frame over the connection's limit. Fatal.
    public static let frameTooLarge = RelayErrorCode(rawValue: 2)
    /// More messages per second than the connection's limit. Fatal.
    public static let rateLimited = RelayErrorCode(rawValue: 3)
    /// The client reads too slowly: its queue passed the limit. Fatal.
    public static let tooSlow = RelayErrorCode(rawValue: 4)
    /// A newer connection with the same identity took this one's place. Fatal.
    public static let replaced = RelayErrorCode(rawValue: 5)
    /// The relay is shutting down. Fatal.
    public static let shuttingDown = RelayErrorCode(rawValue: 6)

    private static let names: [UInt64: String] = [
        1: "malformed", 2: "frameTooLarge", 3: "rateLimited", 4: "tooSlow", 5: "replaced", 6: "shuttingDown",
    ]

    /// The code's name, or `code N` for one this build does not know.
    public var description: String { Self.names[rawValue] ?? "code \(rawValue)" }
}

extension WireError.Kind {
    /// A relay message whose type byte Spec/RELAY.md does not define (or that the sender may not send).
    public static let unknownRelayMessage = WireError.Kind(name: "unknownRelayMessage")
}
