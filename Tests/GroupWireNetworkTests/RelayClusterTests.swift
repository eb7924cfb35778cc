import Foundation
import GroupWire
import GroupWireNATS
import GroupWireRelay
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import InMemoryLogging
import Logging
import Synchronization
import Testing

@testable import GroupWireNetwork

// AcrossProcesses.md: begin
/// A participant that knows two nodes of a cluster: when its node dies, it moves to the other.
func joinCluster(_ first: RelayAddress, _ second: RelayAddress, token: String) async throws -> Messenger {
    let reconnect = RelayReconnect(alternatives: [second])
    let relay = try await RelayTransport.connect(host: first.host, port: first.port, token: token, reconnect: reconnect)
    // Reliable mode loses nothing across the move.
    return Messenger(transport: DeliveryTransport(over: relay))
}
// AcrossProcesses.md: end

/// Relays as nodes of one cluster through a real nats-server (started on a free port and
/// stopped by process id): a room's participants connect through different nodes and see
/// one room.
@Suite(.enabled(if: NATSServerProcess.executable != nil, "nats-server is not installed (make setup installs it)"), .heavy)
struct RelayClusterTests {
    /// A node's configuration: fast heartbeats, so nodes find each other at once, and a
    /// node timeout far longer than any test here, which kills no node: however busy the
    /// machine, no node is taken for dead.
    static func node(_ name: String, nats: Int, grace: Duration = .seconds(3)) throws -> RelayServerConfiguration {
        var configuration = RelayServerConfiguration(secret: RelayServerTests.secret, reconnectGrace: grace)
        var cluster = try RelayClusterConfiguration(servers: [NATSServerAddress(host: "127.0.0.1", port: nats)], node: name)
        cluster.heartbeatInterval = .milliseconds(100)
        cluster.nodeTimeout = .seconds(120)
        configuration.cluster = cluster
        return configuration
    }

    /// Runs `body` with the ports of `names.count` relay nodes of one cluster, and stops them
    /// and the nats-server however it ends.
    static func withCluster(
        _ names: [String] = ["a", "b", "c"], grace: Duration = .seconds(3),
        _ body: ([RelayServer], [Int], NATSServerProcess) async throws -> Void
    ) async throws {
        let nats = try await NATSServerProcess.start()
        defer { nats.stop() }
        var relays: [RelayServer] = []
        var ports: [Int] = []
        do {
            for name in names {
                let relay = RelayServer(
                    configuration: try node(name, nats: nats.port, grace: grace), logger: RelayServerTests.quiet)
                relays.append(relay)
                ports.append(try await relay.start(host: "127.0.0.1", port: 0))
            }
            try await body(relays, ports, nats)
        } catch {
            for relay in relays { await relay.shutdown() }
            throw error
        }
        for relay in relays { await relay.shutdown() }
    }

    static func connect(_ identity: String, port: Int, room: String = "canvas-7") async throws -> (
        RelayTransport, RelayServerTests.Events
    ) {
        let transport = try await RelayTransport.connect(
            host: "127.0.0.1", port: port, token: try RelayServerTests.token(identity, room: room))
        return (transport, RelayServerTests.Events(transport))
    }

    @Test func participantsOnThreeNodesShareOneRoomInOneOrderWithTrueSources() async throws {
        try await Self.withCluster { _, ports, _ in
            let (ada, adaEvents) = try await Self.connect("ada", port: ports[0])
            let (bo, boEvents) = try await Self.connect("bo", port: ports[1])
            let (cy, cyEvents) = try await Self.connect("cy", port: ports[2])
            let (stranger, strangerEvents) = try await Self.connect("dee", port: ports[1], room: "elsewhere")
            // Each newcomer's welcome names those before it; the others are told it joined.
            #expect(Set(cy.welcome.members.map(\.id)) == [ada.localParticipant.uuid, bo.localParticipant.uuid])
            #expect(bo.welcome.members.map(\.id) == [ada.localParticipant.uuid])
            try await eventually("ada to hear bo and cy join") {
                adaEvents.all.filter { if case .joined = $0 { true } else { false } }.count == 2
            }
            #expect(adaEvents.all.prefix(2) == [.joined(bo.localParticipant), .joined(cy.localParticipant)])
            try await eventually("bo to hear cy join") { boEvents.all.contains(.joined(cy.localParticipant)) }

            for index in 0..<50 { try await ada.send(Array("ada \(index)".utf8), to: .all) }
            for index in 0..<20 { try await cy.send(Array("cy \(index)".utf8), to: .only([bo.localParticipant])) }
            try await eventually("bo to have every frame") { boEvents.messages.count == 70 }
            try await eventually("cy to have ada's frames") { cyEvents.messages.count == 50 }
            let fromAda = boEvents.messages.filter { $0.source == ada.localParticipant }.map {
                String(decoding: $0.bytes, as: UTF8.self)
            }
            #expect(fromAda == (0..<50).map { "ada \($0)" })
            let fromCy = boEvents.messages.filter { $0.source == cy.localParticipant }.map {
                String(decoding: $0.bytes, as: UTF8.self)
            }
            #expect(fromCy == (0..<20).map { "cy \($0)" })
            #expect(cyEvents.messages.allSatisfy { $0.source == ada.localParticipant })
            #expect(adaEvents.messages.isEmpty)
            #expect(strangerEvents.messages.isEmpty && stranger.welcome.members.isEmpty)

            // A leave reaches every node, after every frame of the one who left.
            try await cy.send(Array("last".utf8), to: .all)
            await cy.close()
            try await eventually("ada and bo to hear cy leave") {
                adaEvents.all.contains(.left(cy.localParticipant)) && boEvents.all.contains(.left(cy.localParticipant))
            }
            let lastAt = try #require(
                adaEvents.all.firstIndex { if case .message(let m) = $0 { m.bytes == Array("last".utf8) } else { false } })
            let leftAt = try #require(adaEvents.all.firstIndex(of: .left(cy.localParticipant)))
            #expect(lastAt < leftAt)
            await ada.close()
            await bo.close()
            await stranger.close()
        }
    }

    /// One place per identity, cluster-wide: the same identity connecting through another
    /// node replaces its older connection there, and the others are told nothing.
    @Test func anIdentityConnectingThroughAnotherNodeReplacesItsOlderConnection() async throws {
        try await Self.withCluster { _, ports, _ in
            let (ada, adaEvents) = try await Self.connect("ada", port: ports[0])
            let (bo, boEvents) = try await Self.connect("bo", port: ports[2])
            try await eventually("ada to hear bo join") { adaEvents.all.contains(.joined(bo.localParticipant)) }
            let (again, againEvents) = try await Self.connect("ada", port: ports[1])
            #expect(again.localParticipant == ada.localParticipant)
            #expect(again.welcome.members.map(\.id) == [bo.localParticipant.uuid])
            // The older connection is told why and closed.
            try await eventually("the older connection to end") { adaEvents.finished.withLock { $0 } }
            #expect(ada.relayError?.code == .replaced)
            try await again.send(Array("from the new one".utf8), to: .all)
            try await eventually("bo to get the new connection's frame") { !boEvents.messages.isEmpty }
            #expect(boEvents.messages.map(\.source) == [ada.localParticipant])
            // bo saw ada once (in its welcome) and never leave.
            #expect(
                boEvents.all.filter { $0 == .joined(ada.localParticipant) || $0 == .left(ada.localParticipant) } == [
                    .joined(ada.localParticipant)
                ])
            #expect(againEvents.messages.isEmpty)
            await again.close()
            await bo.close()
        }
    }

    /// The nats-server a node talks through dies: the node reconnects to another server of
    /// the NATS cluster, and the room goes on.
    @Test func whenANATSServerDiesTheNodesMoveToAnotherAndTheRoomGoesOn() async throws {
        let first = try await NATSServerProcess.start(cluster: "bus", name: "n1")
        defer { first.stop() }
        let routes = [try #require(first.routePort)]
        let second = try await NATSServerProcess.start(cluster: "bus", routes: routes, name: "n2")
        defer { second.stop() }
        let third = try await NATSServerProcess.start(cluster: "bus", routes: routes, name: "n3")
        defer { third.stop() }
        var relays: [RelayServer] = []
        defer { for relay in relays { Task { await relay.shutdown() } } }
        var ports: [Int] = []
        // Node a talks through the first server, which dies; node b through the third.
        for (name, server) in [("a", first.port), ("b", third.port)] {
            let relay = RelayServer(configuration: try Self.node(name, nats: server), logger: RelayServerTests.quiet)
            relays.append(relay)
            ports.append(try await relay.start(host: "127.0.0.1", port: 0))
        }
        let (ada, _) = try await Self.connect("ada", port: ports[0])
        let (bo, boEvents) = try await Self.connect("bo", port: ports[1])
        try await eventually("bo to see ada") { bo.welcome.members.map(\.id) == [ada.localParticipant.uuid] }
        first.stop()
        // Until node a is on another server, its frames may be lost (core NATS delivers at
        // most once; the delivery layer sends again): it keeps sending until one arrives.
        var probe = 0
        try await eventually("a frame from ada after the move") {
            probe += 1
            try await ada.send(Array("probe \(probe)".utf8), to: .all)
            return !boEvents.messages.isEmpty
        }
        #expect(boEvents.messages.allSatisfy { $0.source == ada.localParticipant })
        #expect(!boEvents.all.contains(.left(ada.localParticipant)))
        // Each node counts what it did: a's reconnect to NATS, and b's one member held elsewhere.
        #expect(relays[0].metrics.exposition().containsLine("groupwire_relay_cluster_nats_reconnects_total 1"))
        #expect(relays[1].metrics.exposition().containsLine("groupwire_relay_cluster_nats_reconnects_total 0"))
        try await eventually("b to count ada as held elsewhere") {
            relays[1].metrics.exposition().containsLine("groupwire_relay_cluster_remote_members 1.0")
        }
        await ada.close()
        await bo.close()
        for relay in relays { await relay.shutdown() }
        relays = []
    }

    /// The article's participant that knows two nodes: a messenger through the first one
    /// reaches a participant of the second.
    @Test func aMessengerThatKnowsTwoNodesMeetsAParticipantOfTheOther() async throws {
        try await Self.withCluster(["a", "b"]) { _, ports, _ in
            let (bo, _) = try await Self.connect("bo", port: ports[1])
            let messenger = try await joinCluster(
                RelayAddress(host: "127.0.0.1", port: ports[0]), RelayAddress(host: "127.0.0.1", port: ports[1]),
                token: try RelayServerTests.token("ada"))
            try await eventually("ada's messenger to reach bo") { messenger.reachableParticipants.contains(bo.localParticipant) }
            await bo.close()
        }
    }

    /// A node whose NATS is gone still stops (SIGTERM's drain): nothing waits for an
    /// answer from a server that is not there.
    @Test func aNodeStopsWhenItsNATSServerIsGone() async throws {
        let nats = try await NATSServerProcess.start()
        defer { nats.stop() }
        let handler = InMemoryLogHandler()
        let relay = RelayServer(
            configuration: try Self.node("a", nats: nats.port), logger: Logger(label: "test") { _ in handler })
        _ = try await relay.start(host: "127.0.0.1", port: 0)
        nats.stop()
        try await eventually("the node's NATS client to lose its server") {
            handler.entries.contains { $0.message == "lost the connection" }
        }
        let stopped = Mutex(false)
        Task {
            await relay.shutdown()
            stopped.withLock { $0 = true }
        }
        try await eventually("the node to stop") { stopped.withLock { $0 } }
    }

    // MARK: Nodes on clocks of the test's

    /// A node whose heartbeats, node timeout and grace run on a clock of its own that only
    /// the test moves: a node is silent exactly while the test holds its clock still.
    struct TimedNode {
        let name: String
        let clock = VirtualClock()
        let relay: RelayServer
        let timer: TimerClock
        var port = 0

        init(_ name: String, nats: Int, grace: Duration) throws {
            self.name = name
            var configuration = try RelayClusterTests.node(name, nats: nats, grace: grace)
            configuration.clock = TimerClock(clock)
            configuration.cluster?.heartbeatInterval = .seconds(1)
            configuration.cluster?.nodeTimeout = .seconds(3)
            timer = configuration.clock
            relay = RelayServer(configuration: configuration, logger: RelayServerTests.quiet)
        }

        /// What this node has heard of the others.
        var heard: [String: Duration] { relay.cluster?.lastHeard ?? [:] }

        /// Starts the node, moving its clock through the heartbeat interval it listens first.
        mutating func start() async throws {
            let (relay, clock) = (self.relay, self.clock)
            let started = Mutex<Result<Int, any Error>?>(nil)
            Task {
                do {
                    let port = try await relay.start(host: "127.0.0.1", port: 0)
                    started.withLock { $0 = .success(port) }
                } catch {
                    started.withLock { $0 = .failure(error) }
                }
            }
            try await eventually("node \(name) to start") {
                if started.withLock({ $0 }) == nil { clock.advance(by: .milliseconds(100)) }
                return started.withLock { $0 } != nil
            }
            port = try #require(started.withLock { $0 }).get()
        }
    }

    /// Moves the clocks of `nodes` one second (one heartbeat) at a time, `seconds` times;
    /// after each second, waits until each has heard each other within the last second, so
    /// none is ever taken for dead by another of `nodes`.
    static func tick(_ nodes: [TimedNode], seconds: Int) async throws {
        for _ in 0..<seconds {
            for node in nodes { node.clock.advance(by: .seconds(1)) }
            try await eventually("the nodes to hear each other") {
                nodes.allSatisfy { node in
                    let now = node.timer.now()
                    return nodes.allSatisfy { other in
                        other.name == node.name || node.heard[other.name].map { now - $0 <= .seconds(1) } ?? false
                    }
                }
            }
        }
    }

    /// A room whose owner among `nodes` is `owner`.
    static func room(ownedBy owner: String, among nodes: [String]) -> String {
        (0...).lazy.map { "room-\($0)" }.first { RelayCluster.owner(of: $0, among: nodes) == owner } ?? ""
    }

    /// A node taken for dead that was only slow gets its members' places back: the room's
    /// owner heard nothing from node a for longer than the node timeout, started their
    /// grace, heard a again, and nobody sees a's member leave once the grace is over.
    @Test func aNodeTakenForDeadThatSpeaksAgainKeepsItsMembersPlaces() async throws {
        let nats = try await NATSServerProcess.start()
        defer { nats.stop() }
        var a = try TimedNode("a", nats: nats.port, grace: .seconds(5))
        var b = try TimedNode("b", nats: nats.port, grace: .seconds(5))
        defer { Task { [a, b] in for node in [a, b] { await node.relay.shutdown() } } }
        try await a.start()
        try await b.start()
        let room = Self.room(ownedBy: "b", among: ["a", "b"])
        try await eventually("the nodes to know each other") { a.heard["b"] != nil && b.heard["a"] != nil }
        let (ada, _) = try await Self.connect("ada", port: a.port, room: room)
        let (bo, boEvents) = try await Self.connect("bo", port: b.port, room: room)
        #expect(bo.welcome.members.map(\.id) == [ada.localParticipant.uuid])

        // Node a is silent (its clock stands still) while b's clock passes the node timeout.
        for _ in 0..<4 { b.clock.advance(by: .seconds(1)) }
        try await eventually("b to take a for dead") { b.heard["a"] == nil }
        // a speaks again, and b's clock then runs past the grace that began.
        a.clock.advance(by: .seconds(1))
        try await eventually("b to hear a again") { b.heard["a"] != nil }
        try await Self.tick([a, b], seconds: 6)
        try await ada.send(Array("still here".utf8), to: .all)
        try await eventually("ada's frame to reach bo") { !boEvents.messages.isEmpty }
        #expect(boEvents.messages.map(\.bytes) == [Array("still here".utf8)])
        #expect(!boEvents.all.contains(.left(ada.localParticipant)))
        await ada.close()
        await bo.close()
    }

    /// A node heard with another incarnation started again (a crash and a restart within the
    /// node timeout): the connections it held are gone, so their members keep their places
    /// only for the grace, though the node's name never went silent. Node c is the test's
    /// own NATS client speaking the cluster's messages.
    @Test func aNodeHeardWithAnotherIncarnationLosesTheConnectionsItHeld() async throws {
        let nats = try await NATSServerProcess.start()
        defer { nats.stop() }
        var b = try TimedNode("b", nats: nats.port, grace: .seconds(5))
        defer { Task { [b] in await b.relay.shutdown() } }
        try await b.start()
        let c = NATSClient(
            configuration: NATSClientConfiguration(
                servers: [NATSServerAddress(host: "127.0.0.1", port: nats.port)]))
        try await c.connect()
        defer { Task { await c.close() } }
        func beat(_ incarnation: UInt64) throws {
            try c.publish(RelayClusterMessage.heartbeat(node: "c", incarnation: incarnation).encoded(), to: "groupwire.nodes")
        }
        try beat(1)
        try await eventually("b to hear c") { b.heard["c"] != nil }
        let room = Self.room(ownedBy: "b", among: ["b", "c"])
        let (bo, boEvents) = try await Self.connect("bo", port: b.port, room: room)
        let cy = RelayMember(id: UUID(), identity: "cy")
        try c.publish(
            RelayClusterMessage.join(room: room, member: cy, holder: RelayClusterHolder(node: "c", connection: 1)).encoded(),
            to: "groupwire.node.b")
        let cyID = ParticipantID(uuid: cy.id)
        try await eventually("bo to see cy join") { boEvents.all.contains(.joined(cyID)) }
        // c starts again: a new incarnation, heard before any timeout. It stays alive.
        try beat(2)
        for _ in 0..<6 {
            b.clock.advance(by: .seconds(1))
            try beat(2)
            let now = b.timer.now()
            try await eventually("b to hear c's heartbeat") { b.heard["c"] == now }
        }
        try await eventually("cy to leave once its grace is over") { boEvents.all.contains(.left(cyID)) }
        await bo.close()
    }

    /// A node that owns a room again numbers it anew where every node listens: node a owned
    /// the room, node x (which outranks it) joined and owned it without a word in its stream,
    /// x died, and a, owning it once more, starts numbering from 1. Frames both ways arrive.
    @Test func aNodeThatOwnsARoomAgainIsHeardFromItsFirstEvent() async throws {
        let nats = try await NATSServerProcess.start()
        defer { nats.stop() }
        let room = (0...).lazy.map { "room-\($0)" }.first {
            RelayCluster.owner(of: $0, among: ["a", "b"]) == "a" && RelayCluster.owner(of: $0, among: ["a", "b", "x"]) == "x"
        }
        let name = try #require(room)
        var a = try TimedNode("a", nats: nats.port, grace: .seconds(30))
        var b = try TimedNode("b", nats: nats.port, grace: .seconds(30))
        var x = try TimedNode("x", nats: nats.port, grace: .seconds(30))
        defer { Task { [a, b, x] in for node in [a, b, x] { await node.relay.shutdown() } } }
        try await a.start()
        try await b.start()
        try await eventually("a and b to know each other") { a.heard["b"] != nil && b.heard["a"] != nil }
        let (ada, adaEvents) = try await Self.connect("ada", port: a.port, room: name)
        let (bo, boEvents) = try await Self.connect("bo", port: b.port, room: name)
        #expect(bo.welcome.members.map(\.id) == [ada.localParticipant.uuid])

        try await x.start()
        try await eventually("a and b to hear x") { a.heard["x"] != nil && b.heard["x"] != nil }
        await x.relay.shutdown()
        try await Self.tick([a, b], seconds: 4)
        try await eventually("a and b to take x for dead") { a.heard["x"] == nil && b.heard["x"] == nil }
        // What was on its way while the owners changed may be lost (RELAY.md "Failures"):
        // the frames go once a owns the room again and both hold their places (b's holdings
        // arrived; until then a keeps bo's place for its grace and drops its frames).
        try await eventually("a to own the room again with both places held") {
            a.relay.cluster?.places(in: name) == [ada.localParticipant.uuid, bo.localParticipant.uuid]
        }

        try await ada.send(Array("from ada".utf8), to: .all)
        try await bo.send(Array("from bo".utf8), to: .all)
        try await eventually("each frame to reach the other") { !boEvents.messages.isEmpty && !adaEvents.messages.isEmpty }
        #expect(boEvents.messages.map(\.bytes) == [Array("from ada".utf8)])
        #expect(adaEvents.messages.map(\.bytes) == [Array("from bo".utf8)])
        #expect(!boEvents.all.contains(.left(ada.localParticipant)) && !adaEvents.all.contains(.left(bo.localParticipant)))
        await ada.close()
        await bo.close()
    }

    /// Nodes see a death at different moments: a, first to see node c die, sends the room's
    /// new owner b its holdings while b still counts c alive. b keeps them, and once the
    /// grace of c's members is over nobody has seen a's member leave.
    @Test func theNewOwnerKeepsWhatItWasSentBeforeItSawTheDeathItself() async throws {
        let nats = try await NATSServerProcess.start()
        defer { nats.stop() }
        let room = try #require(
            (0...).lazy.map { "room-\($0)" }.first {
                RelayCluster.owner(of: $0, among: ["a", "b", "c"]) == "c" && RelayCluster.owner(of: $0, among: ["a", "b"]) == "b"
            })
        var a = try TimedNode("a", nats: nats.port, grace: .seconds(5))
        var b = try TimedNode("b", nats: nats.port, grace: .seconds(5))
        var c = try TimedNode("c", nats: nats.port, grace: .seconds(5))
        defer { Task { [a, b, c] in for node in [a, b, c] { await node.relay.shutdown() } } }
        try await a.start()
        try await b.start()
        try await c.start()
        try await eventually("the nodes to know each other") { a.heard.count == 2 && b.heard.count == 2 }
        let (ada, _) = try await Self.connect("ada", port: a.port, room: room)
        let (bo, boEvents) = try await Self.connect("bo", port: b.port, room: room)
        #expect(bo.welcome.members.map(\.id) == [ada.localParticipant.uuid])
        await c.relay.shutdown()

        // a and b hear each other for two seconds; then a's clock runs two more, so a takes
        // c for dead and sends b (the room's next owner) its holdings.
        try await Self.tick([a, b], seconds: 2)
        for _ in 0..<2 { a.clock.advance(by: .seconds(1)) }
        try await eventually("a to take c for dead") { a.heard["c"] == nil }
        try await eventually("b to be sent the room") { b.relay.cluster?.ownedRooms == [room] }
        // b's next heartbeat comes while it still counts c alive; the one after, c is dead to b too.
        b.clock.advance(by: .seconds(1))
        try await eventually("a to hear b") { a.heard["b"].map { a.timer.now() - $0 <= .seconds(1) } ?? false }
        #expect(b.heard["c"] != nil)
        try await Self.tick([a, b], seconds: 7)
        #expect(b.heard["c"] == nil && b.relay.cluster?.ownedRooms == [room])
        try await ada.send(Array("after c".utf8), to: .all)
        try await eventually("ada's frame to reach bo") { !boEvents.messages.isEmpty }
        #expect(boEvents.messages.map(\.bytes) == [Array("after c".utf8)])
        #expect(!boEvents.all.contains(.left(ada.localParticipant)))
        await ada.close()
        await bo.close()
    }
}
