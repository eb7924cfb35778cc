import Foundation
import GroupWireRelay
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import Testing

@testable import GroupWireNetwork

/// The relay on the open internet (Spec/RELAY.md, "Limits" and "WebSocket"): connections
/// that never finish their upgrade are closed at the handshake timeout, connections over
/// the limits are closed as they are accepted, a message over the one size limit gets
/// error 2 and close 1009 before it is read, and what RFC 6455 forbids a client fails the
/// connection with the close code it names.
@Suite(.heavy) struct RelayHardeningTests {
    /// Connects a raw client and reads the relay's answer to `frame` (written by `send`):
    /// the relay's error message, then its close code.
    static func answer(port: Int, _ send: (RawWebSocket) throws -> Void) throws -> (error: RelayError?, close: Int?) {
        let client = try RawWebSocket(port: port, token: try RelayServerTests.token("raw"))
        defer { client.close() }
        #expect(client.statusLine.hasPrefix("HTTP/1.1 101"), "\(client.statusLine)")
        try send(client)
        let frames = try client.framesUntilClosed()
        var error: RelayError?
        for frame in frames where frame.opcode == 0x2 {
            if case .error(let relayError)? = try? RelayMessage(decoding: frame.payload) { error = relayError }
        }
        let close = frames.last { $0.opcode == 0x8 }.flatMap { RawWebSocket.closeCode($0.payload) }
        return (error, close)
    }

    @Test func connectionsThatNeverFinishTheirUpgradeAreClosedAtTheTimeoutWhileARealClientConnects() async throws {
        let clock = VirtualClock()
        let configuration = RelayServerConfiguration(
            secret: RelayServerTests.secret, handshakeTimeout: .seconds(5), clock: TimerClock(clock))
        try await RelayServerTests.withRelay(configuration) { relay, port in
            let silent = try LoopbackSocket(port: port)
            defer { silent.close() }
            let trickling = try LoopbackSocket(port: port)
            defer { trickling.close() }
            try trickling.write(Array("GET /v1/conn".utf8))
            try await eventually("the relay to accept both") { relay.openConnections == 2 }
            // Time moves only once the two handshake timers are set (each sleeps until 5 s),
            // else a busy machine can move it past a timer not yet set. The real client
            // connects halfway, so its own timer (until 7.5 s, cancelled by its upgrade only
            // after it has its answer) cannot be the one that fires.
            try await eventually("both handshake timers to be set") {
                clock.deadlines.filter { $0 == .seconds(5) }.count == 2
            }
            clock.advance(by: .milliseconds(2_500))
            let real = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try RelayServerTests.token("ada"))
            let events = RelayServerTests.Events(real)
            #expect(relay.openConnections == 3)
            clock.advance(by: .milliseconds(2_500))
            // Both half-made connections end (no answer at all), the real client stays.
            #expect(try silent.readToEnd().isEmpty)
            #expect(try trickling.readToEnd().isEmpty)
            try await eventually("the relay to let go of them") { relay.openConnections == 1 }
            #expect(relay.census == ["canvas-7": 1])
            #expect(!events.finished.withLock { $0 })
            await real.close()
        }
    }

    /// An upgrade request NIO's upgrader cannot take (no `Sec-WebSocket-Key`) is answered
    /// 400 and closed at once; it used to stay open past the handshake timeout, unanswered.
    @Test func anUpgradeWithoutItsKeyIsAnswered400AndClosed() async throws {
        try await RelayServerTests.withRelay { relay, port in
            let socket = try LoopbackSocket(port: port)
            defer { socket.close() }
            try socket.write(
                Array(
                    ("GET /v1/connect?token=\(try RelayServerTests.token("ada")) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
            let answer = String(decoding: try socket.readToEnd(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
            #expect(answer.contains("not a valid WebSocket upgrade request"), "\(answer)")
            socket.close()
            try await eventually("the relay to let go of it") { relay.openConnections == 0 }
            // A full upgrade with a bad token is answered once, 401, as before.
            let refused = try LoopbackSocket(port: port)
            defer { refused.close() }
            try refused.write(
                Array(
                    ("GET /v1/connect?token=bad HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                        .utf8))
            let once = String(decoding: try refused.readToEnd(), as: UTF8.self)
            #expect(once.hasPrefix("HTTP/1.1 401") && once.components(separatedBy: "HTTP/1.1").count == 2, "\(once)")
        }
    }

    @Test func connectionsOverTheLimitPerAddressAreClosedAsTheyAreAccepted() async throws {
        let configuration = RelayServerConfiguration(secret: RelayServerTests.secret, maxConnectionsPerAddress: 2)
        try await RelayServerTests.withRelay(configuration) { relay, port in
            let first = try LoopbackSocket(port: port)
            let second = try LoopbackSocket(port: port)
            try await eventually("the relay to accept two") { relay.openConnections == 2 }
            let third = try LoopbackSocket(port: port)
            defer { third.close() }
            #expect(try third.readToEnd().isEmpty, "the third connection from 127.0.0.1 is closed at once")
            #expect(relay.openConnections == 2)
            first.close()
            second.close()
            try await eventually("their places to be given back") { relay.openConnections == 0 }
            // A real client gets in again, and the refusal was counted.
            let real = try await RelayTransport.connect(host: "127.0.0.1", port: port, token: try RelayServerTests.token("ada"))
            #expect(try await RelayOperationsTests.scrape(port)["groupwire_relay_refusals_total{status=\"503\"}"] == 1)
            await real.close()
        }
    }

    @Test func aMessageOverTheLimitGetsErrorTwoAndCloseTenZeroNineBeforeItIsRead() async throws {
        try await RelayServerTests.withRelay { _, port in
            // A binary frame announcing 16 MiB; not one byte of its payload is sent.
            let answer = try Self.answer(port: port) { client in
                try client.send(first: 0x82, [], announced: 16 << 20)
            }
            #expect(answer.error?.code == .frameTooLarge, "\(String(describing: answer.error))")
            #expect(answer.close == 1009)
            // Just over the limit, in two fragments: the same answer.
            let limit = RelayLimits().maxSendSize
            let fragments = try Self.answer(port: port) { client in
                try client.send(first: 0x02, [UInt8](repeating: 1, count: limit / 2 + 1))
                try client.send(first: 0x80, [UInt8](repeating: 1, count: limit / 2 + 1))
            }
            #expect(fragments.error?.code == .frameTooLarge && fragments.close == 1009)
            let metrics = try await RelayOperationsTests.scrape(port)
            #expect(metrics["groupwire_relay_drops_total{reason=\"frameTooLarge\"}"] == 2)
        }
    }

    @Test(arguments: [
        ("unmasked", UInt8(0x82), false, 1002),
        ("RSV1 without an extension", UInt8(0xC2), true, 1002),
        ("reserved opcode 3", UInt8(0x83), true, 1002),
    ])
    func framesRFC6455ForbidsFailTheConnection(_ what: String, first: UInt8, masked: Bool, code: Int) async throws {
        try await RelayServerTests.withRelay { _, port in
            let answer = try Self.answer(port: port) { client in
                try client.send(first: first, [0x01, 0x00], masked: masked)
            }
            #expect(answer.close == code, "\(what)")
            #expect(answer.error?.code == .malformed, "\(what)")
        }
    }

    @Test func aCloseWithACodeNoEndpointMaySendFailsTheConnection() async throws {
        try await RelayServerTests.withRelay { _, port in
            // 1005 is "no status received": never sent on the wire (RFC 6455, 7.4.1).
            let answer = try Self.answer(port: port) { client in try client.send(first: 0x88, [0x03, 0xED]) }
            #expect(answer.close == 1002)
            // 1000 with a reason is a normal close, answered with 1000.
            let normal = try Self.answer(port: port) { client in try client.send(first: 0x88, [0x03, 0xE8] + Array("bye".utf8)) }
            #expect(normal.close == 1000 && normal.error == nil)
        }
    }

    @Test func subprotocolsOfferedWithoutTheRelaysAreRefusedWithFourHundred() async throws {
        try await RelayServerTests.withRelay { _, port in
            let token = try RelayServerTests.token("ada")
            let onlyToken = try RawWebSocket(port: port, token: token, subprotocols: "groupwire.token.\(token)")
            defer { onlyToken.close() }
            #expect(onlyToken.statusLine.hasPrefix("HTTP/1.1 400"), "\(onlyToken.statusLine)")
            let body = String(decoding: try onlyToken.socket.readToEnd(), as: UTF8.self)
            #expect(body.contains("groupwire.v1") && !body.contains(token), "the token is not echoed: \(body)")
            let both = try RawWebSocket(port: port, token: token, subprotocols: "groupwire.v1, groupwire.token.\(token)")
            defer { both.close() }
            #expect(both.statusLine.hasPrefix("HTTP/1.1 101"))
        }
    }

    @Test func aClientThatStopsAnsweringPingsIsPingedThenLostWhileOneThatAnswersStays() async throws {
        let clock = VirtualClock()
        let configuration = RelayServerConfiguration(
            secret: RelayServerTests.secret, reconnectGrace: .seconds(3), idleTimeout: .seconds(10), clock: TimerClock(clock))
        try await RelayServerTests.withRelay(configuration) { relay, port in
            let watcher = try await RelayTransport.connect(
                host: "127.0.0.1", port: port, token: try RelayServerTests.token("watcher"))
            let events = RelayServerTests.Events(watcher)
            let silent = try RawWebSocket(port: port, token: try RelayServerTests.token("silent"))
            defer { silent.close() }
            let silentID = ParticipantID(uuid: RelayIdentity.participantID(room: "canvas-7", identity: "silent"))
            try await eventually("the watcher to see it join") { events.all.contains(.joined(silentID)) }
            // Half the idle timeout in silence: both are pinged; the watcher's RelayTransport answers.
            clock.advance(by: .seconds(5))
            var ping: (opcode: UInt8, payload: [UInt8])?
            while ping == nil, let frame = try silent.nextFrame() {
                if frame.opcode == 0x9 { ping = frame }
            }
            #expect(ping?.opcode == 0x9, "the silent client was pinged")
            try await eventually("the watcher's pong to arrive") {
                relay.connections.first { $0.member.identity == "watcher" }?.lastHeard == .seconds(5)
            }
            // The whole timeout: the silent client is closed; the watcher, heard at 5 s, stays.
            clock.advance(by: .seconds(5))
            _ = try silent.framesUntilClosed()
            // It leaves as lost: its place is kept for the reconnect grace, and nobody is told yet.
            try await eventually("its place to be kept") { relay.connections.count == 1 && relay.absentMembers == 1 }
            #expect(!events.all.contains(.left(silentID)))
            clock.advance(by: .seconds(3))
            try await eventually("the watcher to be told it left, once the grace ended") {
                events.all.contains(.left(silentID))
            }
            #expect(relay.census == ["canvas-7": 1])
            #expect(!events.finished.withLock { $0 })
            await watcher.close()
        }
    }

    @Test func everyDropReasonIsExportedFromZeroAndOnlyParsedSendsCountAsFrames() async throws {
        try await RelayServerTests.withRelay { _, port in
            let fresh = try await RelayOperationsTests.scrape(port)
            for reason in ["malformed", "frameTooLarge", "rateLimited", "tooSlow"] {
                #expect(fresh["groupwire_relay_drops_total{reason=\"\(reason)\"}"] == 0, "\(reason)")
            }
            // One byte that is no relay message: error 1 and close 1008, and no frame counted.
            let answer = try Self.answer(port: port) { client in try client.send(first: 0x82, [0x07]) }
            #expect(answer.error?.code == .malformed && answer.close == 1008)
            let after = try await RelayOperationsTests.scrape(port)
            #expect(after["groupwire_relay_frames_received_total"] == 0)
            #expect(after["groupwire_relay_drops_total{reason=\"malformed\"}"] == 1)
        }
    }

    @Test func aClientFindsAHalfOpenConnectionByItsOwnIdleTimeout() async throws {
        try await RelayServerTests.withRelay { _, port in
            let proxy = try FreezableProxy(target: port)
            defer { proxy.close() }
            let clock = VirtualClock()
            let client = try await RelayTransport.connect(
                host: "127.0.0.1", port: proxy.port, token: try RelayServerTests.token("ada"), idleTimeout: .seconds(10),
                clock: TimerClock(clock))
            let events = RelayServerTests.Events(client)
            // The path goes dead both ways, with no FIN and no RST.
            proxy.freeze()
            clock.advance(by: .seconds(5))
            try await eventually("the client to ping the silent relay") { proxy.droppedFromClient > 0 }
            #expect(!events.finished.withLock { $0 }, "half the idle timeout is not enough to give up")
            clock.advance(by: .seconds(5))
            try await eventually("the client to take the connection for lost") { events.finished.withLock { $0 } }
            #expect(client.closeReason != nil)
        }
    }
}
