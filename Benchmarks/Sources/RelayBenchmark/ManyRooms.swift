// Many rooms on a cluster (RelayBenchmark --many-rooms): ROOMS rooms of two participants,
// one through node a and one through node b of a two-node cluster on one nats-server, so
// every message crosses nodes; each participant sends one 80-byte message a second to the
// other. Two load generator processes (one per node: a process holds at most its
// descriptor limit of sockets) run a lean WebSocket client written on NIO's channel
// handlers, byte by byte as RELAY.md describes the wire, so that the load costs little
// beside the relays. Reported: connection setup rate, each node's RSS before and after
// the connections and at its peak (memory per connection), CPU of each node and of
// nats-server per delivered message, delivery latency p50/p99/max (sender's stamp to
// receiver, CLOCK_MONOTONIC across processes), and sent against received.

import Dispatch
import Foundation
import GroupWireRelay
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// MARK: Limits and process facts

/// Raises this process's descriptor limit to its hard limit (the benchmark's, never the
/// product's) and returns it.
func raiseDescriptorLimit() -> Int {
    var limit = rlimit()
    #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return 0 }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(resource, &limit)
    _ = getrlimit(resource, &limit)
    return Int(limit.rlim_cur)
}

/// A field of /proc/PID/status in kilobytes (VmRSS, VmHWM), 0 when it cannot be read.
func statusKilobytes(_ pid: Int32, _ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(field):") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

// MARK: The load generator's client

/// What one load generator saw: messages sent and received, and each delivery's latency in
/// microseconds.
final class LoadTally: Sendable {
    private struct State {
        var welcomed = 0
        var failed = 0
        var sent = 0
        var received = 0
        var latencies: [UInt32] = []
    }
    private let state = Mutex(State())

    func welcome() { state.withLock { $0.welcomed += 1 } }
    func fail() { state.withLock { $0.failed += 1 } }
    func sent() { state.withLock { $0.sent += 1 } }
    func received(stamp: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            state.received += 1
            state.latencies.append(UInt32(clamping: (now &- stamp) / 1_000))
        }
    }

    var welcomed: Int { state.withLock { $0.welcomed } }
    var failed: Int { state.withLock { $0.failed } }
    var sentCount: Int { state.withLock { $0.sent } }
    var receivedCount: Int { state.withLock { $0.received } }
    var latencies: [UInt32] { state.withLock { $0.latencies } }
}

/// One participant's connection: the upgrade written as bytes, then RFC 6455 frames read
/// and written directly (the relay's are unmasked; ours are masked). It answers pings,
/// counts its welcome and the deliveries to it, and sends on ``sendOne(_:)``.
final class LoadConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let request: String
    private let tally: LoadTally
    private let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
    private var buffer = ByteBuffer()
    private var upgraded = false
    private var welcomed = false
    private var context: ChannelHandlerContext?

    init(port: Int, token: String, tally: LoadTally) {
        request =
            "GET /v1/connect?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: groupwire.v1\r\n\r\n"
        self.tally = tally
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: request)), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !welcomed { tally.fail() }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        if !upgraded {
            let bytes = buffer.readableBytesView
            guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else {
                if bytes.count > 8_192 { context.close(promise: nil) }
                return
            }
            guard bytes.starts(with: Array("HTTP/1.1 101".utf8)) else {
                context.close(promise: nil)
                return
            }
            buffer.moveReaderIndex(forwardBy: end.upperBound - bytes.startIndex)
            upgraded = true
        }
        while let (opcode, payload) = nextFrame() {
            switch opcode {
            case 0x2:
                guard let type = payload.first else { continue }
                if type == 0x10, !welcomed {
                    welcomed = true
                    tally.welcome()
                } else if type == 0x02, payload.count >= 25 {
                    var stamp: UInt64 = 0
                    for index in 0..<8 { stamp |= UInt64(payload[payload.startIndex + 17 + index]) << (8 * UInt64(index)) }
                    tally.received(stamp: stamp)
                }
            case 0x9: write(opcode: 0xA, payload)
            case 0x8: context.close(promise: nil)
            default: break
            }
        }
        buffer.discardReadBytes()
    }

    /// The next whole frame in the buffer (the relay sends unfragmented, unmasked frames).
    private func nextFrame() -> (UInt8, ArraySlice<UInt8>)? {
        let bytes = buffer.readableBytesView
        guard bytes.count >= 2 else { return nil }
        let first = bytes[bytes.startIndex]
        let short = Int(bytes[bytes.startIndex + 1] & 0x7F)
        let extra = short == 126 ? 2 : short == 127 ? 8 : 0
        guard bytes.count >= 2 + extra else { return nil }
        var length = short
        if extra > 0 {
            length = 0
            for index in 0..<extra { length = length << 8 | Int(bytes[bytes.startIndex + 2 + index]) }
        }
        guard length <= 1 << 24, bytes.count >= 2 + extra + length else { return nil }
        let payload = Array(bytes[(bytes.startIndex + 2 + extra)..<(bytes.startIndex + 2 + extra + length)])
        buffer.moveReaderIndex(forwardBy: 2 + extra + length)
        return (first & 0x0F, payload[...])
    }

    private func write(opcode: UInt8, _ payload: some Collection<UInt8>) {
        guard let context, payload.count < 126 else { return }
        var frame = ByteBuffer()
        frame.reserveCapacity(6 + payload.count)
        frame.writeInteger(0x80 | opcode)
        frame.writeInteger(0x80 | UInt8(payload.count))
        frame.writeBytes(mask)
        for (index, byte) in payload.enumerated() { frame.writeInteger(byte ^ mask[index % 4]) }
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    /// Sends one 80-byte frame to everyone else in the room (RELAY.md: type 0x01, then the
    /// frame), its first 8 bytes the send time. On the connection's event loop.
    func sendOne() {
        guard welcomed, let context, context.channel.isActive else { return }
        var message: [UInt8] = [0x01]
        message += withUnsafeBytes(of: DispatchTime.now().uptimeNanoseconds.littleEndian, Array.init)
        message += [UInt8](repeating: 0x5A, count: 72)
        write(opcode: 0x2, message)
        tally.sent()
    }
}

/// The load generator child: `--load PORT SIDE ROOMS`. Connects ROOMS participants
/// (identity SIDE + index, room `room-INDEX`) to the node on PORT, at most 128 upgrades
/// in flight, and says `connected N failed M SECONDS`; on `go SECONDS` each sends one
/// message a second (spread over the second) for SECONDS, then it says `sent N`; on
/// `expect N` it waits (at most 20 s) until N messages have arrived, then says
/// `received N p50 p99 max` (microseconds).
func runLoadGenerator(port: Int, side: String, rooms: Int) async throws {
    let descriptors = raiseDescriptorLimit()
    guard descriptors > rooms + 64 else {
        throw BenchmarkError("\(rooms) connections need more descriptors than this process may have (\(descriptors))")
    }
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let tally = LoadTally()
    let secret = Array("bench".utf8)
    let expiry = Int64(Date().timeIntervalSince1970) + 3_600
    var connections: [(Channel, LoadConnection)] = []
    connections.reserveCapacity(rooms)
    let start = ContinuousClock.now
    var next = 0
    while next < rooms {
        let batch = next..<min(rooms, next + 128)
        next = batch.upperBound
        var made: [EventLoopFuture<(Channel, LoadConnection)>] = []
        for index in batch {
            let token = try AccessToken(room: "room-\(index)", identity: "\(side)\(index)", expiresAt: expiry).signed(
                secret: secret)
            let handler = LoadConnection(port: port, token: token, tally: tally)
            made.append(
                ClientBootstrap(group: group).channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
                }.connect(host: "127.0.0.1", port: port).map { ($0, handler) })
        }
        for future in made {
            do { connections.append(try await future.get()) } catch { tally.fail() }
        }
        // The batch's welcomes before the next batch: the relays see one ramp, not a flood.
        let deadline = ContinuousClock.now + .seconds(60)
        while tally.welcomed + tally.failed < next {
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError("\(next - tally.welcomed - tally.failed) connections had no welcome within a minute")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
    let took = start.duration(to: .now)
    answer(
        "connected \(tally.welcomed) failed \(tally.failed) \(Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)"
    )

    while let line = readLine() {
        let words = line.split(separator: " ")
        if words.first == "go", let seconds = words.dropFirst().first.flatMap({ Int($0) }) {
            // Each connection sends at its own offset within the second, SECONDS times.
            var done: [EventLoopFuture<Void>] = []
            for (index, (channel, handler)) in connections.enumerated() {
                let offset = TimeAmount.microseconds(Int64(index) * 1_000_000 / Int64(max(1, rooms)))
                let finished = channel.eventLoop.makePromise(of: Void.self)
                for second in 0..<seconds {
                    channel.eventLoop.scheduleTask(in: offset + .seconds(Int64(second))) { handler.sendOne() }
                }
                channel.eventLoop.scheduleTask(in: offset + .seconds(Int64(seconds))) { finished.succeed() }
                done.append(finished.futureResult)
            }
            for future in done { try await future.get() }
            answer("sent \(tally.sentCount)")
        } else if words.first == "expect", let expected = words.dropFirst().first.flatMap({ Int($0) }) {
            let deadline = ContinuousClock.now + .seconds(20)
            while tally.receivedCount < expected, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let sorted = tally.latencies.sorted()
            func at(_ fraction: Double) -> UInt32 {
                sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
            }
            answer("received \(tally.receivedCount) \(at(0.5)) \(at(0.99)) \(sorted.last ?? 0)")
        } else if words.first == "quit" {
            break
        }
    }
    for (channel, _) in connections { channel.close(promise: nil) }
    try await group.shutdownGracefully()
}

/// One line to the parent, unbuffered.
func answer(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

// MARK: The parent

/// A child process spoken to by lines: what it prints, what it is told.
final class LineChild {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending: [UInt8] = []

    init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    func say(_ line: String) { try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) }

    /// The next line it prints (blocking; the benchmark's children answer each step).
    func line() throws -> String {
        while true {
            if let end = pending.firstIndex(of: 10) {
                defer { pending.removeSubrange(...end) }
                return String(decoding: pending[..<end], as: UTF8.self)
            }
            // What has arrived (read(upToCount:) would wait for all 4,096 bytes).
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else {
                throw BenchmarkError(
                    "\(process.arguments?.first ?? "a child") ended: \(String(decoding: pending, as: UTF8.self))")
            }
            pending += data
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
}

/// The many-rooms run: `rooms` rooms over two nodes, `seconds` of sending.
func runManyRooms(rooms: Int, seconds: Int, natsPath: String) async throws {
    let natsPort = try freePort()
    let nats = try ServerProcess(natsPath, ["-a", "127.0.0.1", "-p", String(natsPort)], port: natsPort)
    defer { nats.stop() }
    try await Task.sleep(for: .milliseconds(500))
    let nodes = try ["a", "b"].map {
        try ServerProcess(CommandLine.arguments[0], ["--serve-relay", String(natsPort), $0, "many"], port: nil)
    }
    defer { for node in nodes { node.stop() } }
    FileHandle.standardError.write(Data("nodes on \(nodes.map(\.port))\n".utf8))
    let pids = nodes.map(\.process.processIdentifier)
    let before = pids.map { statusKilobytes($0, "VmRSS") }
    let loaders = try zip(nodes, ["a", "b"]).map { node, side in
        try LineChild(CommandLine.arguments[0], ["--load", String(node.port), side, String(rooms)])
    }
    defer { for loader in loaders { loader.stop() } }
    var setup: [Double] = []
    for loader in loaders {
        let words = try loader.line().split(separator: " ")
        guard words.count == 5, words[0] == "connected", let welcomed = Int(words[1]), let failed = Int(words[3]),
            let took = Double(words[4])
        else { throw BenchmarkError("a load generator did not connect") }
        guard welcomed == rooms, failed == 0 else {
            throw BenchmarkError("a load generator connected \(welcomed) of \(rooms) (\(failed) failed)")
        }
        setup.append(took)
        FileHandle.standardError.write(Data("connected in \(took) s\n".utf8))
    }
    // Idle but connected: what the connections themselves hold.
    let connected = pids.map { statusKilobytes($0, "VmRSS") }
    let cpuBefore = nodes.map(\.cpuSeconds) + [nats.cpuSeconds]
    let natsBefore = statusKilobytes(nats.process.processIdentifier, "VmRSS")
    for loader in loaders { loader.say("go \(seconds)") }
    var sent: [Int] = []
    for loader in loaders {
        let words = try loader.line().split(separator: " ")
        guard words.count == 2, words[0] == "sent", let count = Int(words[1]) else {
            throw BenchmarkError("a load generator did not say what it sent")
        }
        sent.append(count)
    }
    // Each side receives what the other sent.
    loaders[0].say("expect \(sent[1])")
    loaders[1].say("expect \(sent[0])")
    var received: [(count: Int, p50: Int, p99: Int, max: Int)] = []
    for loader in loaders {
        let words = try loader.line().split(separator: " ").compactMap { Int($0) }
        guard words.count == 4 else { throw BenchmarkError("a load generator did not say what it received") }
        received.append((words[0], words[1], words[2], words[3]))
    }
    let cpu = zip(nodes.map(\.cpuSeconds) + [nats.cpuSeconds], cpuBefore).map { $0 - $1 }
    let peak = pids.map { statusKilobytes($0, "VmHWM") }
    let natsPeak = statusKilobytes(nats.process.processIdentifier, "VmHWM")
    for loader in loaders { loader.say("quit") }

    let delivered = received.map(\.count).reduce(0, +)
    let totalSent = sent.reduce(0, +)
    print(
        "Many rooms: \(rooms) rooms of 2 participants, one through each of 2 relay nodes and one nats-server (\(2 * rooms) WebSocket connections), each sending 80 B a second to the other for \(seconds) s"
    )
    print(
        "| node | connections | RSS idle MiB | RSS connected MiB | KiB per connection | peak RSS MiB | CPU s | CPU µs per delivered message |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for (index, name) in ["a", "b"].enumerated() {
        let perConnection = Double(connected[index] - before[index]) / Double(rooms)
        print(
            "| \(name) | \(rooms) | \(String(format: "%.1f", Double(before[index]) / 1_024)) | "
                + "\(String(format: "%.1f", Double(connected[index]) / 1_024)) | \(String(format: "%.1f", perConnection)) | "
                + "\(String(format: "%.1f", Double(peak[index]) / 1_024)) | \(String(format: "%.2f", cpu[index])) | "
                + "\(String(format: "%.2f", cpu[index] * 1e6 / Double(max(1, delivered)))) |")
    }
    print(
        "| nats-server | (2 nodes) | | \(String(format: "%.1f", Double(natsBefore) / 1_024)) | | \(String(format: "%.1f", Double(natsPeak) / 1_024)) | \(String(format: "%.2f", cpu[2])) | \(String(format: "%.2f", cpu[2] * 1e6 / Double(max(1, delivered)))) |"
    )
    print("")
    print(
        "| connections set up per second (per node) | messages sent | delivered | lost | delivered/s | p50 ms | p99 ms | max ms |"
    )
    print("|---|---|---|---|---|---|---|---|")
    let worst = received.max { $0.p99 < $1.p99 } ?? (0, 0, 0, 0)
    print(
        "| \(setup.map { String(Int(Double(rooms) / $0)) }.joined(separator: ", ")) | \(totalSent) | \(delivered) | "
            + "\(totalSent - delivered) | \(delivered / max(1, seconds)) | "
            + "\(String(format: "%.2f", Double(received.map(\.p50).max() ?? 0) / 1_000)) | "
            + "\(String(format: "%.2f", Double(worst.p99) / 1_000)) | \(String(format: "%.2f", Double(received.map(\.max).max() ?? 0) / 1_000)) |"
    )
}
