import Foundation
import GroupWire
import GroupWireNegotiation

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

    /// Control ids (the registry in Spec/FORMAT.md, "Control ids", and Spec/Control.gwspec's `ControlID`).
    static let activateID = UInt64(ControlID.activate.rawValue)
    static let joinID = UInt64(ControlID.join.rawValue)
    static let leaveID = UInt64(ControlID.leave.rawValue)
    static let replaceID = UInt64(ControlID.replace.rawValue)
    static let endID = UInt64(ControlID.end.rawValue)

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

    /// The message's body (its codec generated from Spec/Control.gwspec).
    func payload() -> [UInt8] {
        switch self {
        case .activate(let announcement), .replace(let announcement):
            announcement.body.wirePayload()
        case .join(let session), .leave(let session):
            ControlMembership(session: session).wirePayload()
        case .end(let session, let clock):
            ControlEnd(session: session, clock: clock).wirePayload()
        }
    }

    /// Decodes a control message, or nil for a control id outside 1–5 (another layer's).
    /// - Throws: `WireError` for a malformed body: a session id outside 1...2^32-1
    ///   (`invalidValue` at its varint), a missing session id (`missingField` at the end of
    ///   the body), the payload reader's errors for bad keys, lengths and strings.
    static func decode(controlID: UInt64, payload: [UInt8], limits: Limits = .default) throws(WireError) -> SessionControl? {
        switch controlID {
        case activateID: return .activate(try SessionAnnouncement(payload, limits: limits))
        case replaceID: return .replace(try SessionAnnouncement(payload, limits: limits))
        case joinID, leaveID:
            let body = try ControlMembership(wirePayload: payload, limits: limits)
            let session = try ControlBody.session(body.session, in: payload, limits: limits, "session control \(controlID)")
            return controlID == joinID ? .join(session: session) : .leave(session: session)
        case endID:
            let body = try ControlEnd(wirePayload: payload, limits: limits)
            let session = try ControlBody.session(body.session, in: payload, limits: limits, "session control \(controlID)")
            return .end(session: session, clock: body.clock ?? 0)
        default:
            return nil
        }
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

    /// The body (Spec/Control.gwspec's `ControlAnnouncement`): fields 1 session, 2
    /// activation clock, 3 activator, 4 activity identifier, 5 metadata {1 title, 2 subtitle,
    /// 3 type, 4 fallback URL}, 6 activity bytes, 7 activity clock, 8 who set the activity;
    /// every field but the optional metadata ones is written, even when 0 or empty.
    var body: ControlAnnouncement {
        ControlAnnouncement(
            session: session, activationClock: activated.clock, activator: activated.participant.uuid,
            activityIdentifier: activityIdentifier,
            metadata: ControlMetadata(
                title: metadata.title, subtitle: metadata.subtitle, type: metadata.type.rawValue,
                fallbackURL: metadata.fallbackURL),
            activity: activity, activityClock: activitySet.clock, activitySetBy: activitySet.participant.uuid)
    }

    /// Decodes an announcement body.
    /// - Throws: `WireError`: `invalidValue` for a session id outside 1...2^32-1 (at its
    ///   varint); `missingField` (at the end of the body) without a session id, activator or
    ///   activity identifier; the payload reader's errors.
    init(_ payload: [UInt8], limits: Limits) throws(WireError) {
        let body = try ControlAnnouncement(wirePayload: payload, limits: limits)
        try ControlBody.checkSession(body.session, in: payload, limits: limits)
        guard let session = body.session, let activator = body.activator, let identifier = body.activityIdentifier else {
            throw WireError(
                .missingField, offset: payload.count,
                "an activation needs a session id (1), an activator (3) and an activity identifier (4)")
        }
        var metadata = SharedActivityMetadata(title: body.metadata.title ?? "")
        metadata.subtitle = body.metadata.subtitle
        if let type = body.metadata.type { metadata.type = ActivityType(rawValue: type) }
        metadata.fallbackURL = body.metadata.fallbackURL
        self.session = session
        activated = SessionStamp(clock: body.activationClock ?? 0, participant: ParticipantID(uuid: activator))
        activitySet = SessionStamp(
            clock: body.activityClock ?? 0, participant: ParticipantID(uuid: body.activitySetBy ?? activator))
        activityIdentifier = identifier
        self.metadata = metadata
        self.activity = body.activity ?? []
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
}
