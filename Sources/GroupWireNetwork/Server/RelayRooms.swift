import Foundation
import GroupWireRelay
import GroupWireSession
import NIOCore
import Synchronization

/// The relay's rooms: who is connected where, and who lost their connection and may still
/// come back (``RelayServerConfiguration/reconnectGrace``). Membership changes and their
/// notifications happen under one lock, so every client sees joins and leaves in one order,
/// a joined before any frame of the newcomer and a left after every frame of the one who left.
final class RelayRooms: Sendable {
    /// How a connection entered its room.
    enum Entry: Sendable, Equatable {
        /// A newcomer: the others were told it joined.
        case joined
        /// The identity was connected: the older connection is told `replaced` and closed,
        /// and the place passes to the newer one; the others are told nothing (a client
        /// reconnecting before the relay saw its old connection fail looks like this).
        case replaced
        /// The identity had lost its connection within the grace period: it takes its place
        /// back and the others, never told it left, are told nothing.
        case resumed
    }

    /// A member whose connection was lost, kept until the grace period ends.
    private struct Absent {
        let member: RelayMember
        let expiry: Task<Void, Never>
    }

    private struct State {
        /// Only through ``setRoom(_:_:)``, which keeps ``everyone`` in step.
        private(set) var rooms: [String: [UUID: RelayConnection]] = [:]
        /// Each room's connections as one array, rebuilt when its membership changes, so
        /// forwarding a message to everyone costs no array of its own.
        private(set) var everyone: [String: [RelayConnection]] = [:]
        var absent: [String: [UUID: Absent]] = [:]

        /// Sets `name`'s connections (an empty room is removed).
        mutating func setRoom(_ name: String, _ connections: [UUID: RelayConnection]) {
            rooms[name] = connections.isEmpty ? nil : connections
            everyone[name] = connections.isEmpty ? nil : Array(connections.values)
        }
    }

    private let state = Mutex(State())
    private let grace: Duration
    private let clock: TimerClock
    private let expired: @Sendable (RelayMember, _ room: String, _ census: [String: Int]) -> Void

    /// Rooms that keep a member who lost its connection for `grace` (zero: not at all);
    /// `expired` hears of each whose grace period ended, with the census after it.
    init(
        grace: Duration = .zero, clock: TimerClock = .continuous,
        expired: @escaping @Sendable (RelayMember, _ room: String, _ census: [String: Int]) -> Void = { _, _, _ in }
    ) {
        self.grace = grace
        self.clock = clock
        self.expired = expired
    }

    /// Adds `connection` to its room, replacing (and dropping) an older connection of the
    /// same identity or taking back the place of one that lost its connection; sends it the
    /// welcome and, for a newcomer only, the others `joined`.
    @discardableResult
    func join(_ connection: RelayConnection, maxFrameSize: Int) -> Entry {
        let (entry, replaced) = state.withLock { state -> (Entry, RelayConnection?) in
            let id = connection.member.id
            var room = state.rooms[connection.room, default: [:]]
            let older = room[id]
            let returning = state.absent[connection.room]?.removeValue(forKey: id)
            if state.absent[connection.room]?.isEmpty == true { state.absent[connection.room] = nil }
            returning?.expiry.cancel()
            room[id] = connection
            state.setRoom(connection.room, room)
            let others = room.values.filter { $0 !== connection }
            let away = state.absent[connection.room]?.values.map(\.member) ?? []
            let welcome = RelayWelcome(
                you: connection.member, room: connection.room, maxFrameSize: maxFrameSize,
                members: (others.map(\.member) + away).sorted { $0.id.uuidString < $1.id.uuidString })
            connection.enqueue(RelayMessage.welcome(welcome).encoded())
            if let older { return (.replaced, older) }
            if returning != nil { return (.resumed, nil) }
            let joined = ByteBuffer(bytes: RelayMessage.joined(connection.member).encoded())
            for other in others { other.enqueue(joined) }
            return (.joined, nil)
        }
        replaced?.finish(
            RelayError(.replaced, "\(connection.member.identity) connected again"), reason: .replaced, code: .normalClosure)
        return entry
    }

    /// Removes `connection` (unless a newer one took its place) and tells the others; a
    /// connection that was lost keeps its member's place for the grace period first.
    /// - Returns: whether the member is kept for the grace period (its leave told later, if at all).
    @discardableResult
    func leave(_ connection: RelayConnection) -> Bool {
        let reason = connection.leaveReason
        return state.withLock { state in
            let id = connection.member.id
            guard var room = state.rooms[connection.room], room[id] === connection else { return false }
            room[id] = nil
            state.setRoom(connection.room, room)
            if reason == .lost, grace > .zero {
                // The deadline is taken now, not when the task first runs.
                let deadline = clock.now() + grace
                let expiry = Task { [weak self, clock] in
                    guard (try? await clock.sleep(deadline)) != nil else { return }
                    self?.expire(id, room: connection.room)
                }
                state.absent[connection.room, default: [:]][id] = Absent(member: connection.member, expiry: expiry)
                return true
            }
            let left = ByteBuffer(bytes: RelayMessage.left(id, reason: reason).encoded())
            for other in state.everyone[connection.room] ?? [] { other.enqueue(left) }
            return false
        }
    }

    /// The grace period of an absent member ended: the others are told it left.
    private func expire(_ id: UUID, room: String) {
        let gone = state.withLock { state -> (RelayMember, [String: Int])? in
            guard let absent = state.absent[room]?.removeValue(forKey: id) else { return nil }
            if state.absent[room]?.isEmpty == true { state.absent[room] = nil }
            let left = ByteBuffer(bytes: RelayMessage.left(id, reason: .lost).encoded())
            for other in state.everyone[room] ?? [] { other.enqueue(left) }
            return (absent.member, state.rooms.mapValues(\.count))
        }
        if let (member, census) = gone { expired(member, room, census) }
    }

    /// The connections in `sender`'s room that `ids` names (nil: all), the sender among
    /// them when it is: the caller skips it (so a message to everyone takes the room's
    /// array as it is). Absent members get nothing: what they miss is the delivery layer's
    /// to send again.
    func recipients(of sender: RelayConnection, ids: [UUID]?) -> [RelayConnection] {
        state.withLock { state in
            guard let ids else { return state.everyone[sender.room] ?? [] }
            guard let room = state.rooms[sender.room] else { return [] }
            return Set(ids).compactMap { room[$0] }
        }
    }

    /// Adds `connection` to its room's connections without telling anyone: in a cluster,
    /// membership is the room owner's to decide and its stream's to tell.
    func attach(_ connection: RelayConnection) {
        state.withLock { state in
            var room = state.rooms[connection.room, default: [:]]
            room[connection.member.id] = connection
            state.setRoom(connection.room, room)
        }
    }

    /// Removes `connection` from its room's connections (unless a newer one of its member
    /// took its place) without telling anyone.
    func detach(_ connection: RelayConnection) {
        state.withLock { state in
            guard var room = state.rooms[connection.room], room[connection.member.id] === connection else { return }
            room[connection.member.id] = nil
            state.setRoom(connection.room, room)
        }
    }

    /// The connections in `room` now.
    func connections(in room: String) -> [RelayConnection] {
        state.withLock { $0.everyone[room] ?? [] }
    }

    /// Every connection, for shutdown.
    var all: [RelayConnection] {
        state.withLock { $0.rooms.values.flatMap(\.values) }
    }

    /// Ends every grace period without telling anyone: the relay is shutting down.
    func forgetAbsent() {
        state.withLock { state in
            for room in state.absent.values { for absent in room.values { absent.expiry.cancel() } }
            state.absent = [:]
        }
    }

    /// Members within their grace period now, in every room.
    var absentCount: Int {
        state.withLock { $0.absent.values.reduce(0) { $0 + $1.count } }
    }

    /// Connected participants per room now (members within their grace period not counted).
    var census: [String: Int] {
        state.withLock { $0.rooms.mapValues(\.count) }
    }
}
