import Foundation
import GroupWire
import GroupWireSession
import GroupWireTestSupport
import Synchronization
import Testing

@testable import GroupWireNetwork

/// `groupwire relay --cluster` as an operator runs it: a nats-server and three relay node
/// processes on loopback, each on ports of its own, all stopped by process id however the
/// test ends; one node is killed with SIGKILL while reliable frames are in flight.
@Suite(.enabled(if: NATSServerProcess.executable != nil, "nats-server is not installed (make setup installs it)"), .heavy)
struct RelayClusterEndToEndTests {
    /// A relay node of the cluster behind `nats`, quick to notice a dead peer (a tenth of a
    /// second between heartbeats), with a reconnect grace far longer than any move takes.
    static func node(_ name: String, nats: Int) async throws -> RelayCommandEndToEndTests.RelayProcess {
        try await RelayCommandEndToEndTests.RelayProcess([
            "--cluster", "nats://127.0.0.1:\(nats)", "--node", name, "--cluster-heartbeat", "0.1", "--cluster-node-timeout",
            "0.5", "--reconnect-grace", "60",
        ])
    }

    /// What a delivery layer hands up.
    final class Delivered: Sendable {
        private let items = Mutex<[TransportEvent]>([])

        init(_ transport: DeliveryTransport) {
            let events = transport.events
            Task { [self] in
                for await event in events { items.withLock { $0.append(event) } }
            }
        }

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

    @Test func aKilledNodesParticipantMovesToAnotherNodeAndReliableFramesArriveOnceInOrder() async throws {
        let nats = try await NATSServerProcess.start()
        defer { nats.stop() }
        let a = try await Self.node("a", nats: nats.port)
        defer { a.stop() }
        let b = try await Self.node("b", nats: nats.port)
        defer { b.stop() }
        let c = try await Self.node("c", nats: nats.port)
        defer { c.stop() }

        var layer = DeliveryConfiguration()
        layer.peerTimeout = .seconds(120)
        let adaRelay = try await RelayTransport.connect(
            host: "127.0.0.1", port: a.port, token: try RelayCommandEndToEndTests.token("ada"),
            reconnect: RelayReconnect(within: .seconds(120)))
        // bo knows the other nodes: when its own dies, it goes to the next.
        let boRelay = try await RelayTransport.connect(
            host: "127.0.0.1", port: b.port, token: try RelayCommandEndToEndTests.token("bo"),
            reconnect: RelayReconnect(
                within: .seconds(120),
                alternatives: [RelayAddress(host: "127.0.0.1", port: c.port), RelayAddress(host: "127.0.0.1", port: a.port)]))
        let ada = DeliveryTransport(over: adaRelay, configuration: layer)
        let bo = DeliveryTransport(over: boRelay, configuration: layer)
        let adaGot = Delivered(ada)
        let boGot = Delivered(bo)
        try await eventually("each to know the other") {
            adaGot.joined == [bo.localParticipant] && boGot.joined == [ada.localParticipant]
        }

        let bodies = (0..<300).map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] + [UInt8](repeating: 0x62, count: 100) }
        let frames = try bodies.map { try FrameEncoder().encode(Frame(typeID: 1, body: $0)) }
        for (index, frame) in frames.enumerated() {
            if index == 100 {
                // bo's node dies with frames in flight: no FIN to its clients' leaves, no goodbye.
                b.running.signal(SIGKILL)
            }
            try await ada.send([frame], to: .all, mode: .reliable)
            if index % 10 == 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        try await eventually("bo to get all 300 frames through another node") { boGot.bodies.count >= 300 }
        let got = boGot.bodies.map { Int($0[0]) << 8 | Int($0[1]) }
        #expect(
            got == Array(0..<300),
            "every frame once, in order; first differences: \(zip(got, 0...).filter { $0 != $1 }.prefix(5))")
        try await bo.send([try FrameEncoder().encode(Frame(typeID: 2, body: [0xB0]))], to: .all, mode: .reliable)
        try await eventually("ada to get bo's answer") { adaGot.bodies == [[0xB0]] }
        #expect(boRelay.statistics.reconnects == 1)
        // bo came back within its grace: nobody saw it leave. It resumed its place, or (when
        // it was back before the room's owner took its node for dead) replaced the
        // connection the owner still counted; either way the others are told nothing.
        #expect(adaGot.left.isEmpty && boGot.left.isEmpty)
        let log = c.log.value
        #expect(log.contains("participant=bo") && (log.contains("resumed") || log.contains("replaced an older connection")))
        await adaRelay.close()
        await boRelay.close()
    }
}
