/// Who a transport message is for.
public struct Recipients: Sendable, Hashable {
    /// The chosen participants, or nil for everyone but the sender.
    public let participants: Set<ParticipantID>?

    /// Every other participant in the session.
    public static let all = Recipients(participants: nil)

    /// Only these participants (the sender is skipped if listed).
    public static func only(_ participants: Set<ParticipantID>) -> Recipients {
        Recipients(participants: participants)
    }

    /// Whether `participant` is one of them (the sender is left out by the transport).
    @inlinable public func includes(_ participant: ParticipantID) -> Bool {
        participants?.contains(participant) ?? true
    }
}
