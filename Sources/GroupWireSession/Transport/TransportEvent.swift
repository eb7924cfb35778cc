/// What a ``Transport`` reports: a message, or a change in who is reachable.
public enum TransportEvent: Sendable, Hashable {
    /// A message from another participant.
    case message(TransportMessage)
    /// A participant became reachable (connected, or was already there when this one did).
    case joined(ParticipantID)
    /// A participant is no longer reachable.
    case left(ParticipantID)
}
