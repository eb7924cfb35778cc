import GroupWire
import Synchronization

/// Who a message goes to and in which profile: the participants reachable now, the
/// profile set for each (by negotiation, or by ``Messenger/setProfile(_:for:)`` without it), and the
/// messenger's message ids. A plan groups the recipients by profile, so each distinct
/// profile is encoded once.
final class SendPlanner: Sendable {
    private struct State {
        var nextMessageID: UInt64 = 0
        var reachable: Swift.Set<ParticipantID> = []
        var profiles: [ParticipantID: PeerProfile] = [:]
    }

    private let state = Mutex(State())
    private let counters: MessengerCounters
    /// The profile of every recipient without one of its own.
    let defaultProfile: PeerProfile

    init(defaultProfile: PeerProfile, counters: MessengerCounters) {
        self.defaultProfile = defaultProfile
        self.counters = counters
    }

    var reachable: Swift.Set<ParticipantID> {
        state.withLock { $0.reachable }
    }

    func joined(_ participant: ParticipantID) {
        state.withLock { _ = $0.reachable.insert(participant) }
    }

    func left(_ participant: ParticipantID) {
        state.withLock { _ = $0.reachable.remove(participant) }
    }

    /// Nobody is reachable any more: the transport closed.
    func closed() {
        state.withLock { $0.reachable = [] }
    }

    func setProfile(_ profile: PeerProfile?, for participant: ParticipantID) {
        state.withLock { $0.profiles[participant] = profile }
    }

    /// Applies the profile changes negotiation decided.
    func setProfiles(_ changes: [(ParticipantID, PeerProfile?)]) {
        guard !changes.isEmpty else { return }
        state.withLock { state in
            for (participant, profile) in changes { state.profiles[participant] = profile }
        }
    }

    /// A fresh message id (counting one message sent), and the recipients grouped by
    /// profile: each recipient's profile from `agreed` (what negotiation decided for this
    /// send), else the one set for it, else the default profile.
    func plan(_ recipients: Recipients, agreed: [ParticipantID: PeerProfile] = [:])
        -> (messageID: UInt64, groups: [(profile: PeerProfile, recipients: Recipients)])
    {
        counters.countMessage()
        let defaultProfile = defaultProfile
        return state.withLock { state in
            let messageID = state.nextMessageID
            state.nextMessageID &+= 1  // safe because: 2^64 sends never happen; ids only need to differ in flight.
            func profile(_ participant: ParticipantID) -> PeerProfile? { agreed[participant] ?? state.profiles[participant] }
            // Everybody on the default profile: one encoding, the transport fans out.
            let named = recipients.participants ?? state.reachable
            guard named.contains(where: { profile($0) != nil }) else {
                return (messageID, [(defaultProfile, recipients)])
            }
            // Everybody on one profile (negotiated peers usually are): one encoding too.
            if let first = named.first {
                let common = profile(first) ?? defaultProfile
                if named.allSatisfy({ (profile($0) ?? defaultProfile) == common }) {
                    return (messageID, [(common, recipients)])
                }
            }
            var byProfile: [PeerProfile: Swift.Set<ParticipantID>] = [:]
            for participant in named {
                byProfile[profile(participant) ?? defaultProfile, default: []].insert(participant)
            }
            // In a stable order: by each group's first participant.
            let groups = byProfile.sorted { ($0.value.min()?.description ?? "") < ($1.value.min()?.description ?? "") }
                .map { (profile: $0.key, recipients: Recipients.only($0.value)) }
            return (messageID, groups)
        }
    }
}
