import DrawTogetherV1Golden
import DrawTogetherV3Golden
import Foundation
import GroupWire
import GroupWireCompression
import GroupWireNegotiation
import GroupWireRelay
import GroupWireSession
import GroupWireSpec
import GroupWireTestSupport
import GroupWireTesting
import Synchronization
import Testing

@testable import GroupWireNetwork

// AcrossProcesses.md: begin
/// A participant in a process of its own, through the relay: the same one call as over the hub.
func joinThroughRelay(port: Int, token: String) async throws -> SharedSessionCoordinator {
    let transport = try await RelayTransport.connect(
        host: "127.0.0.1", port: port, token: token,
        reconnect: RelayReconnect())
    return SharedSessionCoordinator(over: transport, codec: try PayloadCompressor())
}
// AcrossProcesses.md: end

/// The whole stack over a real relay on loopback: group sessions, negotiation between a v1
/// and a v3 peer (the v3 one without zstd), strokes both ways, and a late joiner catching
/// up from a compressed, fragmented snapshot.
@Suite(.heavy) struct RelaySessionTests {
    struct Canvas: SharedActivity, Equatable {
        static let activityIdentifier = "com.example.draw-together"
        var name: String
        var activityMetadata: SharedActivityMetadata { SharedActivityMetadata(title: name, type: .createTogether) }
    }

    static func schema(_ path: String) throws -> HelloSchema {
        try HelloSchema(
            spec: try SpecCompiler().compile(entry: RepositoryPaths.path(path), loader: FileSpecLoader()).checkedSpec())
    }

    /// A participant: transport, negotiating messenger, coordinator, the sessions it is offered.
    struct Participant {
        let transport: RelayTransport
        let messenger: Messenger
        let coordinator: SharedSessionCoordinator
        let sessions: Collected<SharedSession<Canvas>>

        static func connect(port: Int, identity: String, schema: HelloSchema, zstd: Bool) async throws -> Participant {
            let token = try AccessToken(
                room: "canvas-7", identity: identity, expiresAt: Int64(Date().timeIntervalSince1970) + 600
            )
            .signed(secret: RelayServerTests.secret)
            let transport = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: token)
            let messenger = Messenger(
                transport: transport,
                configuration: MessengerConfiguration(
                    codec: zstd ? try PayloadCompressor() : nil, negotiation: NegotiationSettings(schema: schema)))
            let coordinator = SharedSessionCoordinator(messenger: messenger)
            return Participant(
                transport: transport, messenger: messenger, coordinator: coordinator,
                sessions: Collected(coordinator.sessions(for: Canvas.self)))
        }
    }

    @Test func aSessionWhoseConnectionTheRelayClosesIsInvalidatedWithTheRelaysReasonAndSendsThrow() async throws {
        // Time stands still for the rate limit: the 21st message of the run is over it.
        let clock = VirtualClock()
        let configuration = RelayServerConfiguration(
            secret: RelayServerTests.secret, maxMessagesPerSecond: 1, burst: 20, clock: TimerClock(clock))
        try await RelayServerTests.withRelay(configuration) { _, port in
            let schema = try Self.schema("Spec/Examples/DrawTogether.gwspec")
            let ada = try await Participant.connect(port: port, identity: "ada", schema: schema, zstd: false)
            let bo = try await Participant.connect(port: port, identity: "bo", schema: schema, zstd: false)
            try await eventually("ada to be able to start a session") { ada.coordinator.stateObserver.isEligibleForGroupSession }
            try ada.coordinator.activate(Canvas(name: "limits"))
            try await eventually("ada to be offered the session") { !ada.sessions.all.isEmpty }
            let session = ada.sessions.all[0]
            try session.join()
            let states = Collected(session.states)
            // Send until the relay has closed the connection; sends before that return.
            var sent = 0
            while ada.messenger.closeReason == nil, sent < 1_000 {
                do {
                    try await session.messenger.send(
                        DrawTogetherV1Golden.UpsertStroke(id: UUID(), color: .red, point: .init(x: 1, y: 1)))
                    sent += 1
                } catch {
                    break
                }
            }
            try await eventually("ada's session to be invalidated") {
                states.all.last.map { if case .invalidated = $0 { true } else { false } } ?? false
            }
            guard case .invalidated(.transportClosed(let reason)) = session.state else {
                Issue.record("the session is \(session.state), not invalidated for a closed transport")
                return
            }
            #expect(reason.contains("rateLimited"), "\(reason)")
            #expect(sent >= 10 && sent < 1_000)
            // Every later send says why, at the session and at the messenger.
            let sessionError = await #expect(throws: SharedSessionError.self) {
                try await session.messenger.send(
                    DrawTogetherV1Golden.UpsertStroke(id: UUID(), color: .red, point: .init(x: 2, y: 2)))
            }
            #expect(sessionError?.kind == .invalidated)
            #expect(sessionError?.context.contains("rateLimited") == true)
            let wireError = await #expect(throws: WireError.self) {
                try await ada.messenger.send(DrawTogetherV1Golden.UpsertStroke(id: UUID(), color: .red, point: .init(x: 3, y: 3)))
            }
            #expect(wireError?.kind == .transportClosed)
            #expect(!ada.coordinator.stateObserver.isEligibleForGroupSession)
            await bo.transport.close()
        }
    }

    @Test func theReadmesRelayParticipantsShareASessionAndAStroke() async throws {
        try await RelayServerTests.withRelay { _, port in
            func token(_ identity: String) throws -> String {
                try AccessToken(room: "canvas-7", identity: identity, expiresAt: Int64(Date().timeIntervalSince1970) + 600)
                    .signed(secret: RelayServerTests.secret)
            }
            let ada = try await joinThroughRelay(port: port, token: token("ada"))
            let bo = try await joinThroughRelay(port: port, token: token("bo"))
            let adaSessions = Collected(ada.sessions(for: Canvas.self))
            let boSessions = Collected(bo.sessions(for: Canvas.self))
            try await ada.stateObserver.waitUntilEligible()
            try ada.activate(Canvas(name: "relay"))
            try await eventually("both to be offered the session") { !adaSessions.all.isEmpty && !boSessions.all.isEmpty }
            let (atAda, atBo) = (adaSessions.all[0], boSessions.all[0])
            try atAda.join()
            try atBo.join()
            try await eventually("both to be in it") { atAda.activeParticipants.count == 2 && atBo.activeParticipants.count == 2 }
            let strokes = Collected(try atBo.messenger.messages(of: DrawTogetherV1Golden.UpsertStroke.self))
            let stroke = DrawTogetherV1Golden.UpsertStroke(id: UUID(), color: .green, point: .init(x: 4, y: 2))
            try await atAda.messenger.send(stroke)
            try await eventually("bo to get ada's stroke") { !strokes.all.isEmpty }
            #expect(strokes.all.map(\.message) == [stroke])
            #expect(strokes.all.map(\.context.source) == [ada.localParticipant])
            #expect(ada.messenger.transport is DeliveryTransport)
        }
    }

    @Test func aV1AndAV3PeerTalkThroughTheRelayAndALateJoinerCatchesUp() async throws {
        try await RelayServerTests.withRelay { _, port in
            let v1 = try Self.schema("Spec/Examples/DrawTogether.gwspec")
            let v3 = try Self.schema("Spec/Examples/Versions/DrawTogether-v3.gwspec")
            let ada = try await Participant.connect(port: port, identity: "ada", schema: v1, zstd: true)
            let bo = try await Participant.connect(port: port, identity: "bo", schema: v3, zstd: false)
            try await eventually("ada and bo to agree") {
                if case .agreed? = ada.messenger.negotiationState(of: bo.transport.localParticipant),
                    case .agreed? = bo.messenger.negotiationState(of: ada.transport.localParticipant)
                {
                    return true
                }
                return false
            }
            try await eventually("ada to be able to start a session") { ada.coordinator.stateObserver.isEligibleForGroupSession }
            try ada.coordinator.activate(Canvas(name: "versions"))
            try await eventually("both to be offered the session") { !ada.sessions.all.isEmpty && !bo.sessions.all.isEmpty }
            let adaSession = ada.sessions.all[0]
            let boSession = bo.sessions.all[0]
            try adaSession.join()
            try boSession.join()
            try await eventually("both to be in it") {
                adaSession.activeParticipants.count == 2 && boSession.activeParticipants.count == 2
            }

            // The canvas ada offers newcomers: 40 strokes of 200 points, well over one frame.
            let canvas = DrawTogetherV1Golden.CanvasSnapshot(
                strokes: (0..<40).map { stroke in
                    DrawTogetherV1Golden.Stroke(
                        id: UUID(), color: .blue, points: (0..<200).map { .init(x: Double($0), y: Double(stroke)) })
                }, pointCount: 8_000)
            let adaCatchUp = try CatchUp(session: adaSession, makeSnapshot: { canvas }, replaces: { _ in false })
            defer { adaCatchUp.stop() }
            let atAda = Collected(try adaSession.messenger.messages(of: DrawTogetherV1Golden.UpsertStroke.self))
            let atBo = Collected(try boSession.messenger.messages(of: DrawTogetherV3Golden.UpsertStroke.self))
            for index in 0..<10 {
                try await adaSession.messenger.send(
                    DrawTogetherV1Golden.UpsertStroke(id: UUID(), color: .red, point: .init(x: Double(index), y: 1)))
                try await boSession.messenger.send(
                    DrawTogetherV3Golden.UpsertStroke(
                        id: UUID(), color: .orange, point: .init(x: Double(index), y: 2), width: 5, pressure: 0.5))
            }
            try await eventually("the strokes to cross") { atAda.all.count == 10 && atBo.all.count == 10 }
            #expect(atAda.all.map(\.message.point.x) == (0..<10).map(Double.init))
            #expect(atBo.all.map(\.message.point.x) == (0..<10).map(Double.init))
            #expect(atBo.all.allSatisfy { $0.message.width == 3 && $0.message.color == .red && !$0.context.wasCompressed })
            #expect(
                atAda.all.allSatisfy {
                    $0.message.color == DrawTogetherV1Golden.StrokeColor(rawValue: 6) && !$0.message.unknownFields.isEmpty
                })

            // A late joiner on v3 with zstd gets ada's canvas, compressed and in fragments.
            let cy = try await Participant.connect(port: port, identity: "cy", schema: v3, zstd: true)
            try await eventually("cy to be offered the session") { !cy.sessions.all.isEmpty }
            let cySession = cy.sessions.all[0]
            let snapshots = Collected(try cySession.messenger.messages(of: DrawTogetherV3Golden.CanvasSnapshot.self))
            try cySession.join()
            try await eventually("cy to get the snapshot") { !snapshots.all.isEmpty }
            let received = try #require(snapshots.all.first)
            #expect(received.context.wasCompressed && received.context.source == ada.transport.localParticipant)
            #expect(received.message.pointCount == 8_000 && received.message.strokes.count == 40)
            #expect(received.message.strokes.allSatisfy { $0.width == 3 })
            #expect(try canvas.messagePayload().count > 65_536)
            // ada records the send once it returns, which can be after cy has the snapshot.
            try await eventually("ada to record the snapshot it sent cy") {
                adaCatchUp.snapshotsSent == [cy.transport.localParticipant]
            }
            for participant in [ada, bo, cy] { await participant.transport.close() }
        }
    }
}
