// Shared by the FuzzReassembler target (Fuzz/Sources/FuzzReassembler, where a violation
// traps) and its corpus replay test (Tests/GroupWireTests/Fuzz, where it is an
// expectation): both depend on the GroupWireFuzzChecks product, so they run the same checks.
import GroupWire
import Synchronization

/// Small limits, so the budget, per-sender and count limits are all reachable by short inputs.
let reassemblerFuzzLimits = Limits(maxFrameSize: 1024, maxMessageSize: 4096, maxFragmentCount: 16)
let reassemblerFuzzReassemblyLimits = ReassemblyLimits(
    maxPartialMessagesPerSender: 3, byteBudget: 6000, timeout: .seconds(10), rememberedFinishedMessages: 8)

/// A clock the input moves forward by hand.
final class ReassemblerFuzzClock: Sendable {
    private let now = Mutex(Duration.zero)
    var clock: ReassemblyClock { ReassemblyClock { self.now.withLock { $0 } } }
    func advance(seconds: Int) { now.withLock { $0 += .seconds(seconds) } }
}

/// Feeds a fuzz input to a `Reassembler` and returns every invariant it breaks (empty: none).
///
/// Input: records `op u8, length u8, length bytes`. `op % 3` is the sender (0, 1, 2).
/// Bits 2-3 pick what to do: 0 a fragment built from the record (`messageID, index,
/// count, totalLength, offset` uvarints, typeID 1 + bit 4, the rest is the body), 1 the
/// record as raw frame bytes (`receive(frameBytes:)`), 2 advance the clock by `length`
/// seconds (no bytes follow) and expire, 3 remove the sender (no bytes follow).
/// Invariants after every step: accounted bytes within the budget and equal to the
/// metrics' figure, partial messages within senders × per-sender limit, a completed
/// message is as long as the total length its last fragment declared.
public func reassemblerFuzzViolations(_ input: [UInt8]) -> [String] {
    let fakeClock = ReassemblerFuzzClock()
    var reassembler = Reassembler<UInt8>(
        limits: reassemblerFuzzLimits, reassemblyLimits: reassemblerFuzzReassemblyLimits, clock: fakeClock.clock)
    let senderCount = 3
    var violations: [String] = []
    var position = 0
    var step = 0
    while position + 2 <= input.count, violations.isEmpty {
        let op = input[position]
        let length = Int(input[position + 1])
        position += 2
        let sender = op % UInt8(senderCount)
        step += 1
        switch (op >> 2) & 3 {
        case 0, 1:
            let end = min(input.count, position + length)
            let record = Array(input[position..<end])
            position = end
            if (op >> 2) & 3 == 1 {
                let info = (try? FrameDecoder(limits: reassemblerFuzzLimits).decode(record))?.fragment
                if let result = try? reassembler.receive(frameBytes: record, from: sender), let message = result.message,
                    let info, UInt64(message.body.count) != info.totalLength
                {
                    violations.append("step \(step): completed \(message.body.count) bytes, declared \(info.totalLength)")
                }
            } else {
                var reader = ByteReader(record)
                guard let messageID = try? reader.readUVarint(), let index = try? reader.readUVarint(),
                    let count = try? reader.readUVarint(), let total = try? reader.readUVarint(),
                    let offset = try? reader.readUVarint(), let body = try? reader.readBytes(count: reader.remaining)
                else { continue }
                let info = FragmentInfo(
                    messageID: messageID, index: UInt32(truncatingIfNeeded: index), count: UInt32(truncatingIfNeeded: count),
                    totalLength: total, offset: offset)
                let frame = Frame(kind: .fragment, typeID: 1 + UInt64(op >> 4 & 1), fragment: info, body: body)
                let result = reassembler.receive(frame, from: sender)
                if let message = result.message, UInt64(message.body.count) != total {
                    violations.append("step \(step): completed \(message.body.count) bytes, declared \(total)")
                }
            }
        case 2:
            fakeClock.advance(seconds: length)
            _ = reassembler.expire()
        default:
            _ = reassembler.removeSender(sender)
        }
        let budget = reassemblerFuzzReassemblyLimits.byteBudget
        if reassembler.accountedBytes > budget {
            violations.append("step \(step): \(reassembler.accountedBytes) bytes accounted, budget \(budget)")
        }
        if reassembler.accountedBytes < 0 { violations.append("step \(step): negative accounted bytes") }
        let maxPartials = senderCount * reassemblerFuzzReassemblyLimits.maxPartialMessagesPerSender
        if reassembler.partialMessageCount > maxPartials || reassembler.partialMessageCount < 0 {
            violations.append("step \(step): \(reassembler.partialMessageCount) partial messages, at most \(maxPartials)")
        }
        if reassembler.metrics.partialMessages != reassembler.partialMessageCount {
            violations.append("step \(step): metrics count \(reassembler.metrics.partialMessages) partials, holding \(reassembler.partialMessageCount)")
        }
        if reassembler.metrics.peakAccountedBytes > budget {
            violations.append("step \(step): peak \(reassembler.metrics.peakAccountedBytes) over budget \(budget)")
        }
    }
    return violations
}
