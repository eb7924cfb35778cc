import GroupWire
import GroupWireSession
import GroupWireTesting
import Testing

@Suite struct FragmentDeliveryTests {
    let alice = ParticipantID.numbered(1)
    let bob = ParticipantID.numbered(2)

    @Test func aReliableTransportDeliversEveryMessageWholeAndInOrder() async throws {
        var random = SeededRandom(seed: 11)
        let sizes = [10, 65_000, 70_000, 300_000, 1 << 20]
        let messages = sizes.enumerated().map { number, size in
            SentMessage(
                sender: number.isMultiple(of: 2) ? alice : bob, typeID: UInt64(1 + number),
                body: randomBody(count: size, using: &random))
        }
        let outcome = try await deliver(
            messages, plan: .reliable(seed: 11, delay: .zero ... .milliseconds(30)),
            maxFrameSize: 65_536, gap: 0...0)
        #expect(outcome.drops.isEmpty)
        #expect(Set(outcome.messages.map(\.body)) == Set(messages.map(\.body)))
        #expect(outcome.messages.count == messages.count)
        for sender in [alice, bob] {
            // Per sender, fragments arrive in order: each message completes in send order.
            let sent = messages.filter { $0.sender == sender }.map(\.typeID)
            let got = outcome.messages.map(\.typeID).filter { sent.contains($0) }
            #expect(got == sent)
        }
        var indexesByMessage: [UInt64: [UInt32]] = [:]
        for delivery in outcome.transcript {
            let frame = try FrameDecoder().decode(delivery.bytes)
            if let info = frame.fragment { indexesByMessage[frame.typeID, default: []].append(info.index) }
        }
        #expect(indexesByMessage.count == 3)
        #expect(indexesByMessage.values.allSatisfy { $0 == Array(0..<UInt32($0.count)) })
        #expect(outcome.reassembler.metrics.duplicateFragments == 0)
        #expect(outcome.reassembler.accountedBytes == 0)
    }

    @Test func anUnreliableTransportLosesAMessageWithALostFragmentOnlyAfterTheTimeout() async throws {
        var random = SeededRandom(seed: 5)
        let messages = (0..<12).map {
            SentMessage(sender: alice, typeID: UInt64(1 + $0), body: randomBody(count: 3_000, using: &random))
        }
        let outcome = try await deliver(
            messages, plan: .unreliable(seed: 5, drop: 0.05, duplicate: 0.1, reorder: 0.2),
            maxFrameSize: 256, timeout: .seconds(5))
        let count = try #require(
            try Fragmenter(limits: Limits(maxFrameSize: 256)).layout(typeID: 1, messageID: 0, bodyCount: 3_000)
        ).count
        let complete = messages.filter { outcome.fragmentsSeen[$0]?.count == count }
        #expect(complete.count < messages.count, "seed 5 loses at least one fragment")
        #expect(Set(outcome.messages.map(\.body)) == Set(complete.map(\.body)))
        #expect(outcome.drops.count == messages.count - complete.count)
        #expect(outcome.drops.allSatisfy { $0.reason == .timeout })
        #expect(outcome.reassembler.partialMessageCount == 0)
        #expect(outcome.reassembler.accountedBytes == 0)
    }

    @Test func aLostFragmentIsReportedNoSoonerThanTheTimeout() async throws {
        let clock = VirtualClock()
        var reassembler = Reassembler<ParticipantID>(
            reassemblyLimits: ReassemblyLimits(timeout: .seconds(5)), clock: clock.reassemblyClock)
        let frames = try Fragmenter(limits: Limits(maxFrameSize: 128)).frames(
            typeID: 3, messageID: 9, body: [UInt8](repeating: 7, count: 1_000))
        for frame in frames.dropLast() {
            _ = reassembler.receive(try FrameDecoder(limits: Limits(maxFrameSize: 128)).decode(frame), from: alice)
        }
        clock.advance(to: .milliseconds(4_999))
        #expect(reassembler.expire().isEmpty)
        clock.advance(to: .seconds(5))
        let drops = reassembler.expire()
        #expect(drops.map(\.reason) == [.timeout])
        #expect(drops.first?.messageID == 9)
        #expect(drops.first?.sender == alice)
        #expect(drops.first?.fragmentsReceived == frames.count - 1)
    }

    @Test func theSameSeedReplaysTheSameDeliveriesAndDrops() async throws {
        var random = SeededRandom(seed: 77)
        let messages = (0..<6).map {
            SentMessage(sender: $0 < 3 ? alice : bob, typeID: UInt64(1 + $0), body: randomBody(count: 2_000, using: &random))
        }
        let plan = FaultPlan.unreliable(seed: 77, drop: 0.1, duplicate: 0.2, reorder: 0.3)
        let first = try await deliver(messages, plan: plan, maxFrameSize: 200)
        let second = try await deliver(messages, plan: plan, maxFrameSize: 200)
        #expect(first.transcript == second.transcript)
        #expect(first.drops == second.drops)
        #expect(first.messages == second.messages)
        let other = try await deliver(
            messages, plan: FaultPlan.unreliable(seed: 78, drop: 0.1, duplicate: 0.2, reorder: 0.3), maxFrameSize: 200)
        #expect(other.transcript != first.transcript)
    }

    @Test(arguments: 0..<6)
    func randomSizesOrdersDuplicatesAndLossesNeverCorruptOrLeak(batch: UInt64) async throws {
        for iteration in 0..<25 {
            let seed = batch * 1_000 + UInt64(iteration)
            var random = SeededRandom(seed: seed)
            let plan = FaultPlan.unreliable(
                seed: seed, drop: Double.random(in: 0...0.15, using: &random),
                duplicate: Double.random(in: 0...0.3, using: &random),
                reorder: Double.random(in: 0...0.5, using: &random),
                delay: .zero ... .milliseconds(Int.random(in: 0...10, using: &random)))
            let maxFrameSize = Int.random(in: 48...400, using: &random)
            let senders = (0..<Int.random(in: 1...3, using: &random)).map { ParticipantID.numbered(UInt64($0)) }
            let messages = (0..<Int.random(in: 1...6, using: &random)).map { number in
                SentMessage(
                    sender: senders[number % senders.count], typeID: UInt64(1 + number),
                    body: randomBody(count: Int.random(in: 0...3_000, using: &random), using: &random))
            }
            let outcome = try await deliver(messages, plan: plan, maxFrameSize: maxFrameSize)
            var expected: [[UInt8]] = []
            var lost = 0
            for message in messages {
                if let copies = outcome.wholeCopiesSeen[message] {
                    expected += Array(repeating: message.body, count: copies)
                } else if let seen = outcome.fragmentsSeen[message] {
                    let layout = try Fragmenter(limits: Limits(maxFrameSize: maxFrameSize))
                        .layout(typeID: message.typeID, messageID: 0, bodyCount: message.body.count)
                    if seen.count == layout?.count { expected.append(message.body) } else { lost += 1 }
                }
            }
            #expect(
                outcome.messages.map(\.body).sorted { $0.lexicographicallyPrecedes($1) }
                    == expected.sorted { $0.lexicographicallyPrecedes($1) }, "seed \(seed)")
            #expect(outcome.drops.count == lost, "seed \(seed)")
            #expect(outcome.drops.allSatisfy { $0.reason == .timeout }, "seed \(seed)")
            #expect(outcome.reassembler.metrics.dropped(.conflict) == 0, "seed \(seed)")
            #expect(outcome.reassembler.partialMessageCount == 0, "seed \(seed)")
            #expect(outcome.reassembler.accountedBytes == 0, "seed \(seed)")
        }
    }
}
