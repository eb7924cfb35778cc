import Foundation
import GroupWire
import GroupWireJSON

/// What relay nodes say to each other through NATS (Spec/RELAY.md, "Clustering").
///
/// Each room has one owner, the node that orders everything in it: other nodes send it
/// their members' frames, joins and leaves (`forward`, `join`, `leave`, on the owner's
/// subject), and it publishes one numbered stream per room (`event`, on the room's
/// subject) that every node with members there applies in order. Nodes say they are alive
/// with `heartbeat`, and tell a room's new owner whom they hold with `holdings`.
public enum RelayClusterMessage: Sendable, Hashable {
    /// A node is alive (every heartbeat interval, on `PREFIX.nodes`).
    case heartbeat(node: String, incarnation: UInt64)
    /// A member's frame, for the room's owner to order: `recipients` as the member's send
    /// said (nil: everyone else in the room).
    case forward(room: String, source: UUID, recipients: [UUID]?, frame: [UInt8])
    /// A connection asks for a place in a room.
    case join(room: String, member: RelayMember, holder: RelayClusterHolder)
    /// A connection ended.
    case leave(room: String, member: UUID, holder: RelayClusterHolder, reason: RelayLeaveReason)
    /// The connections a node holds in a room, and the members it knows of there (from the
    /// room's stream), for the room's (new) owner.
    case holdings(room: String, node: String, members: [RelayClusterHolding], known: [RelayMember])
    /// One entry of a room's ordered stream, by its owner.
    case event(room: String, stamp: RelayClusterStamp, RelayClusterEvent)

    enum TypeByte {
        static let heartbeat: UInt8 = 0x01
        static let forward: UInt8 = 0x10
        static let join: UInt8 = 0x11
        static let leave: UInt8 = 0x12
        static let holdings: UInt8 = 0x13
        static let event: UInt8 = 0x20
    }
}

/// Which connection holds a member's place: its node and the node's number for it.
public struct RelayClusterHolder: Sendable, Hashable, CustomStringConvertible {
    /// The node's name.
    public var node: String
    /// The connection's number on that node (never reused while the node runs).
    public var connection: UInt64

    /// A holder.
    public init(node: String, connection: UInt64) {
        self.node = node
        self.connection = connection
    }

    /// `node#connection`.
    public var description: String { "\(node)#\(connection)" }
}

/// A member a node holds in a room.
public struct RelayClusterHolding: Sendable, Hashable {
    /// The member.
    public var member: RelayMember
    /// Its connection's number on the node.
    public var connection: UInt64

    /// A holding.
    public init(member: RelayMember, connection: UInt64) {
        self.member = member
        self.connection = connection
    }
}

/// Where an event stands in its room's stream: the owner that numbered it (a node name and
/// the incarnation of its process) and the number, from 1, in that owner's stream for the
/// room. A node applies a stamp's events in order and starts again from any number when
/// the owner or its incarnation changes.
public struct RelayClusterStamp: Sendable, Hashable {
    /// The owner's name.
    public var owner: String
    /// The owner process's incarnation.
    public var incarnation: UInt64
    /// The event's number in the owner's stream for the room.
    public var sequence: UInt64

    /// A stamp.
    public init(owner: String, incarnation: UInt64, sequence: UInt64) {
        self.owner = owner
        self.incarnation = incarnation
        self.sequence = sequence
    }
}

/// An entry of a room's ordered stream.
public enum RelayClusterEvent: Sendable, Hashable {
    /// A frame: every node gives `deliver` (a relay deliver message, its source stamped)
    /// to its members in the room that `recipients` names (nil: all), never to the source.
    case deliver(recipients: [UUID]?, deliver: [UInt8])
    /// `member` has a place, held by `holder`: that node welcomes the connection with
    /// `members` (the others, those within their reconnect grace included); for `joined`,
    /// every node tells its other members the newcomer joined.
    case entered(member: RelayMember, holder: RelayClusterHolder, entry: RelayClusterEntry, members: [RelayMember])
    /// The member's place passed to a newer connection: `holder`, its older one, is
    /// closed with error `replaced`; nobody is told anything.
    case replaced(member: UUID, holder: RelayClusterHolder)
    /// The member left: every node tells its members.
    case left(member: UUID, reason: RelayLeaveReason)
}

/// How a member entered (as ``RelayClusterEvent/entered(member:holder:entry:members:)`` says).
public struct RelayClusterEntry: Sendable, Hashable, CustomStringConvertible {
    /// The byte on the wire.
    public let rawValue: UInt8

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A newcomer: the others are told it joined.
    public static let joined = RelayClusterEntry(rawValue: 0)
    /// Back within its reconnect grace: nobody is told.
    public static let resumed = RelayClusterEntry(rawValue: 1)
    /// It replaced an older connection of the same identity: nobody is told.
    public static let replaced = RelayClusterEntry(rawValue: 2)

    static let all: [RelayClusterEntry] = [.joined, .resumed, .replaced]

    /// `joined`, `resumed` or `replaced`.
    public var description: String { ["joined", "resumed", "replaced"][Int(rawValue)] }
}

extension RelayClusterMessage {
    /// The longest node name, in bytes: 64. A name is ASCII letters, digits, `-` and `_`
    /// (it is a token of NATS subjects).
    public static let maxNodeNameLength = 64

    /// Whether `name` can name a node.
    public static func isNodeName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return (1...maxNodeNameLength).contains(bytes.count)
            && bytes.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
                    || byte == 0x5F
            }
    }

    /// The message's bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .heartbeat(let node, let incarnation):
            writer.write(TypeByte.heartbeat)
            RelayMessage.write(node, to: &writer)
            writer.writeFixed64LE(incarnation)
        case .forward(let room, let source, let recipients, let frame):
            writer.write(TypeByte.forward)
            RelayMessage.write(room, to: &writer)
            RelayMessage.write(source, to: &writer)
            Self.write(recipients, to: &writer)
            writer.write(contentsOf: frame)
        case .join(let room, let member, let holder):
            writer.write(TypeByte.join)
            RelayMessage.write(room, to: &writer)
            RelayMessage.write(member, to: &writer)
            Self.write(holder, to: &writer)
        case .leave(let room, let member, let holder, let reason):
            writer.write(TypeByte.leave)
            RelayMessage.write(room, to: &writer)
            RelayMessage.write(member, to: &writer)
            Self.write(holder, to: &writer)
            writer.write(reason.rawValue)
        case .holdings(let room, let node, let members, let known):
            writer.write(TypeByte.holdings)
            RelayMessage.write(room, to: &writer)
            RelayMessage.write(node, to: &writer)
            writer.writeUVarint(UInt64(members.count))
            for holding in members {
                RelayMessage.write(holding.member, to: &writer)
                writer.writeUVarint(holding.connection)
            }
            writer.writeUVarint(UInt64(known.count))
            for member in known { RelayMessage.write(member, to: &writer) }
        case .event(let room, let stamp, let event):
            writer.write(TypeByte.event)
            RelayMessage.write(room, to: &writer)
            RelayMessage.write(stamp.owner, to: &writer)
            writer.writeFixed64LE(stamp.incarnation)
            writer.writeUVarint(stamp.sequence)
            switch event {
            case .deliver(let recipients, let deliver):
                writer.write(0x01)
                Self.write(recipients, to: &writer)
                writer.write(contentsOf: deliver)
            case .entered(let member, let holder, let entry, let members):
                writer.write(0x02)
                RelayMessage.write(member, to: &writer)
                Self.write(holder, to: &writer)
                writer.write(entry.rawValue)
                writer.writeUVarint(UInt64(members.count))
                for other in members { RelayMessage.write(other, to: &writer) }
            case .replaced(let member, let holder):
                writer.write(0x03)
                RelayMessage.write(member, to: &writer)
                Self.write(holder, to: &writer)
            case .left(let member, let reason):
                writer.write(0x04)
                RelayMessage.write(member, to: &writer)
                writer.write(reason.rawValue)
            }
        }
        return writer.take()
    }

    private static func write(_ recipients: [UUID]?, to writer: inout ByteWriter) {
        guard let recipients else {
            writer.write(0)
            return
        }
        writer.write(1)
        writer.writeUVarint(UInt64(recipients.count))
        for id in recipients { RelayMessage.write(id, to: &writer) }
    }

    private static func write(_ holder: RelayClusterHolder, to writer: inout ByteWriter) {
        RelayMessage.write(holder.node, to: &writer)
        writer.writeUVarint(holder.connection)
    }

    /// Reads a message, checking every length and count against `limits` before using it.
    /// - Throws: `truncated`, `unknownRelayMessage` (a type or event byte), `limitExceeded`
    ///   (a count, name, frame or member list over the limits), `invalidUTF8`,
    ///   `invalidValue` (an empty name, a node name with other characters, an unknown leave
    ///   reason or entry, a recipients flag other than 0 or 1, an empty frame or deliver,
    ///   sequence 0), `trailingBytes`; each at the offset of the offending byte.
    public init(decoding bytes: [UInt8], limits: RelayLimits = .default) throws(WireError) {
        var reader = ByteReader(bytes)
        let type = try reader.readByte()
        switch type {
        case TypeByte.heartbeat:
            let node = try Self.readNode(&reader)
            self = .heartbeat(node: node, incarnation: try reader.readFixed64LE())
        case TypeByte.forward:
            let room = try RelayMessage.readName(&reader, limits: limits, what: "room")
            let source = try RelayMessage.readID(&reader)
            let recipients = try Self.readRecipients(&reader, limits: limits)
            self = .forward(
                room: room, source: source, recipients: recipients, frame: try RelayMessage.readFrame(&reader, limits: limits))
            return
        case TypeByte.join:
            let room = try RelayMessage.readName(&reader, limits: limits, what: "room")
            let member = try RelayMessage.readMember(&reader, limits: limits)
            self = .join(room: room, member: member, holder: try Self.readHolder(&reader))
        case TypeByte.leave:
            let room = try RelayMessage.readName(&reader, limits: limits, what: "room")
            let member = try RelayMessage.readID(&reader)
            let holder = try Self.readHolder(&reader)
            self = .leave(room: room, member: member, holder: holder, reason: try Self.readReason(&reader))
        case TypeByte.holdings:
            let room = try RelayMessage.readName(&reader, limits: limits, what: "room")
            let node = try Self.readNode(&reader)
            let count = try RelayMessage.readCount(&reader, limit: limits.maxMembers, what: "members")
            // Each holding takes at least 16 + 2 + 1 bytes: checked before anything is kept.
            try reader.require(count * 19, "\(count) holdings")
            var members: [RelayClusterHolding] = []
            members.reserveCapacity(count)
            for _ in 0..<count {
                let member = try RelayMessage.readMember(&reader, limits: limits)
                members.append(RelayClusterHolding(member: member, connection: try reader.readUVarint()))
            }
            self = .holdings(room: room, node: node, members: members, known: try Self.readMembers(&reader, limits: limits))
        case TypeByte.event:
            let room = try RelayMessage.readName(&reader, limits: limits, what: "room")
            let owner = try Self.readNode(&reader)
            let incarnation = try reader.readFixed64LE()
            let sequenceOffset = reader.position
            let sequence = try reader.readUVarint()
            guard sequence > 0 else { throw WireError(.invalidValue, offset: sequenceOffset, "event number 0 (they start at 1)") }
            let stamp = RelayClusterStamp(owner: owner, incarnation: incarnation, sequence: sequence)
            let kindOffset = reader.position
            switch try reader.readByte() {
            case 0x01:
                let recipients = try Self.readRecipients(&reader, limits: limits)
                guard reader.remaining > 0 else {
                    throw WireError(.invalidValue, offset: reader.position, "a deliver event without a message")
                }
                guard reader.remaining <= limits.maxFrameSize + 17 else {
                    throw WireError(.limitExceeded, offset: reader.position, "a deliver message of \(reader.remaining) bytes")
                }
                self = .event(
                    room: room, stamp: stamp,
                    .deliver(recipients: recipients, deliver: try reader.readBytes(count: reader.remaining, "deliver message")))
                return
            case 0x02:
                let member = try RelayMessage.readMember(&reader, limits: limits)
                let holder = try Self.readHolder(&reader)
                let entryOffset = reader.position
                let entry = RelayClusterEntry(rawValue: try reader.readByte())
                guard RelayClusterEntry.all.contains(entry) else {
                    throw WireError(
                        .invalidValue, offset: entryOffset, "entry \(entry.rawValue) (0 joined, 1 resumed, 2 replaced)")
                }
                let members = try Self.readMembers(&reader, limits: limits)
                self = .event(room: room, stamp: stamp, .entered(member: member, holder: holder, entry: entry, members: members))
            case 0x03:
                let member = try RelayMessage.readID(&reader)
                self = .event(room: room, stamp: stamp, .replaced(member: member, holder: try Self.readHolder(&reader)))
            case 0x04:
                let member = try RelayMessage.readID(&reader)
                self = .event(room: room, stamp: stamp, .left(member: member, reason: try Self.readReason(&reader)))
            case let kind:
                throw WireError(.unknownRelayMessage, offset: kindOffset, "event kind 0x\(Hex.digits(kind)) (0x01 ... 0x04)")
            }
        default:
            throw WireError(.unknownRelayMessage, offset: 0, "cluster message type 0x\(Hex.digits(type))")
        }
        guard reader.isAtEnd else {
            throw WireError(.trailingBytes, offset: reader.position, "\(reader.remaining) bytes after the message")
        }
    }

    /// A count and that many members (each at least 18 bytes: checked before any is read).
    private static func readMembers(_ reader: inout ByteReader, limits: RelayLimits) throws(WireError) -> [RelayMember] {
        let count = try RelayMessage.readCount(&reader, limit: limits.maxMembers, what: "members")
        try reader.require(count * 18, "\(count) members")
        var members: [RelayMember] = []
        members.reserveCapacity(count)
        for _ in 0..<count { members.append(try RelayMessage.readMember(&reader, limits: limits)) }
        return members
    }

    /// A node name: its length (over 64: `limitExceeded`, 0: `invalidValue`, at the
    /// length), its bytes (`truncated`, `invalidUTF8` at their first), then its alphabet
    /// (`invalidValue` at the first byte outside it).
    private static func readNode(_ reader: inout ByteReader) throws(WireError) -> String {
        let node = try RelayMessage.readString(&reader, limit: maxNodeNameLength, what: "node name", allowEmpty: false)
        let bytes = Array(node.utf8)
        guard isNodeName(node) else {
            let bad = bytes.firstIndex { !isNodeName(String(decoding: [$0], as: UTF8.self)) } ?? 0
            throw WireError(
                .invalidValue, offset: reader.position - bytes.count + bad,
                "node name \(String(reflecting: node)): letters, digits, - and _ only")
        }
        return node
    }

    private static func readHolder(_ reader: inout ByteReader) throws(WireError) -> RelayClusterHolder {
        let node = try readNode(&reader)
        return RelayClusterHolder(node: node, connection: try reader.readUVarint())
    }

    private static func readReason(_ reader: inout ByteReader) throws(WireError) -> RelayLeaveReason {
        let offset = reader.position
        let reason = RelayLeaveReason(rawValue: try reader.readByte())
        guard RelayLeaveReason.all.contains(reason) else {
            throw WireError(.invalidValue, offset: offset, "leave reason \(reason.rawValue)")
        }
        return reason
    }

    private static func readRecipients(_ reader: inout ByteReader, limits: RelayLimits) throws(WireError) -> [UUID]? {
        let offset = reader.position
        switch try reader.readByte() {
        case 0:
            return nil
        case 1:
            let count = try RelayMessage.readCount(&reader, limit: limits.maxRecipients, what: "recipients")
            try reader.require(16 * count, "\(count) recipient ids")
            var ids: [UUID] = []
            ids.reserveCapacity(count)
            for _ in 0..<count { ids.append(try RelayMessage.readID(&reader)) }
            return ids
        case let flag:
            throw WireError(.invalidValue, offset: offset, "recipients flag \(flag) (0 everyone, 1 a list)")
        }
    }
}
