/// Where a ``SharedSession`` is in its life: `waiting` → `joined` → `invalidated(reason)`.
/// An invalidated session is never reused.
public enum SharedSessionState: Sendable, Hashable {
    /// Received, not yet joined: no messages flow.
    case waiting
    /// Joined: messages flow.
    case joined
    /// Over for this participant, for `reason`.
    case invalidated(reason: SharedSessionInvalidation)
}

/// Why a session was invalidated.
public enum SharedSessionInvalidation: Sendable, Hashable {
    /// This participant left (``SharedSession/leave()``).
    case left
    /// A participant ended the session for everyone (``SharedSession/end()``).
    case ended(by: ParticipantID)
    /// A newer activation started another session (session id), which replaces this one.
    case replaced(by: UInt32)
    /// The messenger's transport closed (the relay refused or dropped this participant,
    /// the connection was lost past reconnecting, the transport was shut down), for the
    /// reason it gave (`Transport.closeReason`): nobody can be reached through it any more.
    case transportClosed(String)
}

/// What an app decides when asked whether to start an activity
/// (``SharedSessionCoordinator/prepareForActivation(_:)``), as Apple's
/// `GroupActivityActivationResult`.
public enum ActivationDecision: Sendable, Hashable {
    /// Share the activity with the group.
    case activationPreferred
    /// Do it alone: nobody to share with (not eligible), or the app says so.
    case activationDisabled
    /// The user cancelled.
    case cancelled
}

/// An operation a session's state (or the group) does not allow.
public struct SharedSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal it is.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kind's name.
        public let name: String
        /// `join()` on a session that is not waiting.
        public static let notWaiting = Kind(name: "notWaiting")
        /// An operation that needs a joined session (`leave()`, `replaceActivity`, sending).
        public static let notJoined = Kind(name: "notJoined")
        /// The session is invalidated: it is never reused.
        public static let invalidated = Kind(name: "invalidated")
        /// `activate()` with nobody reachable to share with, or declined by the app.
        public static let notEligible = Kind(name: "notEligible")
        /// The activity value could not be encoded or decoded.
        public static let activityEncoding = Kind(name: "activityEncoding")
        /// The messenger could not send (the `WireError` is in the context).
        public static let sendFailed = Kind(name: "sendFailed")
        /// A value outside what the group's receivers accept (a playback change: a rate
        /// outside 0 ... 16, a position outside 0 ... 10^9 s, an item name over 1,024 bytes).
        public static let outOfRange = Kind(name: "outOfRange")
        /// A playback change before this participant has the group clock (Spec/PLAYBACK.md,
        /// "The group clock"): its instant could not be named in the group's time.
        public static let noGroupClock = Kind(name: "noGroupClock")
        /// The kind's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let kind: Kind
    /// The session concerned, if any.
    public let session: UInt32?
    /// A sentence of context.
    public let context: String

    /// Creates an error.
    public init(_ kind: Kind, session: UInt32?, _ context: String) {
        self.kind = kind
        self.session = session
        self.context = context
    }

    /// `kind (session N): context`.
    public var description: String {
        "\(kind)\(session.map { " (session \($0))" } ?? ""): \(context)"
    }
}
