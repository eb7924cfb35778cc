import Foundation
import GroupWireRelay
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import InMemoryLogging
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import GroupWireNetwork

/// The relay as an operator sees it, over loopback: a client that stops reading, the
/// metrics endpoint, the drain bound of a shutdown, and the relay as a lifecycle service.
@Suite(.heavy) struct RelayOperationsTests {
    typealias Events = RelayServerTests.Events

    static func token(_ identity: String, room: String = "canvas-7") throws -> String {
        try RelayServerTests.token(identity, room: room)
    }

    /// The samples of the relay's `/metrics`, by name with labels (`name{label="v"}`).
    static func scrape(_ port: Int) async throws -> [String: Double] {
        let answer = try await LoopbackSocket.httpGet(port: port, path: "/metrics")
        try #require(answer.hasPrefix("HTTP/1.1 200"), "the metrics answer: \(answer.prefix(200))")
        try #require(answer.contains("Content-Type: text/plain; version=0.0.4"), "the metrics content type")
        let body = try #require(answer.range(of: "\r\n\r\n").map { answer[$0.upperBound...] })
        var samples: [String: Double] = [:]
        for line in body.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    @Test func aClientThatStopsReadingIsDroppedAsTooSlowWhileTheOthersGetEverything() async throws {
        let handler = InMemoryLogHandler()
        let relay = RelayServer(
            configuration: RelayServerConfiguration(secret: RelayServerTests.secret, maxQueuedBytes: 1 << 20),
            logger: Logger(label: "test") { _ in handler })
        try await RelayServerTests.serving(relay) { port in
            let frozen = try StalledClient(port: port, token: try Self.token("frozen"))
            defer { frozen.close() }
            #expect(frozen.statusLine.hasPrefix("HTTP/1.1 101"), "\(frozen.statusLine)")
            // The upgrade is answered before the relay's task puts the client in its room.
            try await eventually("the frozen client to be in the room") { relay.census == ["canvas-7": 1] }
            let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
            let bo = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("bo"))
            let boEvents = Events(bo)
            let frozenID = ParticipantID(uuid: RelayIdentity.participantID(room: "canvas-7", identity: "frozen"))
            #expect(ada.welcome.members.map(\.identity) == ["frozen"])
            // 6 MB for everyone, far past the frozen client's 1 MiB queue and its socket; sent
            // in steps that bo keeps up with (a burst past its queue would drop bo too).
            let frames = (0..<100).map { index in [UInt8](repeating: UInt8(index), count: 60_000) }
            for step in 0..<10 {
                for frame in frames[(step * 10)..<(step * 10 + 10)] { try await ada.send(frame, to: .all) }
                try await eventually("bo to get \(step * 10 + 10) frames") { boEvents.messages.count == step * 10 + 10 }
            }
            #expect(boEvents.messages.map(\.bytes) == frames, "bo got every frame, in order")
            try await eventually("bo to see the frozen client leave") {
                boEvents.all.contains { if case .left(let id) = $0 { id == frozenID } else { false } }
            }
            try await eventually("the leave to be logged") { handler.entries.contains { $0.message == "left" } }
            let left = try #require(handler.entries.first { $0.message == "left" })
            #expect(left.metadata["participant"] == "frozen" && left.metadata["reason"] == "tooSlow")
            #expect(try await Self.scrape(port)["groupwire_relay_drops_total{reason=\"tooSlow\"}"] == 1)
            #expect(relay.census == ["canvas-7": 2])
            // The frozen client's socket was reset, not closed gracefully: the relay's
            // megabytes did not stay in its kernel, and the client reads a reset, not an end.
            do {
                let rest = try frozen.readUntilEnd()
                Issue.record("the connection ended gracefully after \(rest.count) more bytes")
            } catch {
                #expect("\(error)".contains("errno 104"), "\(error)")
            }
            await ada.close()
            await bo.close()
        }
    }

    @Test func theMetricsEndpointCountsRoomsTrafficRefusalsDropsAndReconnects() async throws {
        let configuration = RelayServerConfiguration(secret: RelayServerTests.secret, maxMessagesPerSecond: 1, burst: 20)
        try await RelayServerTests.withRelay(configuration) { relay, port in
            let before = try await Self.scrape(port)
            #expect(before["groupwire_relay_rooms"] == 0 && before["groupwire_relay_participants"] == 0)
            #expect(before["groupwire_relay_frames_received_total"] == 0 && before["groupwire_relay_bytes_delivered_total"] == 0)

            let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
            let bo = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("bo"))
            let boEvents = Events(bo)
            let cy = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try Self.token("cy", room: "elsewhere"))
            let frame = [UInt8](repeating: 5, count: 100)
            for _ in 0..<3 { try await ada.send(frame, to: .all) }
            try await eventually("bo to get ada's three frames") { boEvents.messages.count == 3 }
            let sent = RelayMessage.send(to: nil, frame: frame).encoded().count
            let delivered = RelayMessage.deliver(from: ada.localParticipant.uuid, frame: frame).encoded().count
            let traffic = try await Self.scrape(port)
            #expect(traffic["groupwire_relay_rooms"] == 2 && traffic["groupwire_relay_participants"] == 3)
            #expect(traffic["groupwire_relay_connections_total"] == 3)
            #expect(
                traffic["groupwire_relay_frames_received_total"] == 3
                    && traffic["groupwire_relay_bytes_received_total"] == Double(3 * sent))
            // Only bo shares ada's room.
            #expect(traffic["groupwire_relay_frames_delivered_total"] == 3)
            #expect(traffic["groupwire_relay_bytes_delivered_total"] == Double(3 * delivered))

            let wrongSecret = try AccessToken(
                room: "canvas-7", identity: "eve", expiresAt: Int64(Date().timeIntervalSince1970) + 60
            )
            .signed(secret: Array("another secret".utf8))
            await #expect(throws: RelayConnectError.self) {
                _ = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: wrongSecret)
            }
            let flooder = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try Self.token("flooder", room: "elsewhere"))
            let flooderEvents = Events(flooder)
            for index in 0..<100 {
                do { try await flooder.send([UInt8(index)], to: .all) } catch { break }
            }
            try await eventually("the flooder to be cut off") { flooderEvents.finished.withLock { $0 } }
            let again = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("bo"))
            try await eventually("the first bo to be replaced") { boEvents.finished.withLock { $0 } }
            try await eventually("the flooder's leave to reach the census") { relay.census == ["canvas-7": 2, "elsewhere": 1] }
            let after = try await Self.scrape(port)
            #expect(after["groupwire_relay_refusals_total{status=\"401\"}"] == 1)
            #expect(after["groupwire_relay_drops_total{reason=\"rateLimited\"}"] == 1)
            #expect(
                after["groupwire_relay_drops_total{reason=\"replaced\"}"] == nil,
                "a replaced connection is a reconnect, not a drop")
            #expect(after["groupwire_relay_reconnects_total"] == 1)
            #expect(after["groupwire_relay_connections_total"] == 5)
            #expect(after["groupwire_relay_participants"] == 3 && after["groupwire_relay_rooms"] == 2)
            for client in [ada, again, cy] { await client.close() }
            try await eventually("everyone to have left") { relay.census.isEmpty }
            let empty = try await Self.scrape(port)
            #expect(empty["groupwire_relay_participants"] == 0 && empty["groupwire_relay_rooms"] == 0)
        }
    }

    @Test func noMetricsPathServesNoMetrics() async throws {
        try await RelayServerTests.withRelay(RelayServerConfiguration(secret: RelayServerTests.secret, metricsPath: nil)) {
            _, port in
            let answer = try await LoopbackSocket.httpGet(port: port, path: "/metrics")
            #expect(answer.hasPrefix("HTTP/1.1 404"), "\(answer.prefix(80))")
        }
    }

    @Test func shutdownClosesAClientThatDoesNotReadOnceTheDrainTimeoutPasses() async throws {
        let handler = InMemoryLogHandler()
        // The drain timeout runs on a clock the test moves.
        let clock = VirtualClock()
        let relay = RelayServer(
            configuration: RelayServerConfiguration(
                secret: RelayServerTests.secret, maxQueuedBytes: 64 << 20, drainTimeout: .seconds(5),
                clock: TimerClock(clock)),
            logger: Logger(label: "test") { _ in handler })
        let port = try await relay.start(host: "127.0.0.1", port: 0)
        let frozen = try StalledClient(port: port, token: try Self.token("frozen"))
        defer { frozen.close() }
        try await eventually("the frozen client to be in the room") { relay.census == ["canvas-7": 1] }
        let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
        let adaEvents = Events(ada)
        // 12 MB queued for a client that reads nothing: its writer waits on the socket.
        for index in 0..<200 { try await ada.send([UInt8](repeating: UInt8(index), count: 60_000), to: .all) }
        try await eventually("the relay to take all 200 frames") {
            relay.metrics.exposition().containsLine("groupwire_relay_frames_received_total 200")
        }
        let stopped = Mutex(false)
        let stopping = Task {
            await relay.shutdown()
            stopped.withLock { $0 = true }
        }
        // ada reads: she gets the close and leaves. The frozen client's writer holds the
        // shutdown until the drain timeout, which cannot pass while the clock stands still.
        try await eventually("ada's events to end") { adaEvents.finished.withLock { $0 } }
        #expect(ada.relayError?.code == .shuttingDown)
        try await eventually("only the frozen client to be left") { relay.census == ["canvas-7": 1] }
        #expect(stopped.withLock { $0 } == false, "the shutdown waits for the frozen client")
        #expect(!handler.entries.contains { $0.message == "drain timed out; closing the connections still open" })
        clock.advance(by: .seconds(5))
        try await eventually("shutdown to return") { stopped.withLock { $0 } }
        await stopping.value
        let timedOut = try #require(handler.entries.first { $0.message == "drain timed out; closing the connections still open" })
        #expect(timedOut.metadata["connections"] == "1")
    }

    @Test func asAServiceTheRelayStopsOnGracefulShutdownAndTellsEveryClient() async throws {
        let relay = RelayServer(
            configuration: RelayServerConfiguration(secret: RelayServerTests.secret), logger: RelayServerTests.quiet)
        let bound = Mutex<Int?>(nil)
        let service = RelayService(relay: relay, host: "127.0.0.1", port: 0) { port in bound.withLock { $0 = port } }
        let group = ServiceGroup(services: [service], logger: RelayServerTests.quiet)
        let running = Task { try await group.run() }
        do {
            try await eventually("the relay to listen") { bound.withLock { $0 } != nil }
            let port = try #require(bound.withLock { $0 })
            let clients = try await withThrowingTaskGroup(of: RelayTransport.self) { tasks in
                for name in ["ada", "bo", "cy"] {
                    tasks.addTask { try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token(name)) }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            let events = clients.map(Events.init)
            // Traffic in flight while the group shuts down (at most 1,000 a second: under the rate limit).
            let sending = Task {
                for index in 0..<10_000 {
                    do { try await clients[0].send([UInt8(truncatingIfNeeded: index)], to: .all) } catch { return }
                    // Paces the load on purpose: below the relay's rate limit, so the shutdown meets traffic, not a cut-off.
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
            try await eventually("traffic to flow") { events[1].messages.count > 10 }
            await group.triggerGracefulShutdown()
            try await running.value
            await sending.value
            for (client, clientEvents) in zip(clients, events) {
                try await eventually("\(client.welcome.you.identity)'s events to end") { clientEvents.finished.withLock { $0 } }
                #expect(
                    client.relayError?.code == .shuttingDown,
                    "\(client.welcome.you.identity): \(String(describing: client.relayError))")
            }
            #expect(relay.census.isEmpty)
        } catch {
            running.cancel()
            throw error
        }
    }
}
