import Foundation
import GroupWire

/// The session control messages (control frames, control ids 1–5; Spec/FORMAT.md,
/// "Session control"): how a session is activated, joined, left, given a new activity and
/// ended. Bodies use the field-tagged payload encoding; unknown fields are skipped, so
/// later revisions can add fields.
enum SessionControl: Sendable, Hashable {
    /// A session started (or announced again to a participant that just became reachable).
    case activate(SessionAnnouncement)
    /// The sender joined the session.
    case join(session: UInt32)
    /// The sender left the session.
    case leave(session: UInt32)
    /// The session's activity was replaced; `announcement` carries the new one.
    case replace(SessionAnnouncement)
    /// The session ended for everyone.
    case end(session: UInt32, clock: UInt64)

    /// Control ids (the registry in Spec/FORMAT.md, "Control ids").
    static let activateID: UInt64 = 1
    static let joinID: UInt64 = 2
    static let leaveID: UInt64 = 3
    static let replaceID: UInt64 = 4
    static let endID: UInt64 = 5

    /// The control id this message travels under.
    var controlID: UInt64 {
        switch self {
        case .activate: Self.activateID
        case .join: Self.joinID
        case .leave: Self.leaveID
        case .replace: Self.replaceID
        case .end: Self.endID
        }
    }

    /// The message's body.
    func payload() -> [UInt8] {
        var writer = PayloadWriter()
        switch self {
        case .activate(let announcement), .replace(let announcement):
            announcement.write(to: &writer)
        case .join(let session), .leave(let session):
            writer.writeUInt(1, UInt64(session))
        case .end(let session, let clock):
            writer.writeUInt(1, UInt64(session))
            writer.writeUInt(2, clock)
        }
        return writer.bytes
    }

    /// Decodes a control message, or nil for a control id outside 1–5 (another layer's).
    /// - Throws: `WireError` for a malformed body: a session id outside 1...2^32-1
    ///   (`invalidValue`), a missing session id (`missingField`), the payload reader's
    ///   errors for bad keys, lengths and strings.
    static func decode(controlID: UInt64, payload: [UInt8], limits: Limits = .default) throws(WireError) -> SessionControl? {
        switch controlID {
        case activateID: return .activate(try SessionAnnouncement(payload, limits: limits))
        case replaceID: return .replace(try SessionAnnouncement(payload, limits: limits))
        case joinID, leaveID, endID:
            var reader = PayloadReader(payload, limits: limits)
            var session: UInt32?
            var clock: UInt64 = 0
            while let key = try reader.nextKey() {
                switch key.number {
                case 1:
                    try reader.expect(key, .varint, field: "session")
                    session = try readSessionID(&reader)
                case 2 where controlID == endID:
                    try reader.expect(key, .varint, field: "clock")
                    clock = try reader.readUInt()
                default:
                    try reader.skip(key)
                }
            }
            guard let session else {
                throw WireError(.missingField, offset: payload.count, "session control \(controlID) names no session")
            }
            switch controlID {
            case joinID: return .join(session: session)
            case leaveID: return .leave(session: session)
            default: return .end(session: session, clock: clock)
            }
        default:
            return nil
        }
    }

    /// Reads a session id: a varint in 1...2^32-1.
    static func readSessionID(_ reader: inout PayloadReader) throws(WireError) -> UInt32 {
        let offset = reader.reader.position
        let value = try reader.readUInt()
        guard (1...UInt64(UInt32.max)).contains(value) else {
            throw WireError(.invalidValue, offset: offset, "session id \(value) is outside 1...\(UInt32.max)")
        }
        return UInt32(value)
    }
}

/// What an activation or a replacement carries: the session, who activated it and when,
/// the activity (identifier, metadata and the app's value) and when it was last replaced.
struct SessionAnnouncement: Sendable, Hashable {
    /// The session id (1...2^32-1).
    var session: UInt32
    /// When and by whom the session was activated: the newer activation wins.
    var activated: SessionStamp
    /// When and by whom the current activity was set: the newer replacement wins.
    var activitySet: SessionStamp
    /// The activity type's identifier.
    var activityIdentifier: String
    /// The activity's metadata.
    var metadata: SharedActivityMetadata
    /// The activity value, encoded with `WireEncoder`.
    var activity: [UInt8]

    /// Fields: 1 session, 2 activation clock, 3 activator (UUID), 4 activity identifier,
    /// 5 metadata {1 title, 2 subtitle, 3 type, 4 fallback URL}, 6 activity bytes,
    /// 7 activity clock, 8 who set the activity (UUID).
    func write(to writer: inout PayloadWriter) {
        writer.writeUInt(1, UInt64(session))
        writer.writeUInt(2, activated.clock)
        writer.writeUUID(3, activated.participant.uuid)
        writer.writeString(4, activityIdentifier)
        writer.writeNested(5) { nested in
            nested.writeString(1, metadata.title)
            if let subtitle = metadata.subtitle { nested.writeString(2, subtitle) }
            nested.writeString(3, metadata.type.rawValue)
            if let url = metadata.fallbackURL { nested.writeString(4, url) }
        }
        writer.writeBytes(6, activity)
        writer.writeUInt(7, activitySet.clock)
        writer.writeUUID(8, activitySet.participant.uuid)
    }

    /// Decodes an announcement body.
    /// - Throws: `WireError`: `missingField` without a session id, activator or activity
    ///   identifier; `invalidValue` for a session id outside 1...2^32-1; the payload
    ///   reader's errors.
    init(_ payload: [UInt8], limits: Limits) throws(WireError) {
        var reader = PayloadReader(payload, limits: limits)
        var session: UInt32?
        var activatedClock: UInt64 = 0
        var activator: UUID?
        var identifier: String?
        var metadata = SharedActivityMetadata(title: "")
        var activity: [UInt8] = []
        var activityClock: UInt64 = 0
        var activitySetter: UUID?
        while let key = try reader.nextKey() {
            switch key.number {
            case 1:
                try reader.expect(key, .varint, field: "session")
                session = try SessionControl.readSessionID(&reader)
            case 2:
                try reader.expect(key, .varint, field: "clock")
                activatedClock = try reader.readUInt()
            case 3:
                try reader.expect(key, .lengthDelimited, field: "activator")
                activator = try reader.readUUID()
            case 4:
                try reader.expect(key, .lengthDelimited, field: "activityIdentifier")
                identifier = try reader.readString()
            case 5:
                try reader.expect(key, .lengthDelimited, field: "metadata")
                metadata = try reader.readNested { (nested) throws(WireError) in try Self.readMetadata(&nested) }
            case 6:
                try reader.expect(key, .lengthDelimited, field: "activity")
                activity = try reader.readBytes()
            case 7:
                try reader.expect(key, .varint, field: "activityClock")
                activityClock = try reader.readUInt()
            case 8:
                try reader.expect(key, .lengthDelimited, field: "activitySetBy")
                activitySetter = try reader.readUUID()
            default:
                try reader.skip(key)
            }
        }
        guard let session, let activator, let identifier else {
            throw WireError(
                .missingField, offset: payload.count,
                "an activation needs a session id (1), an activator (3) and an activity identifier (4)")
        }
        self.session = session
        activated = SessionStamp(clock: activatedClock, participant: ParticipantID(uuid: activator))
        activitySet = SessionStamp(clock: activityClock, participant: ParticipantID(uuid: activitySetter ?? activator))
        activityIdentifier = identifier
        self.metadata = metadata
        self.activity = activity
    }

    /// Creates an announcement.
    init(
        session: UInt32, activated: SessionStamp, activitySet: SessionStamp, activityIdentifier: String,
        metadata: SharedActivityMetadata, activity: [UInt8]
    ) {
        self.session = session
        self.activated = activated
        self.activitySet = activitySet
        self.activityIdentifier = activityIdentifier
        self.metadata = metadata
        self.activity = activity
    }

    private static func readMetadata(_ reader: inout PayloadReader) throws(WireError) -> SharedActivityMetadata {
        var metadata = SharedActivityMetadata(title: "")
        while let key = try reader.nextKey() {
            switch key.number {
            case 1:
                try reader.expect(key, .lengthDelimited, field: "title")
                metadata.title = try reader.readString()
            case 2:
                try reader.expect(key, .lengthDelimited, field: "subtitle")
                metadata.subtitle = try reader.readString()
            case 3:
                try reader.expect(key, .lengthDelimited, field: "type")
                metadata.type = ActivityType(rawValue: try reader.readString())
            case 4:
                try reader.expect(key, .lengthDelimited, field: "fallbackURL")
                metadata.fallbackURL = try reader.readString()
            default:
                try reader.skip(key)
            }
        }
        return metadata
    }
}
