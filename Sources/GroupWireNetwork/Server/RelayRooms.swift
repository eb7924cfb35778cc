import Foundation
import GroupWireRelay
import Synchronization

/// The relay's rooms: who is connected where. Membership changes and their notifications
/// happen under one lock, so every client sees joins and leaves in one order, a joined
/// before any frame of the newcomer and a left after every frame of the one who left.
final class RelayRooms: Sendable {
    private let rooms = Mutex<[String: [UUID: RelayConnection]]>([:])

    /// Adds `connection` to its room, replacing (and dropping) an older connection of the
    /// same identity; sends it the welcome and the others `joined`.
    /// - Returns: whether it replaced an older connection (a reconnect).
    @discardableResult
    func join(_ connection: RelayConnection, maxFrameSize: Int) -> Bool {
        let replaced = rooms.withLock { rooms -> RelayConnection? in
            var room = rooms[connection.room, default: [:]]
            let older = room[connection.member.id]
            room[connection.member.id] = connection
            rooms[connection.room] = room
            let others = room.values.filter { $0 !== connection }
            if older != nil {
                for other in others { other.enqueue(RelayMessage.left(connection.member.id, reason: .replaced).encoded()) }
            }
            let welcome = RelayWelcome(you: connection.member, room: connection.room, maxFrameSize: maxFrameSize,
                                       members: others.map(\.member).sorted { $0.id.uuidString < $1.id.uuidString })
            connection.enqueue(RelayMessage.welcome(welcome).encoded())
            let joined = RelayMessage.joined(connection.member).encoded()
            for other in others { other.enqueue(joined) }
            return older
        }
        replaced?.finish(RelayError(.replaced, "\(connection.member.identity) connected again"), reason: .replaced, code: .normalClosure)
        return replaced != nil
    }

    /// Removes `connection` (unless a newer one took its place) and tells the others.
    func leave(_ connection: RelayConnection) {
        rooms.withLock { rooms in
            guard rooms[connection.room]?[connection.member.id] === connection else { return }
            rooms[connection.room]?[connection.member.id] = nil
            let others = rooms[connection.room]?.values.map { $0 } ?? []
            if others.isEmpty { rooms[connection.room] = nil }
            let left = RelayMessage.left(connection.member.id, reason: connection.leaveReason).encoded()
            for other in others { other.enqueue(left) }
        }
    }

    /// The connections in `sender`'s room that `ids` names (nil: all), the sender never.
    func recipients(of sender: RelayConnection, ids: [UUID]?) -> [RelayConnection] {
        rooms.withLock { rooms in
            guard let room = rooms[sender.room] else { return [] }
            guard let ids else { return room.values.filter { $0 !== sender } }
            return Set(ids).compactMap { room[$0] }.filter { $0 !== sender }
        }
    }

    /// Every connection, for shutdown.
    var all: [RelayConnection] {
        rooms.withLock { $0.values.flatMap(\.values) }
    }

    /// Participants per room now.
    var census: [String: Int] {
        rooms.withLock { $0.mapValues(\.count) }
    }
}
