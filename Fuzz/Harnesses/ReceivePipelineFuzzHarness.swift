// Shared by the FuzzReceivePipeline target (Fuzz/Sources/FuzzReceivePipeline, where a
// violation traps) and its corpus replay test (Tests/GroupWireSessionTests/Fuzz, where it
// is an expectation): both depend on the GroupWireFuzzChecks product, so they run the same checks.
import GroupWire
import GroupWireCompression
import GroupWireSession
import GroupWireTesting

/// Small limits, so every frame, message, fragment and budget limit is reachable by short inputs.
let receivePipelineFuzzLimits = Limits(maxFrameSize: 256, maxMessageSize: 2048, maxFragmentCount: 16)
let receivePipelineFuzzReassemblyLimits = ReassemblyLimits(
    maxPartialMessagesPerSender: 3, byteBudget: 5000, timeout: .seconds(10), rememberedFinishedMessages: 8)

/// A `Codable` message the pipeline's payloads are decoded as, so the registry's decoder
/// sees whatever the fuzzer sends under its type id.
struct ReceivePipelineFuzzMessage: CodableMessage {
    static let wireTypeID: UInt64 = 2
    var name: String
    var values: [Int64]
    var nested: [String: Double]?
}

/// The zstd codec, made once: a fresh one per input would dominate the run time.
let receivePipelineFuzzCodec: PayloadCompressor? = try? PayloadCompressor(limits: receivePipelineFuzzLimits)

/// Feeds a fuzz input to the messenger's receiving path (frame decoder → reassembler per
/// sender → bounded zstd decompression → type registry) on a virtual clock, and returns
/// every invariant it breaks (empty: none).
///
/// Input: records `op u8, length u8, length bytes`. `op % 3` is the sender. `op & 4`
/// advances the clock by `length` seconds and expires instead (no bytes follow). `op & 8`
/// rewrites the record's last four bytes as its CRC32C, so the fuzzer gets past the
/// checksum. Invariants after every step: a message never exceeds `maxMessageSize`, a
/// compressed one decompresses to exactly its declared size, the reassembler stays within
/// its byte budget and partial-message count, and registry decoding only throws `WireError`.
public func receivePipelineFuzzViolations(_ input: [UInt8]) -> [String] {
    let clock = VirtualClock()
    var pipeline = ReceivePipeline(
        limits: receivePipelineFuzzLimits, reassemblyLimits: receivePipelineFuzzReassemblyLimits,
        clock: clock.reassemblyClock, codec: receivePipelineFuzzCodec)
    guard let registry = try? MessageRegistry([ReceivePipelineFuzzMessage.self]) else { return ["registry"] }
    let senders = (0..<3).map { ParticipantID.numbered(UInt64($0)) }
    var violations: [String] = []
    var position = 0
    var step = 0
    while position + 2 <= input.count, violations.isEmpty {
        let op = input[position]
        let length = Int(input[position + 1])
        position += 2
        step += 1
        if op & 4 != 0 {
            clock.advance(by: .seconds(length))
            _ = pipeline.expire()
            continue
        }
        let end = min(input.count, position + length)
        var record = Array(input[position..<end])
        position = end
        if op & 8 != 0, record.count > 4 {
            let crc = CRC32C.checksum(record, range: 0..<(record.count - 4))
            for index in 0..<4 {
                record[record.count - 4 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index)))
            }
        }
        let result = pipeline.receive(frameBytes: record, from: senders[Int(op % 3)])
        if let message = result.message {
            if message.payload.count > receivePipelineFuzzLimits.maxMessageSize {
                violations.append("step \(step): \(message.payload.count)-byte message over maxMessageSize")
            }
            if let info = message.compression, UInt64(message.payload.count) != info.contentSize {
                violations.append("step \(step): decompressed \(message.payload.count) bytes, declared \(info.contentSize)")
            }
            if message.typeID == ReceivePipelineFuzzMessage.wireTypeID {
                _ = try? registry.decode(typeID: message.typeID, payload: message.payload, limits: receivePipelineFuzzLimits)
            }
        }
        let metrics = pipeline.reassemblyMetrics
        if metrics.accountedBytes > receivePipelineFuzzReassemblyLimits.byteBudget {
            violations.append("step \(step): \(metrics.accountedBytes) bytes accounted, budget \(receivePipelineFuzzReassemblyLimits.byteBudget)")
        }
        if metrics.partialMessages > 3 * receivePipelineFuzzReassemblyLimits.maxPartialMessagesPerSender {
            violations.append("step \(step): \(metrics.partialMessages) partial messages held")
        }
    }
    return violations
}
