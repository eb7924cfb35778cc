/// A Lamport clock reading with the participant that took it: the order in which
/// concurrent activations and activity replacements win (Spec/FORMAT.md, "Session
/// control"). Higher clocks win; equal clocks are decided by the higher participant id.
struct SessionStamp: Sendable, Hashable, Comparable {
    /// The logical clock.
    var clock: UInt64
    /// Who took it.
    var participant: ParticipantID

    static func < (lhs: SessionStamp, rhs: SessionStamp) -> Bool {
        (lhs.clock, lhs.participant) < (rhs.clock, rhs.participant)
    }
}
