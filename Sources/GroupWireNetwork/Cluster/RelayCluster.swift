import Foundation
import GroupWire
import GroupWireJSON
import GroupWireNATS
import GroupWireNATSProtocol
import GroupWireRelay
import GroupWireSession
import Logging
import NIOCore
import Synchronization

/// A relay node's part in a cluster of relays that talk through NATS (Spec/RELAY.md,
/// "Clustering").
///
/// Every room has one **owner**: of the nodes alive, the one whose name scores highest
/// with the room (rendezvous hashing, ``owner(of:among:)``), so every node that knows the
/// same nodes picks the same owner without asking. A node sends its members' joins,
/// leaves and frames to the owner of their room (`PREFIX.node.OWNER`); the owner decides
/// places (one per identity, cluster-wide), numbers everything in one stream per room and
/// publishes it (`PREFIX.room.HEX`), and every node with members in the room applies that
/// stream in order: welcomes, joined, left, replaced, and frames to its members. One
/// publisher per room stream means one order per room, on every node: a member's joined
/// comes before its frames, and its left after them.
///
/// Nodes say they are alive every ``RelayClusterConfiguration/heartbeatInterval`` on
/// `PREFIX.nodes`; one silent for ``RelayClusterConfiguration/nodeTimeout`` is dead: its
/// members keep their places for the reconnect grace (as for a cut connection) and leave
/// as `lost` unless they come back through another node, and rooms it owned get new owners,
/// which the other nodes tell whom they hold.
final class RelayCluster: Sendable {
    let configuration: RelayClusterConfiguration
    /// This process's incarnation, in its heartbeats (each room it owns has its own, ``OwnedRoom/term``).
    let incarnation = UInt64.random(in: 1...UInt64.max)
    private let nats: NATSClient
    private let rooms: RelayRooms
    private let server: RelayServerConfiguration
    private let logger: Logger
    private let metrics: RelayMetrics
    private let state = Mutex(State())

    private struct State {
        /// When each other node was last heard, on the relay's clock.
        var lastHeard: [String: Duration] = [:]
        /// The incarnation each other node last said in its heartbeat (kept after a death,
        /// to tell a node that started again from one that was only silent).
        var incarnations: [String: UInt64] = [:]
        /// Since when the NATS connection has been up (nil while it is not): a node judges
        /// others dead only after hearing for a whole node timeout itself.
        var connectedSince: Duration?
        var nextConnection: UInt64 = 1
        /// Connections waiting for their room's owner to give them a place, by number.
        var pending: [UInt64: RelayConnection] = [:]
        /// Connections with a place, by number.
        var held: [UInt64: RelayConnection] = [:]
        /// Per room with local connections (pending or held): how many, the subscription
        /// to its stream, its owner as last computed.
        var local: [String: LocalRoom] = [:]
        /// Where each room's stream stands here, and the members it made known.
        var streams: [String: Stream] = [:]
        /// The rooms this node owns.
        var owned: [String: OwnedRoom] = [:]
        var stopped = false
    }

    private struct LocalRoom {
        var count = 0
        var subscription: NATSSubscription?
        var owner: String
    }

    private struct Stream {
        var owner: String
        var incarnation: UInt64
        var sequence: UInt64
        var known: [UUID: RelayMember] = [:]
    }

    private struct OwnedRoom {
        /// The stamp's incarnation for this numbering: new each time this node starts owning
        /// the room, so a node that owns it again is not taken for a repeat of its old stream
        /// (whose numbers it starts over), and every node tells it what it holds.
        let term = UInt64.random(in: 1...UInt64.max)
        var sequence: UInt64 = 0
        var places: [UUID: Place] = [:]
    }

    private struct Place {
        var member: RelayMember
        var holder: RelayClusterHolder
        /// Set while the member is within its reconnect grace: the task that ends it.
        var absence: Task<Void, Never>?
        /// The grace began because the holder's node went silent (not because the
        /// connection was lost): a node heard again gets its places back.
        var nodeSilent = false
    }

    init(
        configuration: RelayClusterConfiguration, server: RelayServerConfiguration, rooms: RelayRooms, logger: Logger,
        metrics: RelayMetrics
    ) {
        self.configuration = configuration
        self.server = server
        self.rooms = rooms
        var logger = logger
        logger[metadataKey: "node"] = "\(configuration.node)"
        self.logger = logger
        self.metrics = metrics
        var nats = NATSClientConfiguration(
            servers: configuration.servers,
            options: NATSConnectOptions(name: "groupwire-relay-\(configuration.node)", echo: false))
        nats.clock = server.clock
        nats.reconnectWait = .milliseconds(500)
        self.nats = NATSClient(configuration: nats, logger: logger)
    }

    // MARK: Subjects

    private var prefix: String { configuration.subjectPrefix }
    private var nodesSubject: String { "\(prefix).nodes" }
    private func nodeSubject(_ node: String) -> String { "\(prefix).node.\(node)" }
    private func roomSubject(_ room: String) -> String { "\(prefix).room.\(Hex.string(Array(room.utf8)))" }

    /// The owner of `room` among `nodes`: the name with the highest FNV-1a 64 of its UTF-8
    /// bytes, a zero byte and the room's UTF-8 bytes (the smaller name on a tie).
    static func owner(of room: String, among nodes: some Sequence<String>) -> String? {
        func score(_ node: String) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in Array(node.utf8) + [0] + Array(room.utf8) {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            return hash
        }
        return nodes.max { a, b in
            let (sa, sb) = (score(a), score(b))
            return sa != sb ? sa < sb : a > b
        }
    }

    private func owner(of room: String, _ state: State) -> String {
        Self.owner(of: room, among: [configuration.node] + state.lastHeard.keys) ?? configuration.node
    }

    // MARK: Starting and stopping

    /// Connects to NATS, announces the node, listens to the others for one heartbeat
    /// interval (so it knows who owns what before its first client), and starts beating.
    func start() async throws(NATSError) {
        try await nats.connect()
        state.withLock { $0.connectedSince = server.clock.now() }
        try nats.subscribe(to: nodesSubject) { [weak self] message in self?.heard(message) }
        try nats.subscribe(to: nodeSubject(configuration.node)) { [weak self] message in self?.addressed(message) }
        let events = nats.events
        Task { [weak self] in
            var first = true
            for await event in events {
                guard let self else { return }
                switch event {
                case .connected:
                    self.state.withLock { $0.connectedSince = self.server.clock.now() }
                    if !first { self.metrics.clusterNATSReconnects.increment() }
                    first = false
                case .disconnected: self.state.withLock { $0.connectedSince = nil }
                case .closed: return
                default: break
                }
            }
        }
        beat()
        try await nats.flush()
        try? await server.clock.sleep(for: configuration.heartbeatInterval)
        reconcile()
        let (clock, interval) = (server.clock, configuration.heartbeatInterval)
        let task = Task { [weak self] in
            var next = clock.now() + interval
            while !Task.isCancelled {
                guard (try? await clock.sleep(next)) != nil, let self else { return }
                next += interval
                if self.state.withLock({ $0.stopped }) { return }
                self.beat()
                self.reconcile()
                self.metrics.clusterRemoteMembers.record(self.remoteMembers)
            }
        }
        heartbeats.withLock { $0 = task }
        logger.notice("joined the cluster", metadata: ["servers": "\(configuration.servers.map(\.description))"])
    }

    private let heartbeats = Mutex<Task<Void, Never>?>(nil)

    /// Says what remains to be said (the leaves of the connections that ended), then leaves NATS.
    func stop() async {
        let task = heartbeats.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        let timers = state.withLock { state -> [Task<Void, Never>] in
            state.stopped = true
            defer { state.owned = [:] }
            return state.owned.values.flatMap { $0.places.values.compactMap(\.absence) }
        }
        for timer in timers { timer.cancel() }
        // Closing writes what is pending (the leaves) first; no flush to wait on: with NATS
        // unreachable, its answer would never come and the relay would never stop.
        await nats.close()
    }

    // MARK: Connections of this node

    /// A connection that finished its upgrade: it waits (its messages held) until the
    /// room's owner gives it a place and its welcome is sent.
    func enter(_ connection: RelayConnection) {
        let room = connection.room
        let (subscribe, number) = state.withLock { state -> (Bool, UInt64) in
            let number = state.nextConnection
            state.nextConnection += 1
            state.pending[number] = connection
            let first = state.local[room] == nil
            var local = state.local[room] ?? LocalRoom(owner: owner(of: room, state))
            local.count += 1
            state.local[room] = local
            return (first, number)
        }
        connection.clusterNumber = number
        if subscribe {
            // Subscribed before the join goes out, so the stream's answer cannot be missed.
            let subscription = try? nats.subscribe(to: roomSubject(room)) { [weak self] message in self?.streamed(message) }
            state.withLock { $0.local[room]?.subscription = subscription }
        }
        route(.join(room: room, member: connection.member, holder: holder(number)))
    }

    /// A member's frame: to its room's owner, which publishes it in the room's stream.
    func forward(from connection: RelayConnection, recipients: [UUID]?, frame: [UInt8]) {
        route(.forward(room: connection.room, source: connection.member.id, recipients: recipients, frame: frame))
    }

    /// A connection ended: its place is given up (or kept for the grace, when it was lost
    /// or this node shuts down).
    func leave(_ connection: RelayConnection) {
        let room = connection.room
        let number = connection.clusterNumber
        let unsubscribe = state.withLock { state -> NATSSubscription? in
            state.pending[number] = nil
            if state.held[number] === connection { state.held[number] = nil }
            guard var local = state.local[room] else { return nil }
            local.count -= 1
            guard local.count == 0 else {
                state.local[room] = local
                return nil
            }
            state.local[room] = nil
            state.streams[room] = nil
            return local.subscription
        }
        rooms.detach(connection)
        let reason = connection.leaveReason
        route(.leave(room: room, member: connection.member.id, holder: holder(number), reason: reason))
        if let unsubscribe { nats.unsubscribe(unsubscribe) }
    }

    private func holder(_ number: UInt64) -> RelayClusterHolder {
        RelayClusterHolder(node: configuration.node, connection: number)
    }

    /// Sends `message` (about one room) to the room's owner, or handles it here when this
    /// node owns the room.
    private func route(_ message: RelayClusterMessage) {
        guard let room = message.room else { return }
        let target = state.withLock { owner(of: room, $0) }
        if target == configuration.node {
            state.withLock { own(message, &$0) }
        } else {
            publish(message, to: nodeSubject(target))
        }
    }

    private func publish(_ message: RelayClusterMessage, to subject: String) {
        do {
            try nats.publish(message.encoded(), to: subject)
            metrics.clusterMessagesOut.increment()
        } catch {
            metrics.clusterDrops.increment()
            logger.warning("could not publish to the cluster", metadata: ["subject": "\(subject)", "error": "\(error)"])
        }
    }

    // MARK: What arrives from NATS

    private func decode(_ message: NATSMessage) -> RelayClusterMessage? {
        metrics.clusterMessagesIn.increment()
        do {
            return try RelayClusterMessage(decoding: Array(message.payload.readableBytesView), limits: server.limits)
        } catch {
            metrics.clusterDrops.increment()
            logger.warning("an undecodable cluster message", metadata: ["subject": "\(message.subject)", "error": "\(error)"])
            return nil
        }
    }

    /// A heartbeat: a node unknown until now learns of this one at once; a node taken for
    /// dead and heard again (it was only slow) gets back the places it held; a node heard
    /// with another incarnation started again, so the connections it held are gone: their
    /// members keep their places for the grace (as for a dead node), and it is new.
    private func heard(_ message: NATSMessage) {
        guard case .heartbeat(let node, let incarnation)? = decode(message), node != configuration.node else { return }
        let now = server.clock.now()
        let (new, restarted) = state.withLock { state -> (Bool, Bool) in
            defer {
                state.lastHeard[node] = now
                state.incarnations[node] = incarnation
            }
            if let known = state.incarnations[node], known != incarnation {
                lost(node, &state)
                return (true, true)
            }
            guard state.lastHeard[node] == nil else { return (false, false) }
            for room in state.owned.keys {
                for (id, place) in state.owned[room]?.places ?? [:] where place.holder.node == node && place.nodeSilent {
                    place.absence?.cancel()
                    state.owned[room]?.places[id]?.absence = nil
                    state.owned[room]?.places[id]?.nodeSilent = false
                }
            }
            return (true, false)
        }
        guard new else { return }
        logger.info(restarted ? "a node started again" : "a node joined", metadata: ["peer": "\(node)"])
        beat()
        reconcile()
    }

    /// A message for this node as a room's owner.
    private func addressed(_ message: NATSMessage) {
        guard let decoded = decode(message) else { return }
        state.withLock { own(decoded, &$0) }
    }

    /// A room's stream.
    private func streamed(_ message: NATSMessage) {
        guard case .event(let room, let stamp, let event)? = decode(message) else { return }
        state.withLock { apply(event, stamp: stamp, room: room, &$0) }
    }

    private func beat() {
        publish(.heartbeat(node: configuration.node, incarnation: incarnation), to: nodesSubject)
    }

    // MARK: Liveness and owners

    /// Drops nodes silent past the timeout, and tells each room's new owner what this node
    /// holds there.
    private func reconcile() {
        let now = server.clock.now()
        let timeout = configuration.nodeTimeout
        let (dead, moves) = state.withLock {
            state -> ([String], [(String, String, RelayClusterMessage, [RelayClusterMessage])]) in
            var dead: [String] = []
            if let since = state.connectedSince, now - since >= timeout {
                dead = state.lastHeard.filter { now - $0.value > timeout }.map(\.key).sorted()
                for node in dead { state.lastHeard[node] = nil }
            }
            for node in dead { lost(node, &state) }
            // Rooms this node owned and no longer does: their new owner rebuilds them. Not
            // while that owner is silent: the messages came because other nodes have already
            // taken it for dead, as this node is about to (dropping the room then would lose
            // the holdings and joins they sent, which they do not send twice).
            let recent = configuration.heartbeatInterval * 2
            for room in state.owned.keys {
                let target = owner(of: room, state)
                guard target != configuration.node, let heard = state.lastHeard[target], now - heard <= recent else {
                    continue
                }
                for place in state.owned[room].map({ Array($0.places.values) }) ?? [] { place.absence?.cancel() }
                state.owned[room] = nil
            }
            var moves: [(String, String, RelayClusterMessage, [RelayClusterMessage])] = []
            for room in state.local.keys.sorted() {
                let target = owner(of: room, state)
                guard state.local[room]?.owner != target else { continue }
                state.local[room]?.owner = target
                let joins = state.pending.filter { $0.value.room == room }.sorted { $0.key < $1.key }.map {
                    RelayClusterMessage.join(room: room, member: $0.value.member, holder: holder($0.key))
                }
                moves.append((room, target, holdings(in: room, state), joins))
            }
            return (dead, moves)
        }
        for node in dead { logger.warning("a node went silent", metadata: ["peer": "\(node)"]) }
        for (room, owner, holdings, joins) in moves {
            logger.info("a room has a new owner", metadata: ["room": "\(room)", "owner": "\(owner)"])
            for message in [holdings] + joins { route(message) }
        }
    }

    /// What this node holds in `room` and knows of it, for the room's owner.
    private func holdings(in room: String, _ state: State) -> RelayClusterMessage {
        let members = state.held.filter { $0.value.room == room }.map {
            RelayClusterHolding(member: $0.value.member, connection: $0.key)
        }.sorted { $0.connection < $1.connection }
        let known = (state.streams[room]?.known.values).map { Array($0) } ?? []
        return .holdings(room: room, node: configuration.node, members: members, known: known)
    }

    /// The members `node` held in the rooms this node owns keep their place for the grace.
    private func lost(_ node: String, _ state: inout State) {
        for room in state.owned.keys {
            for (id, place) in state.owned[room]?.places ?? [:] where place.holder.node == node && place.absence == nil {
                absent(id, in: room, holder: place.holder, &state)
            }
        }
    }

    // MARK: As a room's owner

    private func own(_ message: RelayClusterMessage, _ state: inout State) {
        guard let room = message.room, !state.stopped else { return }
        var owned = state.owned[room] ?? OwnedRoom()
        state.owned[room] = nil
        defer { state.owned[room] = owned }
        switch message {
        case .join(_, let member, let holder):
            var entry = RelayClusterEntry.joined
            if let place = owned.places[member.id] {
                if let absence = place.absence {
                    absence.cancel()
                    entry = .resumed
                } else {
                    publish(.replaced(member: member.id, holder: place.holder), in: room, &owned, &state)
                    entry = .replaced
                }
            }
            owned.places[member.id] = Place(member: member, holder: holder)
            let others = owned.places.values.filter { $0.member.id != member.id }.map(\.member).sorted {
                $0.id.uuidString < $1.id.uuidString
            }
            publish(.entered(member: member, holder: holder, entry: entry, members: others), in: room, &owned, &state)
        case .forward(_, let source, let recipients, let frame):
            // Only a member in its place sends: a frame from a connection the room no
            // longer counts (replaced, or past its grace) is dropped.
            guard let place = owned.places[source], place.absence == nil else {
                metrics.clusterDrops.increment()
                return
            }
            publish(
                .deliver(recipients: recipients, deliver: RelayMessage.deliverHeader(from: source) + frame), in: room, &owned,
                &state)
        case .leave(_, let id, let holder, let reason):
            guard let place = owned.places[id], place.holder == holder else { return }
            if (reason == .lost || reason == .shutdown) && server.reconnectGrace > .zero {
                owned.places[id]?.absence = grace(id, in: room, holder: holder)
            } else {
                owned.places[id] = nil
                publish(.left(member: id, reason: reason), in: room, &owned, &state)
            }
        case .holdings(_, let node, let members, let known):
            for holding in members {
                let holder = RelayClusterHolder(node: node, connection: holding.connection)
                if let place = owned.places[holding.member.id], place.absence == nil, place.holder != holder { continue }
                owned.places[holding.member.id]?.absence?.cancel()
                owned.places[holding.member.id] = Place(member: holding.member, holder: holder)
            }
            for member in known where owned.places[member.id] == nil {
                // Known from the room's stream but held by no node that spoke: lost, unless
                // its node speaks up or it comes back within the grace.
                let holder = RelayClusterHolder(node: node, connection: 0)
                owned.places[member.id] = Place(
                    member: member, holder: holder, absence: grace(member.id, in: room, holder: holder))
            }
        case .heartbeat, .event:
            break
        }
    }

    /// Keeps `id`'s place in `room` for the reconnect grace: its node went silent.
    private func absent(_ id: UUID, in room: String, holder: RelayClusterHolder, _ state: inout State) {
        state.owned[room]?.places[id]?.absence = grace(id, in: room, holder: holder)
        state.owned[room]?.places[id]?.nodeSilent = true
    }

    /// The task that ends `id`'s grace: it leaves as `lost` unless it came back meanwhile.
    private func grace(_ id: UUID, in room: String, holder: RelayClusterHolder) -> Task<Void, Never> {
        let clock = server.clock
        let deadline = clock.now() + server.reconnectGrace
        return Task { [weak self] in
            guard (try? await clock.sleep(deadline)) != nil, let self else { return }
            self.state.withLock { state in
                guard var owned = state.owned[room], let place = owned.places[id], place.holder == holder, place.absence != nil
                else { return }
                owned.places[id] = nil
                self.publish(.left(member: id, reason: .lost), in: room, &owned, &state)
                state.owned[room] = owned
            }
        }
    }

    /// Numbers `event` in `room`'s stream, publishes it, and applies it here.
    private func publish(_ event: RelayClusterEvent, in room: String, _ owned: inout OwnedRoom, _ state: inout State) {
        owned.sequence += 1
        let stamp = RelayClusterStamp(owner: configuration.node, incarnation: owned.term, sequence: owned.sequence)
        publish(.event(room: room, stamp: stamp, event), to: roomSubject(room))
        apply(event, stamp: stamp, room: room, &state)
    }

    // MARK: Applying a room's stream

    private func apply(_ event: RelayClusterEvent, stamp: RelayClusterStamp, room: String, _ state: inout State) {
        guard state.local[room] != nil else { return }
        var stream = state.streams[room] ?? Stream(owner: stamp.owner, incarnation: stamp.incarnation, sequence: 0)
        if stream.owner != stamp.owner || stream.incarnation != stamp.incarnation {
            // Another node numbers the room now (one this node had not taken for its owner,
            // say after a node seemed dead for a while): it is told what this node holds, or
            // it would count this node's members as gone.
            if state.streams[room] != nil, stamp.owner != configuration.node {
                state.local[room]?.owner = stamp.owner
                publish(holdings(in: room, state), to: nodeSubject(stamp.owner))
            }
            stream.owner = stamp.owner
            stream.incarnation = stamp.incarnation
            stream.sequence = 0
        }
        guard stamp.sequence > stream.sequence else { return }
        if stream.sequence > 0, stamp.sequence != stream.sequence + 1 {
            metrics.clusterGaps.increment()
            logger.warning(
                "events of a room's stream were lost",
                metadata: ["room": "\(room)", "expected": "\(stream.sequence + 1)", "got": "\(stamp.sequence)"])
        }
        stream.sequence = stamp.sequence
        defer { state.streams[room] = stream }
        switch event {
        case .deliver(let recipients, let deliver):
            // A relay deliver message: 0x02, the source, at least a byte of frame.
            guard deliver.count >= 18, deliver[0] == 0x02 else {
                metrics.clusterDrops.increment()
                return
            }
            let source = UUID(
                uuid: (
                    deliver[1], deliver[2], deliver[3], deliver[4], deliver[5], deliver[6], deliver[7], deliver[8], deliver[9],
                    deliver[10], deliver[11], deliver[12], deliver[13], deliver[14], deliver[15], deliver[16]
                ))
            let buffer = ByteBuffer(bytes: deliver)
            let wanted = recipients.map(Set.init)
            var delivered = 0
            for connection in rooms.connections(in: room)
            where connection.member.id != source && wanted.map({ $0.contains(connection.member.id) }) ?? true
                && connection.enqueue(buffer)
            {
                delivered += 1
            }
            metrics.framesDelivered.increment(by: delivered)
            metrics.bytesDelivered.increment(by: delivered * deliver.count)
        case .entered(let member, let holder, let entry, let members):
            stream.known[member.id] = member
            for other in members { stream.known[other.id] = other }
            if holder.node == configuration.node, let connection = state.pending.removeValue(forKey: holder.connection) {
                state.held[holder.connection] = connection
                rooms.attach(connection)
                connection.enqueue(
                    RelayMessage.welcome(
                        RelayWelcome(you: member, room: room, maxFrameSize: server.maxFrameSize, members: members)
                    ).encoded())
                connection.entered(entry)
                metrics.census(rooms.census)
                logger.info(
                    "\(entry == .replaced ? "replaced an older connection" : entry.description)",
                    metadata: ["room": "\(room)", "participant": "\(member.identity)", "id": "\(member.id)"])
            }
            if entry == .joined {
                let joined = ByteBuffer(bytes: RelayMessage.joined(member).encoded())
                for connection in rooms.connections(in: room) where connection.member.id != member.id {
                    connection.enqueue(joined)
                }
            }
        case .replaced(_, let holder):
            if holder.node == configuration.node, let older = state.held.removeValue(forKey: holder.connection) {
                rooms.detach(older)
                older.finish(
                    RelayError(.replaced, "\(older.member.identity) connected again"), reason: .replaced, code: .normalClosure)
            }
        case .left(let member, let reason):
            stream.known[member] = nil
            let left = ByteBuffer(bytes: RelayMessage.left(member, reason: reason).encoded())
            for connection in rooms.connections(in: room) { connection.enqueue(left) }
        }
    }

    /// The rooms this node owns now.
    var ownedRooms: Set<String> { state.withLock { Set($0.owned.keys) } }

    /// The members holding a place in `room` (not within their grace), when this node owns it.
    func places(in room: String) -> Set<UUID>? {
        state.withLock { $0.owned[room].map { Set($0.places.filter { $0.value.absence == nil }.keys) } }
    }

    /// When each other node alive here was last heard, on the relay's clock.
    var lastHeard: [String: Duration] { state.withLock { $0.lastHeard } }

    /// Connections still waiting for a place (for shutdown).
    var waiting: [RelayConnection] { state.withLock { Array($0.pending.values) } }

    /// Members other nodes hold in rooms this node has connections in (for metrics).
    var remoteMembers: Int {
        state.withLock { state in
            // Each room's own members once, not a search of every connection per member.
            var local: [String: Set<UUID>] = [:]
            for connection in state.held.values { local[connection.room, default: []].insert(connection.member.id) }
            return state.streams.reduce(0) { total, entry in
                total + entry.value.known.keys.count { !(local[entry.key]?.contains($0) ?? false) }
            }
        }
    }
}

extension RelayClusterMessage {
    /// The room a message is about (nil for a heartbeat).
    var room: String? {
        switch self {
        case .heartbeat: nil
        case .forward(let room, _, _, _), .join(let room, _, _), .leave(let room, _, _, _), .holdings(let room, _, _, _),
            .event(let room, _, _):
            room
        }
    }
}
