import GroupWireNegotiation

/// What a ``Messenger/send(_:to:mode:)`` did about recipients that negotiation keeps the
/// message from, so an app notices at the call, without reading statistics.
public struct SendReport: Sendable, Hashable {
    /// The recipients left out, in participant order; empty when everyone gets the message
    /// (now, or once its hello arrives) or the messenger does not negotiate.
    public var skipped: [SkippedRecipient] = []

    /// Creates a report.
    public init(skipped: [SkippedRecipient] = []) {
        self.skipped = skipped
    }
}

/// A recipient a message did not go to, and why.
public struct SkippedRecipient: Sendable, Hashable {
    /// Why a recipient was left out.
    public enum Reason: Sendable, Hashable {
        /// The peer agreed, but its spec cannot read the type: `unknown` (no such type) or
        /// `incompatible` with the rules that make it so.
        case cannotRead(TypeVerdict)
        /// Negotiation with the peer failed (``NegotiationEvent/incompatible(_:_:)``): nothing
        /// typed goes to it.
        case peerIncompatible
    }

    /// The recipient.
    public var participant: ParticipantID
    /// Why.
    public var reason: Reason

    /// Creates a skipped recipient.
    public init(participant: ParticipantID, reason: Reason) {
        self.participant = participant
        self.reason = reason
    }
}
