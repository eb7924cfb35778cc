import Foundation
import GroupWire
import GroupWireRelay
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import InMemoryLogging
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import GroupWireNetwork

/// The relay and its client transport over loopback, in one process: rooms, routing,
/// source stamping, membership, tokens and the per-connection limits.
@Suite(.heavy) struct RelayServerTests {
    static let secret = Array("relay test secret".utf8)
    /// A logger that drops everything: the tests that read logs give their own.
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    static func token(_ identity: String, room: String = "canvas-7", expiresIn: Int64 = 600) throws -> String {
        try AccessToken(room: room, identity: identity, expiresAt: Int64(Date().timeIntervalSince1970) + expiresIn).signed(
            secret: secret)
    }

    /// Runs `body` against a relay on a free loopback port, and stops the relay however `body` ends.
    static func withRelay(
        _ configuration: RelayServerConfiguration = RelayServerConfiguration(secret: secret),
        _ body: (RelayServer, Int) async throws -> Void
    ) async throws {
        let relay = RelayServer(configuration: configuration, logger: Self.quiet)
        try await serving(relay) { port in try await body(relay, port) }
    }

    /// Starts `relay` on a free loopback port, runs `body` with the port, and shuts the
    /// relay down however `body` ends.
    static func serving(_ relay: RelayServer, _ body: (Int) async throws -> Void) async throws {
        let port = try await relay.start(host: "127.0.0.1", port: 0)
        do {
            try await body(port)
        } catch {
            await relay.shutdown()
            throw error
        }
        await relay.shutdown()
    }

    /// Collects a transport's events.
    final class Events: Sendable {
        private let items = Mutex<[TransportEvent]>([])
        private let task: Mutex<Task<Void, Never>?> = Mutex(nil)
        let finished = Mutex(false)

        init(_ transport: RelayTransport) {
            let box = self
            task.withLock {
                $0 = Task {
                    for await event in transport.events { box.items.withLock { $0.append(event) } }
                    box.finished.withLock { $0 = true }
                }
            }
        }

        var all: [TransportEvent] { items.withLock { $0 } }
        var messages: [TransportMessage] {
            all.compactMap { if case .message(let message) = $0 { message } else { nil } }
        }
    }

    @Test func framesGoToTheRoomWithTheTrueSourceAndMembershipIsTold() async throws {
        try await Self.withRelay { relay, port in
            let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
            let adaEvents = Events(ada)
            let bo = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try Self.token("bo"), inSubprotocol: true)
            let boEvents = Events(bo)
            let cy = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("cy"))
            let cyEvents = Events(cy)
            let dan = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try Self.token("dan", room: "other-room"))
            let danEvents = Events(dan)

            #expect(ada.localParticipant.uuid == RelayIdentity.participantID(room: "canvas-7", identity: "ada"))
            #expect(cy.welcome.members.map(\.identity).sorted() == ["ada", "bo"])
            #expect(dan.welcome.members.isEmpty && dan.welcome.room == "other-room")
            try await eventually("ada to see bo and cy join") {
                adaEvents.all == [.joined(bo.localParticipant), .joined(cy.localParticipant)]
            }

            try await ada.send([1, 2, 3], to: .all)
            try await bo.send([4, 5], to: .only([cy.localParticipant, dan.localParticipant]))
            try await eventually("the frames to arrive") { boEvents.messages.count == 1 && cyEvents.messages.count == 2 }
            #expect(boEvents.messages.map(\.bytes) == [[1, 2, 3]] && boEvents.messages.map(\.source) == [ada.localParticipant])
            // Each sender's frames keep their order; two senders' frames interleave as they arrive.
            #expect(
                Set(cyEvents.messages.map { [UInt8]($0.source.description.utf8) + [0] + $0.bytes })
                    == [
                        Array(ada.localParticipant.description.utf8) + [0, 1, 2, 3],
                        Array(bo.localParticipant.description.utf8) + [0, 4, 5],
                    ])
            #expect(adaEvents.messages.isEmpty)
            #expect(danEvents.all.isEmpty, "another room hears nothing")
            #expect(relay.census == ["canvas-7": 3, "other-room": 1])

            await cy.close()
            try await eventually("cy to leave") {
                adaEvents.all.last == .left(cy.localParticipant) && boEvents.all.last == .left(cy.localParticipant)
            }
            await ada.close()
            await bo.close()
            await dan.close()
        }
    }

    @Test func aTokenForAnotherSecretOrPastItsExpiryGetsNoRoom() async throws {
        try await Self.withRelay { _, port in
            let expired = try AccessToken(room: "canvas-7", identity: "eve", expiresAt: 1).signed(secret: Self.secret)
            let forged = try AccessToken(room: "canvas-7", identity: "eve", expiresAt: Int64.max).signed(
                secret: Array("guess".utf8))
            let expiredAnswer = try await LoopbackSocket.httpGet(port: port, path: "/v1/connect?token=\(expired)")
            #expect(expiredAnswer.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
            #expect(expiredAnswer.contains("\r\n\r\ntokenExpired: the token expired at 1, it is "))
            let forgedAnswer = try await LoopbackSocket.httpGet(port: port, path: "/v1/connect?token=\(forged)")
            #expect(
                forgedAnswer.hasPrefix("HTTP/1.1 401") && forgedAnswer.hasSuffix("invalidToken: the signature does not match\n"))
            let elsewhere = try await LoopbackSocket.httpGet(port: port, path: "/elsewhere")
            #expect(
                elsewhere.hasPrefix("HTTP/1.1 404") && elsewhere.hasSuffix("the relay listens on /v1/connect, not /elsewhere\n"))
            // The client says what the relay answered: the status and the token's problem.
            for (token, reason) in [
                (expired, "tokenExpired: the token expired at 1, it is "), (forged, "invalidToken: the signature does not match"),
                ("", "invalidToken: no token"),
            ] {
                do throws(RelayConnectError) {
                    _ = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: token)
                    Issue.record("a connection with token '\(token)' was accepted")
                } catch {
                    #expect(
                        error.status == 401 && error.reason.hasPrefix("the relay refused the connection: \(reason)"), "\(error)")
                }
            }

        }
    }

    @Test func aFrameOverTheLimitAForgedSourceAndTextAreRefusedAndTheRoomGoesOn() async throws {
        try await Self.withRelay(RelayServerConfiguration(secret: Self.secret, maxFrameSize: 1_024)) { relay, port in
            let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
            let adaEvents = Events(ada)
            var offenders: [(RelayTransport, Events, RelayErrorCode)] = []
            for (identity, message, asText, code) in [
                (
                    "big", RelayMessage.send(to: nil, frame: Array(repeating: 7, count: 1_025)).encoded(), false,
                    RelayErrorCode.frameTooLarge
                ),
                ("forger", RelayMessage.deliver(from: ada.localParticipant.uuid, frame: [9]).encoded(), false, .malformed),
                ("texter", Array("hello".utf8), true, .malformed),
            ] {
                let offender = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token(identity))
                let events = Events(offender)
                try await offender.sendUnchecked(message, asText: asText)
                offenders.append((offender, events, code))
            }
            for (offender, events, code) in offenders {
                try await eventually("the relay to close \(offender.welcome.you.identity)") { events.finished.withLock { $0 } }
                #expect(
                    offender.relayError?.code == code,
                    "\(offender.welcome.you.identity): \(String(describing: offender.relayError))")
            }
            try await eventually("ada to see all three leave") {
                adaEvents.all.filter { if case .left = $0 { true } else { false } }.count == 3
            }
            #expect(adaEvents.messages.isEmpty, "nothing forged or oversized reached ada")
            // The room goes on.
            let bo = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("bo"))
            let boEvents = Events(bo)
            try await ada.send([42], to: .all)
            try await eventually("bo to get ada's frame") { boEvents.messages.map(\.bytes) == [[42]] }
            #expect(relay.census == ["canvas-7": 2])
            await ada.close()
            await bo.close()
        }
    }

    @Test func aFloodIsCutOffAndASecondConnectionOfAnIdentityReplacesTheFirst() async throws {
        // Time stands still for the rate limit: exactly the burst gets through, however slow the machine.
        let clock = TimerClock(VirtualClock())
        try await Self.withRelay(RelayServerConfiguration(secret: Self.secret, maxMessagesPerSecond: 1, burst: 100, clock: clock))
        { _, port in
            let watcher = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("watcher"))
            let watcherEvents = Events(watcher)
            let flooder = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("flooder"))
            let flooderEvents = Events(flooder)
            for index in 0..<300 {
                do { try await flooder.send([UInt8(index & 0xFF)], to: .all) } catch { break }
            }
            try await eventually("the flooder to be cut off") { flooderEvents.finished.withLock { $0 } }
            #expect(flooder.relayError?.code == .rateLimited)
            // The burst got through, then nothing more: the relay forwarded all of the flood it
            // read before it cut the flooder off, so a marker sent after that arrives after it.
            let marker = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("marker"))
            try await marker.send([0xEE], to: .only([watcher.localParticipant]))
            try await eventually("the marker to reach the watcher") { watcherEvents.messages.contains { $0.bytes == [0xEE] } }
            let flood = watcherEvents.messages.prefix { $0.bytes != [0xEE] }
            #expect(
                flood.count == 100 && flood.allSatisfy { $0.source == flooder.localParticipant },
                "\(flood.count) reached the watcher")
            await marker.close()

            let first = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
            let firstEvents = Events(first)
            let second = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
            try await eventually("the first connection to be replaced") { firstEvents.finished.withLock { $0 } }
            #expect(first.relayError?.code == .replaced)
            #expect(second.localParticipant == first.localParticipant)
            await second.close()
            await watcher.close()
        }
    }

    @Test func twentyClientsConnectingAtOnceAllEnterAndSeeEachOther() async throws {
        try await Self.withRelay { relay, port in
            let clients = try await withThrowingTaskGroup(of: RelayTransport.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("p\(index)"))
                    }
                }
                var all: [RelayTransport] = []
                for try await client in group { all.append(client) }
                return all
            }
            #expect(clients.count == 20 && relay.census == ["canvas-7": 20])
            // Each saw everyone who was there before it, and hears about the rest.
            let events = clients.map(Events.init)
            // The welcome's members come first as joins; the later ones as the relay tells them.
            try await eventually("everyone to know everyone") {
                events.allSatisfy { Set($0.all.compactMap { if case .joined(let id) = $0 { id } else { nil } }).count == 19 }
            }
            for client in clients { await client.close() }
        }
    }

    @Test func refusalsAndDropsAreLoggedWithRoomParticipantAndReason() async throws {
        let handler = InMemoryLogHandler()
        let relay = RelayServer(
            configuration: RelayServerConfiguration(secret: Self.secret, maxFrameSize: 1_024),
            logger: Logger(label: "test") { _ in handler })
        let port = try await relay.start(host: "127.0.0.1", port: 0)
        do {
            let expired = try AccessToken(room: "canvas-7", identity: "eve", expiresAt: 1).signed(secret: Self.secret)
            await #expect(throws: RelayConnectError.self) {
                _ = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: expired)
            }
            let big = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("big"))
            let events = Events(big)
            try await big.sendUnchecked(RelayMessage.send(to: nil, frame: Array(repeating: 1, count: 2_000)).encoded())
            try await eventually("the oversized sender to be closed") { events.finished.withLock { $0 } }
            try await eventually("its leave to be logged") { handler.entries.contains { $0.message == "left" } }
        } catch {
            await relay.shutdown()
            throw error
        }
        await relay.shutdown()
        let entries = handler.entries
        let refused = try #require(entries.first { $0.message == "refused a connection" })
        #expect(refused.level == .notice && refused.metadata["status"] == "401")
        #expect(refused.metadata["reason"].map { "\($0)" }?.hasPrefix("tokenExpired: the token expired at 1") == true)
        let closing = try #require(entries.first { $0.message == "closing the connection" })
        #expect(closing.level == .warning && closing.metadata["code"] == "frameTooLarge")
        #expect(closing.metadata["room"] == "canvas-7" && closing.metadata["participant"] == "big")
        let left = try #require(entries.first { $0.message == "left" })
        #expect(left.metadata["reason"] == "violation" && left.metadata["participant"] == "big")
    }

    @Test func framesUpToTheRelaysLargerLimitReachClients() async throws {
        try await Self.withRelay(RelayServerConfiguration(secret: Self.secret, maxFrameSize: 200_000)) { _, port in
            let ada = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
            let bo = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("bo"))
            let boEvents = Events(bo)
            #expect(ada.guarantees.maxMessageSize == 200_000)
            let frame = (0..<150_000).map { UInt8(truncatingIfNeeded: $0) }
            try await ada.send(frame, to: .all)
            try await eventually("bo to get the 150,000-byte frame") { boEvents.messages.first?.bytes == frame }
            await ada.close()
            await bo.close()
        }
    }

    @Test func shutdownTellsEveryClientAndEndsTheirEvents() async throws {
        let relay = RelayServer(configuration: RelayServerConfiguration(secret: Self.secret), logger: Self.quiet)
        let port = try await relay.start(host: "127.0.0.1", port: 0)
        let client = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try Self.token("ada"))
        let events = Events(client)
        await relay.shutdown()
        try await eventually("the client's events to end") { events.finished.withLock { $0 } }
        #expect(client.relayError?.code == .shuttingDown)
        await #expect(throws: WireError.self) { try await client.send([1], to: .all) }
    }
}
