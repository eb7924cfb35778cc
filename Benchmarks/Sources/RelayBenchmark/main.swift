// The relay beside nats-server, which an operator might run instead: one load generator
// (this process) drives both with the same payloads, one publisher and 8 subscribers on
// loopback, small messages (UpsertStroke-sized) and large ones (a 60,000-byte fragment of
// a snapshot). Each server runs in its own process, so its CPU time is its own:
//   swift run -c release RelayBenchmark [--rounds N] [--nats PATH]
// Our relay is reached with RelayTransport (WebSocket, what apps use); nats-server with
// GroupWireNATS's NATSClient on the same SwiftNIO stack, each subscriber reading a stream on
// a task as RelayTransport's events are read, and publishing waiting for its writes when
// they fall behind as RelayTransport's send does. Reports delivered
// messages and MB per second, p50/p99 latency (publish to delivery, one clock), server CPU
// per delivered message, the median of interleaved rounds, and the ratio.
// `--serve-relay` runs the relay child (the benchmark starts it itself); `--many-rooms`
// runs only the many-rooms load on a two-node cluster (ManyRooms.swift; `--load` is its
// load-generator child).

import Dispatch
import Foundation
import GroupWireNATS
import GroupWireNATSProtocol
import GroupWireNetwork
import GroupWireRelay
import GroupWireSession
import Logging
import NIOCore
import NIOPosix
import Synchronization

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: The relay child

if CommandLine.arguments.dropFirst().first == "--serve-relay" {
    var configuration = RelayServerConfiguration(
        secret: Array("bench".utf8), maxQueuedBytes: 1 << 30, maxMessagesPerSecond: 100_000_000, burst: 100_000_000,
        metricsPath: nil)
    // `--serve-relay NATS-PORT NODE`: a node of a cluster.
    let extra = Array(CommandLine.arguments.dropFirst(2))
    if extra.count >= 2, let port = Int(extra[0]) {
        var cluster = try RelayClusterConfiguration(servers: [NATSServerAddress(host: "127.0.0.1", port: port)], node: extra[1])
        cluster.heartbeatInterval = .milliseconds(100)
        // `many`: the many-rooms run's node, with every connection from one address and a
        // machine busy with 20,000 connections, so a late heartbeat is no death.
        if extra.count == 3, extra[2] == "many" {
            _ = raiseDescriptorLimit()
            configuration.maxConnections = 20_000
            configuration.maxConnectionsPerAddress = 20_000
            cluster.heartbeatInterval = .seconds(1)
            cluster.nodeTimeout = .seconds(10)
        }
        configuration.cluster = cluster
    }
    let relay = RelayServer(configuration: configuration, logger: Logger(label: "relay") { _ in SwiftLogNoOpLogHandler() })
    let port = try await relay.start(host: "127.0.0.1", port: 0)
    FileHandle.standardOutput.write(Data("port \(port)\n".utf8))
    // Until the benchmark closes our input.
    while readLine() != nil {}
    await relay.shutdown()
    exit(0)
}

// `--load PORT SIDE ROOMS`: a many-rooms load generator (ManyRooms.swift).
if CommandLine.arguments.dropFirst().first == "--load" {
    let extra = Array(CommandLine.arguments.dropFirst(2))
    guard extra.count == 3, let port = Int(extra[0]), let rooms = Int(extra[2]) else {
        throw BenchmarkError("usage: --load PORT SIDE ROOMS")
    }
    try await runLoadGenerator(port: port, side: extra[1], rooms: rooms)
    exit(0)
}

// MARK: Measuring

/// A server in a child process: its port, and its CPU time so far.
final class ServerProcess {
    let process: Process
    let port: Int
    private let input: Pipe

    init(_ executable: String, _ arguments: [String], port: Int?) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let port {
            self.port = port
        } else {
            // The relay child prints its port first.
            var line: [UInt8] = []
            while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 { line.append(byte) }
            guard let port = Int(String(decoding: line, as: UTF8.self).dropFirst(5)) else {
                throw BenchmarkError("the relay child printed no port")
            }
            self.port = port
        }
    }

    /// User and system CPU seconds of the process so far (Linux /proc).
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Fields after the name: state is 0, utime is 11, stime 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
}

/// What the subscribers saw: deliveries and latencies.
final class Tally: Sendable {
    private struct State {
        var counts: [Int]
        var latencies: [UInt64] = []
    }
    private let state: Mutex<State>

    init(_ subscribers: Int, expected: Int) {
        var state = State(counts: Array(repeating: 0, count: subscribers))
        state.latencies.reserveCapacity(expected)
        self.state = Mutex(state)
    }

    func add(_ subscriber: Int, stamp: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            state.counts[subscriber] += 1
            state.latencies.append(now &- stamp)
        }
    }

    var minimum: Int { state.withLock { $0.counts.min() ?? 0 } }
    var latencies: [UInt64] { state.withLock { $0.latencies } }
}

/// A payload of `size` bytes starting with the send time.
func payload(_ size: Int) -> [UInt8] {
    var bytes = withUnsafeBytes(of: DispatchTime.now().uptimeNanoseconds.littleEndian, Array.init)
    bytes += [UInt8](repeating: 0x5A, count: max(0, size - 8))
    return bytes
}

func stamp(_ bytes: some Collection<UInt8>) -> UInt64 {
    var value: UInt64 = 0
    for (index, byte) in bytes.prefix(8).enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
    return value
}

struct Result {
    var seconds: Double
    var delivered: Int
    var p50: Double
    var p99: Double
    var cpuPerMessage: Double
}

func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]) / 1e6
}

// MARK: Our relay, through RelayTransport

func token(_ identity: String) throws -> String {
    try AccessToken(room: "bench", identity: identity, expiresAt: Int64(Date().timeIntervalSince1970) + 3_600).signed(
        secret: Array("bench".utf8))
}

func runRelay(_ server: ServerProcess, subscribers: Int, messages: Int, size: Int) async throws -> Result {
    try await runRelay(
        publisher: server, subscribers: Array(repeating: server, count: subscribers), messages: messages, size: size)
}

/// The fan-out with the publisher on one relay and each subscriber on the relay given
/// for it (nodes of one cluster); the CPU is every relay's.
func runRelay(publisher server: ServerProcess, subscribers nodes: [ServerProcess], messages: Int, size: Int) async throws
    -> Result
{
    let subscribers = nodes.count
    var receivers: [RelayTransport] = []
    for (index, node) in nodes.enumerated() {
        receivers.append(
            try await RelayTransport.connect(host: "127.0.0.1", port: node.port, token: try token("s\(index)-\(UUID())")))
    }
    let sender = try await RelayTransport.connect(host: "127.0.0.1", port: server.port, token: try token("publisher-\(UUID())"))
    let relays = ([server] + nodes).reduce(into: [ServerProcess]()) { all, node in
        if !all.contains(where: { $0 === node }) { all.append(node) }
    }
    let tally = Tally(subscribers, expected: messages * subscribers)
    let readers = receivers.enumerated().map { index, receiver in
        Task {
            var got = 0
            for await event in receiver.events {
                guard case .message(let message) = event else { continue }
                tally.add(index, stamp: stamp(message.bytes))
                got += 1
                if got == messages { return }
            }
        }
    }
    // Everyone was in the room before the publisher: its welcome names them all.
    guard sender.welcome.members.count == subscribers else {
        throw BenchmarkError("the publisher's room has \(sender.welcome.members.count) others")
    }
    let cpu = relays.map(\.cpuSeconds).reduce(0, +)
    let start = ContinuousClock.now
    for _ in 0..<messages { try await sender.send(payload(size), to: .all) }
    for reader in readers { await reader.value }
    let elapsed = start.duration(to: .now)
    let used = relays.map(\.cpuSeconds).reduce(0, +) - cpu
    for transport in receivers + [sender] { await transport.close() }
    return result(elapsed, tally, used)
}

func result(_ elapsed: Duration, _ tally: Tally, _ cpu: Double) -> Result {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let sorted = tally.latencies.sorted()
    return Result(
        seconds: seconds, delivered: sorted.count, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99),
        cpuPerMessage: cpu / Double(max(1, sorted.count)))
}

// MARK: nats-server, through GroupWireNATS's client

/// A client of the benchmark's nats-server whose subscription streams hold a whole run.
func natsClient(_ port: Int, name: String) async throws -> NATSClient {
    var configuration = NATSClientConfiguration(
        servers: [NATSServerAddress(host: "127.0.0.1", port: port)], options: NATSConnectOptions(name: name, echo: false))
    configuration.maxBufferedMessages = 1 << 20
    configuration.maxPendingBytes = 64 << 20
    let client = NATSClient(configuration: configuration, logger: Logger(label: "nats") { _ in SwiftLogNoOpLogHandler() })
    try await client.connect()
    return client
}

/// Publishes, waiting for the writes to catch up when the pending bound is reached (as
/// RelayTransport's send waits for its writer).
func publish(_ client: NATSClient, _ bytes: [UInt8], to subject: String) async throws {
    while true {
        do {
            try client.publish(bytes, to: subject)
            return
        } catch  where error.kind == .slowConnection {
            try await client.flush()
        }
    }
}

func runNATS(_ server: ServerProcess, subscribers: Int, messages: Int, size: Int) async throws -> Result {
    let tally = Tally(subscribers, expected: messages * subscribers)
    let subject = "bench.\(UUID().uuidString.prefix(8))"
    var clients: [NATSClient] = []
    var readers: [Task<Void, Never>] = []
    // Each subscriber reads its messages from a stream on a task, as a RelayTransport's
    // events are read.
    for index in 0..<subscribers {
        let client = try await natsClient(server.port, name: "s\(index)")
        let (_, stream) = try client.messages(on: subject)
        try await client.flush()
        clients.append(client)
        readers.append(
            Task {
                var got = 0
                for await message in stream {
                    tally.add(index, stamp: stamp(message.payload.readableBytesView))
                    got += 1
                    if got == messages { return }
                }
            })
    }
    let publisher = try await natsClient(server.port, name: "publisher")
    let cpu = server.cpuSeconds
    let start = ContinuousClock.now
    for _ in 0..<messages { try await publish(publisher, payload(size), to: subject) }
    for reader in readers { await reader.value }
    let elapsed = start.duration(to: .now)
    let used = server.cpuSeconds - cpu
    for client in clients + [publisher] { await client.close() }
    return result(elapsed, tally, used)
}

// MARK: Round trips: a → server → b → server → a, one message at a time

/// The round-trip times of `count` small messages, in nanoseconds, sorted.
struct RoundTrips {
    var sorted: [UInt64]
    var p50: Double { percentile(sorted, 0.5) }
    var p99: Double { percentile(sorted, 0.99) }
}

/// Through our relay: b sends back to a every message it gets; a sends the next when the
/// echo of the last arrives.
func relayRoundTrips(_ server: ServerProcess, count: Int, size: Int) async throws -> RoundTrips {
    let a = try await RelayTransport.connect(host: "127.0.0.1", port: server.port, token: try token("a-\(UUID())"))
    let b = try await RelayTransport.connect(host: "127.0.0.1", port: server.port, token: try token("b-\(UUID())"))
    let echo = Task {
        for await event in b.events {
            guard case .message(let message) = event else { continue }
            try? await b.send(message.bytes, to: .only([message.source]))
        }
    }
    var times: [UInt64] = []
    var replies = a.events.makeAsyncIterator()
    for _ in 0..<count {
        let sent = DispatchTime.now().uptimeNanoseconds
        try await a.send(payload(size), to: .only([b.localParticipant]))
        while let event = await replies.next() {
            if case .message = event { break }
        }
        times.append(DispatchTime.now().uptimeNanoseconds - sent)
    }
    echo.cancel()
    await a.close()
    await b.close()
    return RoundTrips(sorted: times.sorted())
}

/// Through nats-server: b subscribes to ping.X and publishes what it gets to pong.X; a
/// subscribes to pong.X and publishes to ping.X, the next when the last came back.
func natsRoundTrips(_ server: ServerProcess, count: Int, size: Int) async throws -> RoundTrips {
    let subject = "rt.\(UUID().uuidString.prefix(8))"
    // b sends back every message it gets, from a task reading its stream, as the relay's b does.
    let b = try await natsClient(server.port, name: "b")
    let (_, pings) = try b.messages(on: "\(subject).ping")
    try await b.flush()
    let echo = Task {
        for await message in pings { try? await publish(b, Array(message.payload.readableBytesView), to: "\(subject).pong") }
    }
    let a = try await natsClient(server.port, name: "a")
    let (_, pongs) = try a.messages(on: "\(subject).pong")
    try await a.flush()
    var iterator = pongs.makeAsyncIterator()
    var times: [UInt64] = []
    for _ in 0..<count {
        let sent = DispatchTime.now().uptimeNanoseconds
        try await publish(a, payload(size), to: "\(subject).ping")
        guard await iterator.next() != nil else { throw BenchmarkError("the round trip's stream ended") }
        times.append(DispatchTime.now().uptimeNanoseconds - sent)
    }
    echo.cancel()
    await a.close()
    await b.close()
    return RoundTrips(sorted: times.sorted())
}

// MARK: Running

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let rounds = option("--rounds").flatMap(Int.init) ?? 3
let natsPath =
    option("--nats")
    ?? ["/usr/bin/nats-server", "/usr/sbin/nats-server", "/usr/local/bin/nats-server"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }
let subscribers = 8

// `--many-rooms [--rooms N] [--seconds S]`: only the many-rooms run (ManyRooms.swift).
if arguments.contains("--many-rooms") {
    guard let natsPath else { throw BenchmarkError("the many-rooms run needs nats-server (make setup installs it)") }
    try await runManyRooms(
        rooms: option("--rooms").flatMap(Int.init) ?? 10_000, seconds: option("--seconds").flatMap(Int.init) ?? 30,
        natsPath: natsPath)
    exit(0)
}

func freePort() throws -> Int {
    let socket = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
    defer { try? socket.close().wait() }
    return socket.localAddress?.port ?? 0
}

let relayServer = try ServerProcess(CommandLine.arguments[0], ["--serve-relay"], port: nil)
var natsServer: ServerProcess?
if let natsPath {
    let port = try freePort()
    natsServer = try ServerProcess(natsPath, ["-a", "127.0.0.1", "-p", String(port)], port: port)
    try await Task.sleep(for: .milliseconds(500))
} else {
    print("nats-server not found (make bench installs Debian's nats-server): the relay alone")
}
defer {
    relayServer.stop()
    natsServer?.stop()
}

print(
    "Relay fan-out: 1 publisher, \(subscribers) subscribers on loopback, one load generator; median of \(rounds) interleaved rounds"
)
print("| case | server | delivered msg/s | MB/s | p50 ms | p99 ms | server CPU µs/delivered | vs nats-server |")
print("|---|---|---|---|---|---|---|---|")
// Enough messages that each server's CPU time, read from /proc in ticks of 10 ms, spans
// tens of ticks.
for (name, messages, size) in [
    ("UpsertStroke, 80 B ×100,000", 100_000, 80), ("snapshot fragment, 60,000 B ×2,000", 2_000, 60_000),
] {
    var relayResults: [Result] = []
    var natsResults: [Result] = []
    for _ in 0..<rounds {
        relayResults.append(try await runRelay(relayServer, subscribers: subscribers, messages: messages, size: size))
        if let natsServer {
            natsResults.append(try await runNATS(natsServer, subscribers: subscribers, messages: messages, size: size))
        }
    }
    func median(_ results: [Result]) -> Result? {
        results.isEmpty ? nil : results.sorted { $0.seconds < $1.seconds }[results.count / 2]
    }
    let relay = median(relayResults)
    let nats = median(natsResults)
    for (server, result) in [("GroupWire relay", relay), ("nats-server", nats)] {
        guard let result else { continue }
        let rate = Double(result.delivered) / result.seconds
        let ratio = nats.map { rate / (Double($0.delivered) / $0.seconds) } ?? .nan
        print(
            "| \(name) | \(server) | \(Int(rate)) | \(String(format: "%.1f", rate * Double(size) / 1e6)) | "
                + "\(String(format: "%.2f", result.p50)) | \(String(format: "%.2f", result.p99)) | "
                + "\(String(format: "%.2f", result.cpuPerMessage * 1e6)) | \(String(format: "%.2f×", ratio)) |")
    }
}

// Idle round trips: one small message at a time, nothing else on the servers.
print("")
print("Idle round trip a → server → b → server → a, 80 B, one message at a time, 2,000 per round; median of \(rounds) rounds")
print("| server | p50 µs | p99 µs | p50 vs nats-server |")
print("|---|---|---|---|")
var relayTrips: [RoundTrips] = []
var natsTrips: [RoundTrips] = []
for _ in 0..<rounds {
    relayTrips.append(try await relayRoundTrips(relayServer, count: 2_000, size: 80))
    if let natsServer { natsTrips.append(try await natsRoundTrips(natsServer, count: 2_000, size: 80)) }
}
func medianTrips(_ trips: [RoundTrips]) -> RoundTrips? {
    trips.isEmpty ? nil : trips.sorted { $0.p50 < $1.p50 }[trips.count / 2]
}
let natsTrip = medianTrips(natsTrips)
for (server, trip) in [("GroupWire relay", medianTrips(relayTrips)), ("nats-server", natsTrip)] {
    guard let trip else { continue }
    let ratio = natsTrip.map { trip.p50 / $0.p50 } ?? .nan
    print(
        "| \(server) | \(String(format: "%.0f", trip.p50 * 1_000)) | \(String(format: "%.0f", trip.p99 * 1_000)) | "
            + "\(String(format: "%.2f×", ratio)) |")
}

// The cluster hop: the same fan-out through two relay nodes of one cluster (RELAY.md,
// "Clustering"), against one relay alone. A room's traffic goes through its owner node
// and NATS, so every frame crosses NATS twice (to the owner, and out in the room's stream)
// even when publisher and subscribers share a node.
if let natsServer {
    let nodeA = try ServerProcess(CommandLine.arguments[0], ["--serve-relay", String(natsServer.port), "a"], port: nil)
    let nodeB = try ServerProcess(CommandLine.arguments[0], ["--serve-relay", String(natsServer.port), "b"], port: nil)
    defer {
        nodeA.stop()
        nodeB.stop()
    }
    let messages = 20_000
    print("")
    print(
        "The cluster hop: 1 publisher, \(subscribers) subscribers, 80 B ×\(messages); server CPU is every relay node's (not NATS's); median of \(rounds) interleaved rounds"
    )
    print("| case | delivered msg/s | p50 ms | p99 ms | relay CPU µs/delivered | vs one relay |")
    print("|---|---|---|---|---|---|")
    let half = subscribers / 2
    let cases: [(String, ServerProcess, [ServerProcess])] = [
        ("one relay, no cluster", relayServer, Array(repeating: relayServer, count: subscribers)),
        ("cluster, all on node a", nodeA, Array(repeating: nodeA, count: subscribers)),
        (
            "cluster, publisher on a, \(half) on a and \(subscribers - half) on b", nodeA,
            Array(repeating: nodeA, count: half) + Array(repeating: nodeB, count: subscribers - half)
        ),
    ]
    var results = Array(repeating: [Result](), count: cases.count)
    for _ in 0..<rounds {
        for (index, (_, publisher, nodes)) in cases.enumerated() {
            results[index].append(try await runRelay(publisher: publisher, subscribers: nodes, messages: messages, size: 80))
        }
    }
    let medians = results.map { $0.sorted { $0.seconds < $1.seconds }[$0.count / 2] }
    let alone = Double(medians[0].delivered) / medians[0].seconds
    for ((name, _, _), result) in zip(cases, medians) {
        let rate = Double(result.delivered) / result.seconds
        print(
            "| \(name) | \(Int(rate)) | \(String(format: "%.2f", result.p50)) | \(String(format: "%.2f", result.p99)) | "
                + "\(String(format: "%.2f", result.cpuPerMessage * 1e6)) | \(String(format: "%.2f×", rate / alone)) |")
    }
    let hop = (medians[2].cpuPerMessage - medians[0].cpuPerMessage) * 1e6
    print("relay CPU the cluster adds per delivered message (two nodes against one relay): \(String(format: "%.2f", hop)) µs")
}
