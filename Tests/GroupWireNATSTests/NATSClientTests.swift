import Foundation
import GroupWireNATS
import GroupWireNATSProtocol
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import NIOCore
import Synchronization
import Testing

/// The NATS client against real nats-servers on loopback (started by the tests on ports of
/// their own, stopped by process id), and against a fake one for what a real server does
/// not do on demand.
@Suite(.enabled(if: NATSServerProcess.executable != nil, "nats-server is not installed (make setup installs it)"), .heavy)
struct NATSClientTests {
    static func client(
        _ ports: [Int], name: String = "test", _ configure: (inout NATSClientConfiguration) -> Void = { _ in }
    ) -> NATSClient {
        var configuration = NATSClientConfiguration(
            servers: ports.map { NATSServerAddress(host: "127.0.0.1", port: $0) }, options: NATSConnectOptions(name: name))
        configuration.connectTimeout = .seconds(30)
        configure(&configuration)
        return NATSClient(configuration: configuration)
    }

    /// The next message of `iterator`, as text.
    static func next(_ iterator: inout AsyncStream<NATSMessage>.Iterator) async -> (subject: String, text: String)? {
        guard let message = await iterator.next() else { return nil }
        return (message.subject, String(buffer: message.payload))
    }

    @Test func messagesReachSubscribersWithSubjectReplyHeadersAndPayloadInOrder() async throws {
        let server = try await NATSServerProcess.start()
        defer { server.stop() }
        let publisher = Self.client([server.port], name: "publisher")
        let subscriber = Self.client([server.port], name: "subscriber")
        try await publisher.connect()
        try await subscriber.connect()
        let (_, stream) = try subscriber.messages(on: "rooms.*")
        try await subscriber.flush()
        try publisher.publish(
            Array("one".utf8), to: "rooms.kitchen", replyTo: "_INBOX.a", headers: NATSHeaders([NATSHeaders.Field("Source", "a")]))
        try publisher.publish(Array("elsewhere".utf8), to: "other.kitchen")
        for index in 0..<100 { try publisher.publish(Array("m\(index)".utf8), to: "rooms.hall") }
        try await publisher.flush()
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.subject == "rooms.kitchen" && first?.replyTo == "_INBOX.a" && first?.headers?["Source"] == "a")
        #expect(first.map { String(buffer: $0.payload) } == "one")
        for index in 0..<100 {
            let next = await Self.next(&iterator)
            #expect(next?.subject == "rooms.hall" && next?.text == "m\(index)")
        }
        #expect(publisher.statistics.messagesOut == 102 && subscriber.statistics.messagesIn == 101)
        await publisher.close()
        await subscriber.close()
        #expect(await iterator.next() == nil)
    }

    @Test func aSubscriptionEndsAfterTheMessagesItWasToldAndAQueueGroupSharesTheRest() async throws {
        let server = try await NATSServerProcess.start()
        defer { server.stop() }
        let client = Self.client([server.port])
        try await client.connect()
        let (limited, limitedStream) = try client.messages(on: "jobs")
        client.unsubscribe(limited, after: 2)
        let counts = Mutex([0, 0])
        for worker in 0..<2 {
            try client.subscribe(to: "jobs", queue: "workers") { _ in counts.withLock { $0[worker] += 1 } }
        }
        try await client.flush()
        for index in 0..<10 { try client.publish(Array("job \(index)".utf8), to: "jobs") }
        try await client.flush()
        var received: [String] = []
        for await message in limitedStream { received.append(String(buffer: message.payload)) }
        #expect(received == ["job 0", "job 1"])
        try await eventually("the queue group to have every job") { counts.withLock { $0[0] + $0[1] } == 10 }
        await client.close()
    }

    @Test func aMessageOverTheServersMaxPayloadIsRefusedAndNothingOfItIsSent() async throws {
        let server = try await NATSServerProcess.start()
        defer { server.stop() }
        let client = Self.client([server.port])
        try await client.connect()
        let maxPayload = try #require(client.serverInfo?.maxPayload)
        let (_, stream) = try client.messages(on: "big")
        try await client.flush()
        let error = #expect(throws: NATSError.self) {
            try client.publish([UInt8](repeating: 1, count: maxPayload + 1), to: "big")
        }
        #expect(error?.kind == .payloadTooLarge)
        try client.publish([UInt8](repeating: 2, count: maxPayload), to: "big")
        var iterator = stream.makeAsyncIterator()
        let message = await iterator.next()
        #expect(message?.payload.readableBytes == maxPayload && message?.payload.readableBytesView.allSatisfy { $0 == 2 } == true)
        #expect(client.connectedServer != nil)
        await client.close()
    }

    @Test func argumentsTheProtocolCannotCarryAreRefusedBeforeAnythingIsSent() async throws {
        let server = try await NATSServerProcess.start()
        defer { server.stop() }
        let client = Self.client([server.port])
        let early = #expect(throws: NATSError.self) { try client.publish([1], to: "a") }
        #expect(early?.kind == .notConnected)
        try await client.connect()
        for subject in ["", "a b", "a..b", "a.*", "a.>", "a\r\nPUB b 1"] {
            let error = #expect(throws: NATSError.self) { try client.publish([1], to: subject) }
            #expect(error?.kind == .invalidArgument, "\(subject)")
        }
        #expect(throws: NATSError.self) { try client.subscribe(to: "a.>.b") { _ in } }
        #expect(throws: NATSError.self) { try client.subscribe(to: "a", queue: "two words") { _ in } }
        try await client.flush()
        #expect(client.statistics.messagesOut == 0 && client.connectedServer != nil)
        await client.close()
        let closed = #expect(throws: NATSError.self) { try client.publish([1], to: "a") }
        #expect(closed?.kind == .closed)
    }

    @Test func aServerThatIsNotThereOrRefusesTheClientFailsTheConnectSayingWhy() async throws {
        let nobody = try await FakeNATSServer()
        let port = nobody.port
        await nobody.stop()
        let absent = Self.client([port])
        let error = await #expect(throws: NATSError.self) { try await absent.connect() }
        #expect(error?.kind == .connectionFailed && error?.message.contains("127.0.0.1:\(port)") == true)

        let guarded = try await NATSServerProcess.start(arguments: ["--user", "relay", "--pass", "secret"])
        defer { guarded.stop() }
        let stranger = Self.client([guarded.port])
        let refusal = await #expect(throws: NATSError.self) { try await stranger.connect() }
        #expect(refusal?.kind == .serverError && refusal?.message.contains("Authorization Violation") == true)
        let member = Self.client([guarded.port]) {
            $0.options.user = "relay"; $0.options.password = "secret"
        }
        try await member.connect()
        try await member.flush()
        await member.close()
    }

    /// The client's server dies: it moves to another server of the cluster (learned from
    /// INFO, not configured), subscribes again, and messages flow.
    @Test func whenItsServerDiesTheClientMovesToAnotherOfTheClusterAndSubscribesAgain() async throws {
        let first = try await NATSServerProcess.start(cluster: "gw", name: "a")
        defer { first.stop() }
        let routes = [try #require(first.routePort)]
        let second = try await NATSServerProcess.start(cluster: "gw", routes: routes, name: "b")
        defer { second.stop() }
        let third = try await NATSServerProcess.start(cluster: "gw", routes: routes, name: "c")
        defer { third.stop() }
        let subscriber = Self.client([first.port], name: "subscriber") { $0.reconnectWait = .milliseconds(50) }
        let publisher = Self.client([third.port], name: "publisher")
        try await subscriber.connect()
        try await publisher.connect()
        try await eventually("the subscriber to learn the cluster") { subscriber.servers.count == 3 }
        let received = Mutex<[String]>([])
        try subscriber.subscribe(to: "rooms.>") { message in received.withLock { $0.append(String(buffer: message.payload)) } }
        try await subscriber.flush()
        var probe = 0
        try await eventually("a message across the cluster") {
            probe += 1
            try publisher.publish(Array("before \(probe)".utf8), to: "rooms.kitchen")
            return !received.withLock(\.isEmpty)
        }
        first.stop()
        try await eventually("the subscriber to be on another server") {
            subscriber.connectedServer.map { $0.port == second.port || $0.port == third.port } ?? false
        }
        received.withLock { $0 = [] }
        try await eventually("a message after the move") {
            probe += 1
            try publisher.publish(Array("after \(probe)".utf8), to: "rooms.hall")
            return received.withLock { $0.contains { $0.hasPrefix("after") } }
        }
        #expect(subscriber.statistics.reconnects == 1)
        var kinds: [String] = []
        for await event in subscriber.events {
            switch event {
            case .connected: kinds.append("connected")
            case .discovered: kinds.append("discovered")
            case .disconnected: kinds.append("disconnected")
            default: break
            }
            if kinds.filter({ $0 == "connected" }).count == 2 { break }
        }
        #expect(kinds.first == "connected" && kinds.contains("disconnected"), "events: \(kinds)")
        await subscriber.close()
        await publisher.close()
    }

    /// While no server can be reached, publishes are held up to the pending bound and
    /// refused past it; when a server is back they are written, in order, once.
    @Test func whatIsPublishedWhileNoServerAnswersIsHeldUpToItsBoundAndSentOnReturn() async throws {
        let server = try await NATSServerProcess.start()
        let port = server.port
        let clock = VirtualClock()
        let client = Self.client([port]) {
            $0.clock = TimerClock(clock)
            $0.reconnectWait = .seconds(2)
            $0.maxPendingBytes = 1_000
        }
        try await client.connect()
        var events = client.events.makeAsyncIterator()
        #expect(await events.next() == .connected(NATSServerAddress(host: "127.0.0.1", port: port)))
        server.stop()
        // It tried the one server, failed, and waits out its pause on the virtual clock.
        try await eventually("the client to wait before trying again") {
            clock.deadlines.contains(clock.elapsed + .seconds(2))
        }
        var held = 0
        var refusal: NATSError?
        while refusal == nil {
            do {
                try client.publish(Array(String(format: "held %03d", held).utf8), to: "rooms.kitchen")
                held += 1
            } catch {
                refusal = error
            }
        }
        #expect(refusal?.kind == .slowConnection)
        // "PUB rooms.kitchen 8\r\n" and "held 000\r\n": 31 bytes each.
        #expect(held == 1_000 / 31)
        let back = try await NATSServerProcess.start(arguments: ["-p", "\(port)"])
        defer { back.stop() }
        let watcher = Self.client([port], name: "watcher")
        try await watcher.connect()
        let (_, stream) = try watcher.messages(on: "rooms.kitchen")
        try await watcher.flush()
        clock.advance(by: .seconds(2))
        var iterator = stream.makeAsyncIterator()
        for index in 0..<held {
            let next = await Self.next(&iterator)
            #expect(next?.text == String(format: "held %03d", index))
        }
        try client.publish(Array("after".utf8), to: "rooms.kitchen")
        #expect(await Self.next(&iterator)?.text == "after")
        #expect(client.statistics.reconnects == 1)
        await client.close()
        await watcher.close()
    }

    /// A server that stops answering PINGs is left: after the pings outstanding, the client
    /// closes the connection and connects again (here to the same fake server).
    @Test func aServerThatLeavesPingsUnansweredIsReplaced() async throws {
        let fake = try await FakeNATSServer()
        let clock = VirtualClock()
        let client = Self.client([fake.port]) {
            $0.clock = TimerClock(clock)
            $0.pingInterval = .seconds(10)
            $0.maxPingsOutstanding = 2
        }
        try await client.connect()
        #expect(fake.accepted == 1)
        fake.answersPings = false
        for round in 1...2 {
            try await eventually("the ping timer to sleep") { clock.deadlines.contains(.seconds(10) * round) }
            clock.advance(to: .seconds(10) * round)
            try await eventually("ping \(round) to reach the server") { fake.pingsSeen == round }
        }
        #expect(fake.accepted == 1 && client.connectedServer != nil)
        try await eventually("the ping timer to sleep") { clock.deadlines.contains(.seconds(30)) }
        clock.advance(to: .seconds(30))
        try await eventually("the client to connect again") { fake.accepted == 2 && client.connectedServer != nil }
        #expect(client.statistics.reconnects == 1)
        await client.close()
        await fake.stop()
    }

    /// A server that sends what the protocol does not allow is left for another
    /// connection; nothing that was read before it is lost.
    @Test func aServerThatBreaksTheProtocolIsLeftAndWhatCameBeforeIsKept() async throws {
        let fake = try await FakeNATSServer()
        let client = Self.client([fake.port]) { $0.reconnectWait = .milliseconds(10) }
        try await client.connect()
        let (subscription, stream) = try client.messages(on: "a")
        try await client.flush()
        fake.send(Array("MSG a \(subscription.id) 2\r\nok\r\nMSG a \(subscription.id) 2\r\nokXX\r\n".utf8))
        var iterator = stream.makeAsyncIterator()
        #expect(await Self.next(&iterator)?.text == "ok")
        try await eventually("the client to connect again") { fake.accepted == 2 && client.connectedServer != nil }
        fake.send(Array("MSG a \(subscription.id) 5\r\nagain\r\n".utf8))
        #expect(await Self.next(&iterator)?.text == "again")
        await client.close()
        await fake.stop()
    }
}
