import CAllocationCounter
import Foundation
import GroupWire
import GroupWireNegotiation
import GroupWireSession
import GroupWireTesting
import SwiftProtobuf

/// The messenger's synchronous small-message path, beside its floor and swift-protobuf:
/// what one UpsertStroke costs from value to value (`--messenger`).
enum MessengerPath {
    /// Value → frame (payload encoded straight into it, CRC32C) through `SendPipeline`, then
    /// frame checks (CRC32C), `ReceivePipeline` (a whole frame skips the reassembler; no
    /// codec: 42 bytes are under every compression threshold) and decoding in place from the
    /// frame: exactly what `Messenger` runs per message, without the transport and the stream.
    static func cases(_ value: UpsertStroke, _ proto: Groupwire_Bench_UpsertStroke) throws -> [BenchmarkCase] {
        let sender = SendPipeline()
        let peer = ParticipantID.numbered(2)
        let profile = PeerProfile.default(codec: nil)
        let registry = try MessageRegistry([UpsertStroke.self])
        let frame = try sender.frames(
            typeID: UpsertStroke.wireTypeID, payload: value.wirePayload(), messageID: 0, profile: profile)[0]
        guard try sender.frame(message: value, profile: profile) == frame else {
            throw BenchmarkError("the single-frame path writes other bytes than the general one")
        }
        var check = ReceivePipeline()
        guard let payload = check.receive(frameBytes: frame, from: peer).message?.payload,
            try registry.decode(typeID: UpsertStroke.wireTypeID, payload: payload) as? UpsertStroke == value
        else { throw BenchmarkError("the pipeline does not give UpsertStroke back") }
        return [
            BenchmarkCase(message: "UpsertStroke", codec: "GroupWire pipeline", operation: "round trip") { count in
                var receiver = ReceivePipeline()
                var total = 0
                for _ in 0..<count {
                    guard let frame = try? sender.frame(message: value, profile: profile),
                        let message = receiver.receive(frameBytes: frame, from: peer).message,
                        let decoded = try? message.decode(UpsertStroke.self)
                    else { continue }
                    total &+= decoded.benchmarkChecksum
                }
                return total
            },
            BenchmarkCase(message: "UpsertStroke", codec: "floor (copy the frame)", operation: "round trip") { count in
                var total = 0
                for _ in 0..<count {
                    // The same bytes copied into a new array: the least any path can do.
                    let copy = Array(unsafeUninitializedCapacity: frame.count) { buffer, initialized in
                        initialized = buffer.initialize(from: frame).1
                    }
                    total &+= Int(copy[copy.count - 1])
                }
                return total
            },
            BenchmarkCase(message: "UpsertStroke", codec: "swift-protobuf", operation: "round trip") { count in
                var total = 0
                for _ in 0..<count {
                    guard let bytes: [UInt8] = try? proto.serializedBytes(),
                        let decoded = try? Groupwire_Bench_UpsertStroke(serializedBytes: bytes)
                    else { continue }
                    total &+= decoded.color.rawValue
                }
                return total
            },
        ]
    }

    /// One run over the in-process hub without faults, in real time (the hub's default, what
    /// an app's tests run on): participant 1 sends `messages` UpsertStrokes to everybody;
    /// every other participant's messenger decodes them into its stream. Open loop
    /// (`closedLoop` false): sends as fast as it can, for throughput and allocations. Closed loop: waits for
    /// every receiver to have each message before sending the next, for latency without
    /// queueing: send to the last receiver's stream.
    struct HubRun {
        let participants: Int
        let messages: Int
        let seconds: Double
        let latencies: [Double]
        let allocations: Int

        /// Messages sent per second.
        var sentPerSecond: Double { Double(messages) / seconds }
        /// Messages delivered per second, over all receivers.
        var deliveredPerSecond: Double { Double(messages * (participants - 1)) / seconds }
        func percentile(_ fraction: Double) -> Double {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    ///
    /// With `schemas`, every messenger negotiates, participant n announcing
    /// `schemas[(n - 1) % schemas.count]`, and the run starts once the sender agreed with all.
    static func hubRun(
        participants: Int, messages: Int, value: UpsertStroke, closedLoop: Bool,
        schemas: [HelloSchema]? = nil
    ) async throws -> HubRun {
        let hub = InProcessHub()
        var messengers: [Messenger] = []
        for number in 1...participants {
            let configuration = MessengerConfiguration(
                negotiation: schemas.map { NegotiationSettings(schema: $0[(number - 1) % $0.count]) })
            messengers.append(Messenger(transport: try await hub.join(.numbered(UInt64(number))), configuration: configuration))
        }
        if schemas != nil {
            let deadline = Harness.now() + 10_000_000_000
            while !(2...participants).allSatisfy({ number in
                if case .agreed? = messengers[0].negotiationState(of: .numbered(UInt64(number))) { true } else { false }
            }) {
                guard Harness.now() < deadline else { throw BenchmarkError("the participants did not agree within 10 s") }
                await Task.yield()
            }
        }
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let receivers = try messengers.dropFirst().map { messenger in
            let stream = try messenger.messages(of: UpsertStroke.self)
            return Task {
                var count = 0
                for await _ in stream {
                    // Only the closed loop waits for arrivals: open loop, nobody reads them.
                    if closedLoop { arrived.yield() }
                    count += 1
                    if count == messages { break }
                }
            }
        }
        var waiting = arrivals.makeAsyncIterator()
        let sender = messengers[0]
        var latencies: [Double] = []
        latencies.reserveCapacity(closedLoop ? messages : 0)
        let before = gw_allocation_count()
        let start = Harness.now()
        for index in 0..<messages {
            var stroke = value
            stroke.point.y = Double(index)
            let sent = Harness.now()
            try await sender.send(stroke)
            if closedLoop {
                for _ in 1..<participants { _ = await waiting.next() }
                latencies.append(Double(Harness.now() - sent))
            }
        }
        for receiver in receivers {
            await receiver.value
        }
        let elapsed = Harness.now() - start
        let allocations = gw_allocation_count() - before
        await hub.close()
        return HubRun(
            participants: participants, messages: messages, seconds: Double(elapsed) / 1e9,
            latencies: latencies, allocations: allocations)
    }

    /// Runs everything and prints the two tables.
    static func report(fixtures: Fixtures, rounds: Int, sampleMilliseconds: Int, hubMessages: Int) async throws {
        var harness = Harness(rounds: rounds)
        harness.sampleNanoseconds = UInt64(max(1, sampleMilliseconds)) * 1_000_000
        let (measurements, sink) = harness.run(try cases(fixtures.upsert, fixtures.upsertProto))
        print("| UpsertStroke, value to value | ns/message (median) | messages/s on one core | allocations/message |")
        print("|---|---|---|---|")
        for measurement in measurements {
            let rate = 1e9 / measurement.medianNanoseconds
            let allocations = measurement.allocationsPerOperation.map { String(format: "%.1f", $0) } ?? "n/a"
            print(
                "| \(measurement.benchmark.codec) | \(String(format: "%.1f", measurement.medianNanoseconds)) | \(String(format: "%.2f M", rate / 1e6)) | \(allocations) |"
            )
        }
        print("(checksum \(sink & 0xFFFF))")
        print("")
        print(
            "| over the hub, no faults | sent/s (open loop) | delivered/s | allocations/message sent | p50 latency (closed loop) | p99 latency |"
        )
        print("|---|---|---|---|---|---|")
        for participants in [2, 8] {
            _ = try await hubRun(
                participants: participants, messages: min(hubMessages, 2_000), value: fixtures.upsert, closedLoop: false)
            let open = try await hubRun(
                participants: participants, messages: hubMessages, value: fixtures.upsert, closedLoop: false)
            let closed = try await hubRun(
                participants: participants, messages: hubMessages / 4, value: fixtures.upsert, closedLoop: true)
            print(
                "| \(participants) participants | \(Int(open.sentPerSecond)) | \(Int(open.deliveredPerSecond)) | \(String(format: "%.1f", Double(open.allocations) / Double(open.messages))) | \(String(format: "%.1f µs", closed.percentile(0.5) / 1e3)) | \(String(format: "%.1f µs", closed.percentile(0.99) / 1e3)) |"
            )
        }
    }
}
