import GroupWireTesting
import Testing

@testable import GroupWire

@Suite struct ReassemblerPropertyTests {
    /// A fragment frame with small random fields, so that edge cases (count 0 or 1, index at
    /// the count, offsets off by one, empty bodies, lying totals) come up often.
    private func randomFragment(using random: inout SeededRandom) -> Frame {
        let count = UInt32.random(in: 0...6, using: &random)
        let info = FragmentInfo(
            messageID: UInt64.random(in: 0...20, using: &random), index: UInt32.random(in: 0...7, using: &random), count: count,
            totalLength: UInt64.random(in: 0...40, using: &random), offset: UInt64.random(in: 0...40, using: &random))
        let body = (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...3, using: &random) }
        let kind: FrameKind = Int.random(in: 0..<20, using: &random) == 0 ? .data : .fragment
        return Frame(kind: kind, typeID: UInt64.random(in: 0...2, using: &random), fragment: info, body: body)
    }

    @Test(arguments: 0..<4)
    func hostileFragmentsNeverBreakTheLimitsNorAnHonestSendersMessages(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let limits = ReassemblyLimits(maxPartialMessagesPerSender: 5, byteBudget: 4_096)
        var reassembler = Reassembler<String>(reassemblyLimits: limits)
        let honest = (0..<10).map { number in
            (number, patternedBody(count: 150 + number * 7, seed: UInt8(number)))
        }
        var pending = try honest.map { number, body in try decodedFrames(body, messageID: UInt64(number), maxFrameSize: 64) }
        var delivered: [[UInt8]] = []
        var drops: [DropEvent<String>] = []
        for step in 0..<20_000 {
            let result: ReassemblyResult<String>
            if step % 50 == 0, let next = pending.indices.first(where: { !pending[$0].isEmpty }) {
                result = reassembler.receive(pending[next].removeFirst(), from: "carol")
            } else {
                result = reassembler.receive(
                    randomFragment(using: &random), from: "mallory-\(Int.random(in: 0..<4, using: &random))")
            }
            if let message = result.message, message.kind == .data, message.fragment == nil, message.typeID == 7 {
                delivered.append(message.body)
            }
            drops += result.drops
            #expect(reassembler.accountedBytes <= limits.byteBudget)
            #expect(reassembler.partialMessageCount <= 5 * limits.maxPartialMessagesPerSender)
        }
        // Carol's messages (about 1 KB at a time, well inside the budget) all arrive intact,
        // unless the hostile senders' partial messages pushed one out of the budget, which is
        // then reported.
        let evictedFromCarol = drops.filter { $0.sender == "carol" }
        #expect(evictedFromCarol.allSatisfy { $0.reason == .budgetEviction })
        #expect(delivered.count + evictedFromCarol.count == honest.count)
        #expect(Set(delivered).isSubset(of: Set(honest.map(\.1))))
        #expect(reassembler.metrics.messagesDropped == drops.count)
    }
}
