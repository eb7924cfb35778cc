import Foundation
import GroupWire
import GroupWireRelay
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import InMemoryLogging
import Logging
import Synchronization
import Testing

@testable import GroupWireNetwork

/// Reconnecting over loopback: a connection cut without a close frame is made again within
/// the relay's grace period, nobody sees the participant leave, and the delivery layer over
/// the reconnecting transport loses nothing in reliable mode.
@Suite(.heavy) struct RelayReconnectTests {
    typealias Events = RelayServerTests.Events

    /// Collects a delivery layer's events.
    final class Delivered: Sendable {
        private let items = Mutex<[TransportEvent]>([])

        init(_ transport: DeliveryTransport) {
            let events = transport.events
            Task { [self] in
                for await event in events { items.withLock { $0.append(event) } }
            }
        }

        /// The bodies of the frames delivered (the layer hands frames on with its header).
        var bodies: [[UInt8]] {
            items.withLock {
                $0.compactMap {
                    if case .message(let message) = $0 { try? FrameDecoder().decode(message.bytes).body } else { nil }
                }
            }
        }
        var joined: [ParticipantID] { items.withLock { $0.compactMap { if case .joined(let id) = $0 { id } else { nil } } } }
        var left: [ParticipantID] { items.withLock { $0.compactMap { if case .left(let id) = $0 { id } else { nil } } } }
    }

    @Test func cutConnectionsComeBackAndReliableModeMissesNothing() async throws {
        let handler = InMemoryLogHandler()
        // The grace period runs on a clock that stands still: however long a busy machine
        // takes to reconnect, nobody's place runs out (the grace's meaning has its own test).
        let relay = RelayServer(
            configuration: RelayServerConfiguration(
                secret: RelayServerTests.secret, reconnectGrace: .seconds(3),
                clock: TimerClock(VirtualClock())),
            logger: Logger(label: "test") { _ in handler })
        try await RelayServerTests.serving(relay) { port in
            // The clients keep trying for as long as the test may take; their peer timeout
            // likewise never runs out before they are back.
            let patient = RelayReconnect(within: .seconds(120))
            var layer = DeliveryConfiguration()
            layer.peerTimeout = .seconds(120)
            let adaRelay = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try RelayServerTests.token("ada"),
                reconnect: patient)
            let boRelay = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try RelayServerTests.token("bo"),
                reconnect: patient)
            #expect(
                !adaRelay.guarantees.isReliable && !adaRelay.guarantees.isOrdered,
                "a reconnecting transport can lose what is in flight")
            let ada = DeliveryTransport(over: adaRelay, configuration: layer)
            let bo = DeliveryTransport(over: boRelay, configuration: layer)
            #expect(!ada.isPassThrough)
            let boGot = Delivered(bo)
            let adaGot = Delivered(ada)
            // A frame to everyone goes to the peers the layer knows of.
            try await eventually("each to know the other") {
                adaGot.joined == [bo.localParticipant] && boGot.joined == [ada.localParticipant]
            }

            let bodies = (0..<300).map { index in [UInt8(index >> 8), UInt8(index & 0xFF)] + [UInt8](repeating: 0x61, count: 200)
            }
            let frames = try bodies.map { try FrameEncoder().encode(Frame(typeID: 1, body: $0)) }
            for (index, frame) in frames.enumerated() {
                if index == 100 { adaRelay.cutConnection() }  // the sender's connection
                if index == 200 { boRelay.cutConnection() }  // the receiver's
                try await ada.send([frame], to: .all, mode: .reliable)
                // Paces the sends on purpose, so that both cuts fall while frames are in flight.
                if index % 10 == 0 { try await Task.sleep(for: .milliseconds(2)) }
            }
            let reply = try FrameEncoder().encode(Frame(typeID: 2, body: [0xB0]))
            try await bo.send([reply], to: .all, mode: .reliable)
            try await eventually("bo to get all 300 frames") { boGot.bodies.count >= 300 }
            // Compared by number: a mismatch names the first frames out of place, not 60 KB.
            let got = boGot.bodies.map { Int($0[0]) << 8 | Int($0[1]) }
            #expect(
                got == Array(0..<300),
                "every frame once, in order; first differences: \(zip(got, 0...).filter { $0 != $1 }.prefix(5))")
            #expect(boGot.bodies == bodies)
            try await eventually("ada to get bo's frame") { adaGot.bodies == [[0xB0]] }
            try await eventually("both reconnects") { adaRelay.statistics.reconnects == 1 && boRelay.statistics.reconnects == 1 }
            // Nobody saw anybody leave.
            #expect(boGot.left.isEmpty && adaGot.left.isEmpty)
            // Each came back into its place: resumed after the relay saw the cut, or replacing
            // a connection it had not yet seen fail (a loaded machine); no one left.
            let entries = handler.entries
            let back = entries.filter { $0.message == "resumed" || $0.message == "replaced an older connection" }
            #expect(back.compactMap { $0.metadata["participant"].map { "\($0)" } }.sorted() == ["ada", "bo"])
            #expect(entries.filter { $0.message == "lost" }.count == back.filter { $0.message == "resumed" }.count)
            #expect(!entries.contains { $0.message == "left" && $0.metadata["reason"] == "lost" })
            #expect(relay.metrics.exposition().containsLine("groupwire_relay_reconnects_total 2"))
            await adaRelay.close()
            await boRelay.close()
        }
    }

    /// A client that never reconnects itself still runs the delivery layer: what it sends
    /// to a peer that is away within the relay's grace is dropped by the relay without a
    /// word, and is sent again once the peer is back.
    @Test func aClientThatDoesNotReconnectStillGetsItsFramesToAPeerThatDoes() async throws {
        let relay = RelayServer(
            configuration: RelayServerConfiguration(
                secret: RelayServerTests.secret, reconnectGrace: .seconds(3), clock: TimerClock(VirtualClock())),
            logger: RelayServerTests.quiet)
        try await RelayServerTests.serving(relay) { port in
            var layer = DeliveryConfiguration()
            layer.peerTimeout = .seconds(120)
            let adaRelay = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try RelayServerTests.token("ada"))
            let boRelay = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try RelayServerTests.token("bo"),
                reconnect: RelayReconnect(within: .seconds(120)))
            #expect(!adaRelay.guarantees.isReliable && adaRelay.guarantees.isOrdered)
            let ada = DeliveryTransport(over: adaRelay, configuration: layer)
            let bo = DeliveryTransport(over: boRelay, configuration: layer)
            #expect(!ada.isPassThrough, "a relay can drop frames to a reconnecting peer")
            let boGot = Delivered(bo)
            let adaGot = Delivered(ada)
            try await eventually("each to know the other") {
                adaGot.joined == [bo.localParticipant] && boGot.joined == [ada.localParticipant]
            }
            for index in 0..<200 {
                if index == 100 { boRelay.cutConnection() }
                let frame = try FrameEncoder().encode(Frame(typeID: 1, body: [UInt8(index)]))
                try await ada.send([frame], to: .all, mode: .reliable)
                if index % 10 == 0 { try await Task.sleep(for: .milliseconds(2)) }
            }
            try await eventually("bo to get all 200 frames") { boGot.bodies.count >= 200 }
            #expect(boGot.bodies == (0..<200).map { [UInt8($0)] })
            #expect(boGot.left.isEmpty && adaGot.left.isEmpty)
            await adaRelay.close()
            await boRelay.close()
        }
    }

    @Test func aParticipantNotBackWithinTheGraceLeavesThenAndOneThatClosesLeavesAtOnce() async throws {
        let handler = InMemoryLogHandler()
        let clock = VirtualClock()
        let relay = RelayServer(
            configuration: RelayServerConfiguration(
                secret: RelayServerTests.secret, reconnectGrace: .milliseconds(500),
                clock: TimerClock(clock)),
            logger: Logger(label: "test") { _ in handler })
        try await RelayServerTests.serving(relay) { port in
            let watcher = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try RelayServerTests.token("watcher"))
            let watched = Events(watcher)
            // No reconnecting: the cut connection stays gone.
            let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try RelayServerTests.token("ada"))
            let bo = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try RelayServerTests.token("bo"))
            ada.cutConnection()
            await bo.close()
            func departures() -> [ParticipantID] { watched.all.compactMap { if case .left(let id) = $0 { id } else { nil } } }
            // What a wait that timed out saw instead (it did once, in the full suite).
            let seen = {
                "the watcher saw \(watched.all) (ada \(ada.localParticipant), bo \(bo.localParticipant)); the relay logged "
                    + handler.entries.map { "\($0.message) \($0.metadata["participant"].map { "\($0)" } ?? "")" }
                    .joined(separator: ", ")
            }
            // bo closed: it leaves at once, with no time passing.
            try await eventually("the watcher to see bo leave", state: seen) { departures() == [bo.localParticipant] }
            try await eventually("the relay to see ada's connection lost", state: seen) {
                handler.entries.contains { $0.message == "lost" } && relay.census == ["canvas-7": 1]
            }
            // ada is kept for the grace period: 499 ms of it pass and she is still there
            // (a marker from the watcher's side of the room comes back before any leave).
            clock.advance(by: .milliseconds(499))
            let marker = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try RelayServerTests.token("marker"))
            #expect(
                marker.welcome.members.map(\.identity).sorted() == ["ada", "watcher"], "ada keeps her place within the grace")
            await marker.close()
            try await eventually("the watcher to see the marker come and go") {
                departures() == [bo.localParticipant, marker.localParticipant]
            }
            // The grace ends: she leaves, as lost.
            clock.advance(by: .milliseconds(1))
            try await eventually("the watcher to see ada leave") { departures().count == 3 }
            #expect(departures() == [bo.localParticipant, marker.localParticipant, ada.localParticipant])
            let messages = handler.entries.map { "\($0.message) \($0.metadata["participant"].map { "\($0)" } ?? "")" }
            let lost = try #require(messages.firstIndex(of: "lost ada"))
            let left = try #require(messages.firstIndex(of: "left ada"))
            #expect(lost < left)
            let leftEntry = handler.entries[left]
            #expect(leftEntry.metadata["reason"] == "lost")
            #expect(relay.census == ["canvas-7": 1])
            await watcher.close()
        }
    }

    @Test func aCutClientWaitsForItsPauseOnItsOwnClockBeforeItDialsAgain() async throws {
        let relay = RelayServer(
            configuration: RelayServerConfiguration(
                secret: RelayServerTests.secret, reconnectGrace: .seconds(30),
                clock: TimerClock(VirtualClock())),
            logger: RelayServerTests.quiet)
        try await RelayServerTests.serving(relay) { port in
            let clock = VirtualClock()
            let ada = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try RelayServerTests.token("ada"),
                reconnect: RelayReconnect(within: .seconds(3), firstDelay: .milliseconds(100)),
                clock: TimerClock(clock))
            let adaEvents = Events(ada)
            ada.cutConnection()
            // The first pause is set on the client's clock; while it stands still nothing is dialled.
            try await eventually("the reconnect loop to wait for its first pause") {
                clock.deadlines.contains(.milliseconds(100))
            }
            clock.advance(by: .milliseconds(99))
            #expect(clock.deadlines.contains(.milliseconds(100)) && ada.statistics.reconnects == 0)
            clock.advance(by: .milliseconds(1))
            try await eventually("ada to be back") { ada.statistics.reconnects == 1 }
            // Back in its place: it can send, and its stream went on without a leave.
            let bo = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try RelayServerTests.token("bo"))
            #expect(bo.welcome.members.map(\.identity) == ["ada"])
            try await eventually("ada to see bo join") { adaEvents.all.contains(.joined(bo.localParticipant)) }
            #expect(!adaEvents.all.contains { if case .left = $0 { true } else { false } })
            await bo.close()
            await ada.close()
        }
    }

    @Test func aNewcomerDuringTheGraceSeesTheAbsentParticipantAsAMember() async throws {
        let relay = RelayServer(
            configuration: RelayServerConfiguration(secret: RelayServerTests.secret, reconnectGrace: .seconds(30)),
            logger: RelayServerTests.quiet)
        try await RelayServerTests.serving(relay) { port in
            let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try RelayServerTests.token("ada"))
            ada.cutConnection()
            try await eventually("ada's connection to be gone") { relay.census.isEmpty }
            let bo = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try RelayServerTests.token("bo"))
            #expect(bo.welcome.members.map(\.identity) == ["ada"], "ada keeps its place for the grace period")
            // ada comes back: bo is not told anything new.
            let boEvents = Events(bo)
            let again = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try RelayServerTests.token("ada"))
            #expect(again.localParticipant == ada.localParticipant && again.welcome.members.map(\.identity) == ["bo"])
            try await again.send([1], to: .all)
            try await eventually("bo to get ada's frame") { boEvents.messages.count == 1 }
            #expect(
                boEvents.all == [
                    .joined(ada.localParticipant),
                    .message(TransportMessage(source: ada.localParticipant, bytes: [1], arrival: .zero)),
                ])
            await again.close()
            await bo.close()
        }
    }
}

extension [UInt8] {
    /// Whether the text has `line` as one of its lines.
    func containsLine(_ line: String) -> Bool {
        String(decoding: self, as: UTF8.self).split(separator: "\n").contains { $0 == line }
    }
}
