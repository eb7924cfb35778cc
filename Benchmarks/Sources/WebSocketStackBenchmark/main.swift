// The WebSocket stacks the relay could stand on, side by side in one run: the same
// broadcast server (every binary message goes to every other connection) written on
// SwiftNIO's NIOWebSocket (what GroupWireNetwork uses) and on hummingbird-websocket, driven
// by one load generator (swift-websocket's WSClient): one sender, 8 receivers, small
// messages (64 B, stroke-sized) and large ones (32 KiB, a fragment). Release build:
//   swift run -c release WebSocketStackBenchmark [--rounds N]
// Both servers and the load generator share this process and its cores, so each stack
// pays the same for the generator. Reports delivered messages and MB per second, the
// median of the rounds (run interleaved).

import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization
import WSClient

/// The connections of the broadcast room, by number.
final class Room<Writer: Sendable>: Sendable {
    private let members = Mutex<(next: Int, writers: [Int: Writer])>((0, [:]))

    func join(_ writer: Writer) -> Int {
        members.withLock { members in
            members.next += 1
            members.writers[members.next] = writer
            return members.next
        }
    }

    func leave(_ id: Int) { members.withLock { _ = $0.writers.removeValue(forKey: id) } }

    func others(_ id: Int) -> [Writer] { members.withLock { $0.writers.filter { $0.key != id }.map(\.value) } }

    var count: Int { members.withLock { $0.writers.count } }
}

/// A running server: its port and how many connections its room holds.
struct Server {
    let port: Int
    let connections: @Sendable () -> Int
    let stop: @Sendable () async -> Void
}

/// The broadcast server on NIOWebSocket, built like GroupWireNetwork's relay (typed HTTP
/// upgrade, frame aggregator, NIOAsyncChannel per connection).
func startNIO() async throws -> Server {
    let room = Room<NIOAsyncChannelOutboundWriter<WebSocketFrame>>()
    let limit = 1 << 20
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
        .bind(host: "127.0.0.1", port: 0) { channel in
            channel.eventLoop.makeCompletedFuture {
                let upgrader = NIOTypedWebSocketServerUpgrader<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>?>(
                    maxFrameSize: limit,
                    shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOWebSocketFrameAggregator(
                                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1_024, maxAccumulatedFrameSize: limit))
                            return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
                        }
                    })
                let upgrade = NIOTypedHTTPServerUpgradeConfiguration<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>?>(
                    upgraders: [upgrader],
                    notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { nil } })
                return try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                    configuration: .init(upgradeConfiguration: upgrade))
            }
        }
    let port = server.channel.localAddress?.port ?? 0
    let task = Task {
        try? await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { inbound in
                for try await upgrade in inbound {
                    group.addTask {
                        guard let websocket = try? await upgrade.get() else { return }
                        try? await websocket.executeThenClose { input, output in
                            let id = room.join(output)
                            defer { room.leave(id) }
                            for try await frame in input {
                                guard frame.opcode == .binary else {
                                    if frame.opcode == .connectionClose { break }
                                    continue
                                }
                                let data = frame.unmaskedData
                                for other in room.others(id) {
                                    try? await other.write(WebSocketFrame(fin: true, opcode: .binary, data: data))
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    return Server(
        port: port, connections: { room.count },
        stop: {
            try? await server.channel.close()
            task.cancel()
        })
}

/// The same broadcast server on hummingbird-websocket.
func startHummingbird() async throws -> Server {
    let room = Room<WebSocketOutboundWriter>()
    let router = Router(context: BasicWebSocketRequestContext.self)
    router.ws("/") { _, _ in
        .upgrade([:])
    } onUpgrade: { inbound, outbound, _ in
        let id = room.join(outbound)
        defer { room.leave(id) }
        for try await message in inbound.messages(maxSize: 1 << 20) {
            guard case .binary(let buffer) = message else { continue }
            for other in room.others(id) { try? await other.write(.binary(buffer)) }
        }
    }
    let bound = Mutex<Int?>(nil)
    let app = Application(
        router: Router(),
        server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: 1 << 20))),
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in bound.withLock { $0 = channel.localAddress?.port } },
        logger: Logger(label: "hummingbird", factory: { _ in SwiftLogNoOpLogHandler() }))
    let task = Task { try? await app.runService(gracefulShutdownSignals: []) }
    let deadline = ContinuousClock.now + .seconds(30)
    while bound.withLock({ $0 }) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    guard let port = bound.withLock({ $0 }) else { throw BenchmarkError("hummingbird did not start") }
    return Server(port: port, connections: { room.count }, stop: { task.cancel() })
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Counts what each receiver got.
final class Tally: Sendable {
    private let counts: Mutex<[Int]>
    init(_ receivers: Int) { counts = Mutex(Array(repeating: 0, count: receivers)) }
    /// Adds one for `receiver`; returns its count.
    func add(_ receiver: Int) -> Int {
        counts.withLock {
            $0[receiver] += 1; return $0[receiver]
        }
    }
    var minimum: Int { counts.withLock { $0.min() ?? 0 } }
}

/// The time a run took, once it is known.
final class Elapsed: Sendable {
    private let duration = Mutex<Duration?>(nil)
    func set(_ value: Duration) { duration.withLock { $0 = value } }
    var value: Duration? { duration.withLock { $0 } }
}

/// One sender and `receivers` receivers through `server`: the time from the first send
/// until every receiver has every message.
func drive(_ server: Server, receivers: Int, messages: Int, size: Int) async throws -> Duration {
    let logger = Logger(label: "load", factory: { _ in SwiftLogNoOpLogHandler() })
    let url = "ws://127.0.0.1:\(server.port)/"
    let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20)
    let tally = Tally(receivers)
    let elapsed = Elapsed()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for receiver in 0..<receivers {
            group.addTask {
                _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, _, _ in
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .binary = message else { continue }
                        if tally.add(receiver) == messages { return }
                    }
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while server.connections() < receivers, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        group.addTask {
            _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { _, outbound, _ in
                while server.connections() < receivers + 1 { try await Task.sleep(for: .milliseconds(1)) }
                let payload = ByteBuffer(repeating: 0x5A, count: size)
                let start = ContinuousClock.now
                for _ in 0..<messages { try await outbound.write(.binary(payload)) }
                let end = ContinuousClock.now + .seconds(120)
                while tally.minimum < messages, ContinuousClock.now < end { try await Task.sleep(for: .microseconds(200)) }
                elapsed.set(ContinuousClock.now - start)
            }
        }
        try await group.waitForAll()
    }
    guard let duration = elapsed.value, tally.minimum == messages else { throw BenchmarkError("not every message arrived") }
    return duration
}

let arguments = CommandLine.arguments
let rounds =
    arguments.firstIndex(of: "--rounds").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? 5
let receivers = 8
let cases: [(name: String, messages: Int, size: Int)] = [("small, 64 B", 20_000, 64), ("large, 32 KiB", 1_000, 32 << 10)]
let stacks: [(name: String, start: () async throws -> Server)] = [
    ("NIOWebSocket", startNIO), ("hummingbird-websocket", startHummingbird),
]

print(
    "WebSocket stacks: a broadcast server, 1 sender, \(receivers) receivers, load from swift-websocket's WSClient; median of \(rounds) interleaved rounds"
)
for test in cases {
    var times: [String: [Duration]] = [:]
    for _ in 0..<rounds {
        for stack in stacks {
            let server = try await stack.start()
            let time = try await drive(server, receivers: receivers, messages: test.messages, size: test.size)
            await server.stop()
            times[stack.name, default: []].append(time)
        }
    }
    var baseline: Double?
    for stack in stacks {
        let sorted = (times[stack.name] ?? []).sorted()
        let median = sorted[sorted.count / 2]
        let seconds = Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
        let delivered = Double(test.messages * receivers) / seconds
        let megabytes = delivered * Double(test.size) / 1e6
        baseline = baseline ?? delivered
        print(
            "\(test.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(stack.name.padding(toLength: 22, withPad: " ", startingAt: 0)) "
                + "\(Int(delivered)) messages/s delivered, \(String(format: "%.1f", megabytes)) MB/s, \(String(format: "%.2f", delivered / (baseline ?? delivered)))× NIOWebSocket"
        )
    }
}
