import Foundation
import GroupWire

/// The session protocol's state for one participant, behind the coordinator's lock: pure
/// decisions that return the effects to perform (sends, stream updates) outside it.
struct Engine {
    /// The current session as this participant sees it.
    struct Record {
        var announcement: SessionAnnouncement
        /// This participant's state in it.
        var state: SharedSessionState
        /// Who joined it (this participant too, once joined).
        var joined: Set<ParticipantID>
    }

    /// The most sessions whose early joins are kept while their activation is on its way.
    static let maxPendingSessions = 16
    /// The most retired session ids remembered (so a late activation cannot revive one).
    static let maxRetired = 1_024

    var clock: UInt64 = 0
    var current: Record?
    var retired: Set<UInt32> = []
    var retiredOrder: [UInt32] = []
    /// How each retired session ended for this participant.
    var finalStates: [UInt32: SharedSessionState] = [:]
    var pendingJoins: [UInt32: Set<ParticipantID>] = [:]
    var reachable: Set<ParticipantID> = []
    var nextToken: UInt64 = 0
    var listeners: [String: [UInt64: @Sendable (SessionAnnouncement) -> Void]] = [:]
    var stateWatchers: [UInt32: [UInt64: AsyncStream<SharedSessionState>.Continuation]] = [:]
    var participantWatchers: [UInt32: [UInt64: AsyncStream<Set<ParticipantID>>.Continuation]] = [:]

    /// Advances the Lamport clock for a stamp of this participant's. A peer may have sent
    /// the largest clock; the clock then stays there (ties go to the participant id).
    mutating func tick() -> UInt64 {
        if clock < .max { clock += 1 }
        return clock
    }

    func state(of session: UInt32) -> SharedSessionState {
        if let current, current.announcement.session == session { return current.state }
        return finalStates[session] ?? .invalidated(reason: .replaced(by: current?.announcement.session ?? 0))
    }

    /// Makes `announcement`'s session current (replacing the current one) if it is newer.
    mutating func adopt(_ announcement: SessionAnnouncement) -> [Effect] {
        clock = max(clock, announcement.activated.clock, announcement.activitySet.clock)
        guard !retired.contains(announcement.session) else { return [] }
        if var record = current, record.announcement.session == announcement.session {
            // The same session announced again: a newer activity replaces the one held.
            if announcement.activitySet > record.announcement.activitySet {
                record.announcement.activitySet = announcement.activitySet
                record.announcement.metadata = announcement.metadata
                record.announcement.activity = announcement.activity
                current = record
            }
            return []
        }
        if let record = current, record.announcement.activated > announcement.activated {
            return []
        }
        var effects = retireCurrent(.replaced(by: announcement.session))
        let joined = pendingJoins.removeValue(forKey: announcement.session) ?? []
        current = Record(announcement: announcement, state: .waiting, joined: joined.intersection(reachable))
        effects.append(.notify(Array((listeners[announcement.activityIdentifier] ?? [:]).values), announcement))
        return effects
    }

    /// Invalidates the current session with `reason` and forgets it.
    mutating func retireCurrent(_ reason: SharedSessionInvalidation) -> [Effect] {
        guard let record = current else { return [] }
        let id = record.announcement.session
        current = nil
        retire(id)
        finalStates[id] = record.state == .waiting || record.state == .joined ? .invalidated(reason: reason) : record.state
        var effects: [Effect] = []
        if record.state == .waiting || record.state == .joined {
            effects.append(
                .state(Array((stateWatchers.removeValue(forKey: id) ?? [:]).values), .invalidated(reason: reason), finish: true))
        } else {
            stateWatchers[id] = nil
        }
        effects.append(.participants(Array((participantWatchers.removeValue(forKey: id) ?? [:]).values), [], finish: true))
        effects.append(.ended(id))
        return effects
    }

    mutating func retire(_ id: UInt32) {
        guard retired.insert(id).inserted else { return }
        retiredOrder.append(id)
        if retiredOrder.count > Self.maxRetired {
            let oldest = retiredOrder.removeFirst()
            retired.remove(oldest)
            finalStates[oldest] = nil
        }
    }

    /// Sets this participant's state in the current session.
    mutating func setLocalState(_ state: SharedSessionState, local: ParticipantID) -> [Effect] {
        guard var record = current else { return [] }
        record.state = state
        if state == .joined { record.joined.insert(local) } else { record.joined.remove(local) }
        current = record
        let id = record.announcement.session
        var effects = participantsChanged()
        let finished: Bool
        if case .invalidated = state { finished = true } else { finished = false }
        let watchers = Array((stateWatchers[id] ?? [:]).values)
        if finished { stateWatchers[id] = nil }
        effects.append(.state(watchers, state, finish: finished))
        if finished { effects.append(.ended(id)) }
        return effects
    }

    /// The current session's participants, to its watchers.
    func participantsChanged() -> [Effect] {
        guard let record = current else { return [] }
        return [
            .participants(Array((participantWatchers[record.announcement.session] ?? [:]).values), record.joined, finish: false)
        ]
    }

    /// Handles what the messenger heard.
    mutating func handle(_ input: SessionInput, local: ParticipantID) -> [Effect] {
        switch input {
        case .joined(let participant):
            reachable.insert(participant)
            var effects: [Effect] = [.eligibility(true)]
            // Tell the newcomer about the current session, and that we joined it.
            if let record = current, record.state == .waiting || record.state == .joined {
                effects.append(.send(.activate(record.announcement), .only([participant])))
                if record.state == .joined {
                    effects.append(.send(.join(session: record.announcement.session), .only([participant])))
                }
            }
            return effects
        case .left(let participant):
            reachable.remove(participant)
            var effects: [Effect] = [.eligibility(!reachable.isEmpty)]
            if current?.joined.remove(participant) != nil {
                effects += participantsChanged()
            }
            return effects
        case .closed(let reason):
            // Nobody is reachable any more, and the session cannot go on here.
            reachable = []
            return [.eligibility(false)] + retireCurrent(.transportClosed(reason))
        case .control(let control):
            guard let message = try? SessionControl.decode(controlID: control.controlID, payload: control.payload) else {
                return []
            }
            return apply(message, from: control.source, local: local)
        }
    }

    /// Applies a control message from `source`.
    mutating func apply(_ message: SessionControl, from source: ParticipantID, local: ParticipantID) -> [Effect] {
        switch message {
        case .activate(let announcement):
            let before = current?.announcement.session
            let effects = adopt(announcement)
            // An older activation than ours: tell its sender which session won.
            if let record = current, record.announcement.session != announcement.session, record.announcement.session == before {
                return effects + [.send(.activate(record.announcement), .only([source]))]
            }
            // Our own session announced to us, by someone who has just become reachable
            // again (a transport that lost us for a while): say we are in it, since its
            // sender may have counted us out meanwhile.
            if let record = current, record.announcement.session == announcement.session, record.state == .joined, source != local
            {
                return effects + [.send(.join(session: record.announcement.session), .only([source]))]
            }
            return effects
        case .replace(let announcement):
            guard current?.announcement.session == announcement.session else { return [] }
            return adopt(announcement)
        case .join(let session):
            if var record = current, record.announcement.session == session {
                guard record.joined.insert(source).inserted else { return [] }
                current = record
                return participantsChanged()
            }
            if !retired.contains(session) {
                // Bounded: past the limit, one held session's early joins are forgotten.
                if pendingJoins[session] == nil, pendingJoins.count >= Self.maxPendingSessions, let any = pendingJoins.keys.min()
                {
                    pendingJoins[any] = nil
                }
                pendingJoins[session, default: []].insert(source)
            }
            return []
        case .leave(let session):
            pendingJoins[session]?.remove(source)
            guard var record = current, record.announcement.session == session, record.joined.remove(source) != nil else {
                return []
            }
            current = record
            return participantsChanged()
        case .end(let session, let endClock):
            clock = max(clock, endClock)
            guard current?.announcement.session == session else {
                retire(session)
                pendingJoins[session] = nil
                return []
            }
            return retireCurrent(.ended(by: source))
        }
    }
}
