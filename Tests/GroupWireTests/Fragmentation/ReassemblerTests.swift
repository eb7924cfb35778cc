import Testing

@testable import GroupWire

@Suite struct ReassemblerTests {
    typealias Events = [DropEvent<String>]

    /// Feeds `frames` from `sender`, returning the completed messages and every drop.
    private func feed(_ frames: [Frame], from sender: String = "alice", into reassembler: inout Reassembler<String>) -> (
        [Frame], Events
    ) {
        var messages: [Frame] = []
        var drops: Events = []
        for frame in frames {
            let result = reassembler.receive(frame, from: sender)
            if let message = result.message { messages.append(message) }
            drops += result.drops
        }
        return (messages, drops)
    }

    @Test func fragmentsInOrderGiveBackTheWholeBodyAsADataFrame() throws {
        let body = patternedBody(count: 1_000)
        var reassembler = Reassembler<String>()
        let (messages, drops) = feed(try decodedFrames(body, typeID: 42), into: &reassembler)
        #expect(messages == [Frame(kind: .data, typeID: 42, body: body)])
        #expect(drops.isEmpty)
        #expect(reassembler.partialMessageCount == 0)
        #expect(reassembler.accountedBytes == 0)
        #expect(reassembler.metrics.messagesReassembled == 1)
        #expect(reassembler.metrics.bytesReassembled == 1_000)
    }

    @Test func fragmentsInReverseOrderGiveBackTheSameBodyWithItsCompressionHeader() throws {
        let body = patternedBody(count: 500, seed: 9)
        let compression = CompressionInfo(contentSize: 4_000)
        var reassembler = Reassembler<String>()
        let (messages, _) = feed(try decodedFrames(body, compression: compression).reversed(), into: &reassembler)
        #expect(messages == [Frame(kind: .data, typeID: 7, compression: compression, body: body)])
    }

    @Test func dataAndControlFramesPassThroughUnchanged() {
        var reassembler = Reassembler<String>()
        let data = Frame(kind: .data, typeID: 3, body: [1, 2, 3])
        let control = Frame(kind: .control, typeID: 1, body: [])
        #expect(reassembler.receive(data, from: "bob").message == data)
        #expect(reassembler.receive(control, from: "bob").message == control)
        #expect(reassembler.metrics.wholeFrames == 2)
    }

    @Test func anExactDuplicateIsIgnoredAndTheMessageArrivesOnce() throws {
        let frames = try decodedFrames(patternedBody(count: 200))
        var reassembler = Reassembler<String>()
        let (messages, drops) = feed([frames[0], frames[0]] + frames + [frames[1]], into: &reassembler)
        #expect(messages.count == 1)
        #expect(drops.isEmpty)
        // frames[0] twice more while partial: duplicates; frames[1] after completion: late,
        // not the start of a new message.
        #expect(reassembler.metrics.duplicateFragments == 2)
        #expect(reassembler.metrics.lateFragments == 1)
        #expect(reassembler.partialMessageCount == 0)
    }

    @Test func differentBytesAtTheSameIndexDropTheWholeMessage() throws {
        let frames = try decodedFrames(patternedBody(count: 200))
        var forged = frames[1]
        forged.body[0] ^= 0xFF
        var reassembler = Reassembler<String>()
        let (messages, drops) = feed([frames[0], frames[1], forged] + frames, into: &reassembler)
        #expect(messages.isEmpty)
        #expect(drops.map(\.reason) == [.conflict])
        #expect(drops.first?.fragmentsReceived == 2)
        #expect(drops.first?.messageID == 1)
        #expect(reassembler.accountedBytes == 0)
        #expect(reassembler.metrics.dropped(.conflict) == 1)
    }

    @Test func aCountThatGrowsAfterTheFirstFragmentDropsTheMessage() throws {
        let first = try decodedFrames(patternedBody(count: 100))
        let longer = try decodedFrames(patternedBody(count: 180))
        var reassembler = Reassembler<String>()
        let (messages, drops) = feed([first[0], longer[longer.count - 1]], into: &reassembler)
        #expect(messages.isEmpty)
        #expect(drops.map(\.reason) == [.conflict])
        #expect(drops.first?.detail.contains("fragment count") == true)
    }

    @Test func aDifferentTypeIDOrCompressionHeaderDropsTheMessage() throws {
        let frames = try decodedFrames(patternedBody(count: 100))
        var retyped = frames[1]
        retyped.typeID = 8
        var compressed = frames[1]
        compressed.compression = CompressionInfo(contentSize: 10)
        var reassembler = Reassembler<String>()
        let (_, typeDrops) = feed([frames[0], retyped], into: &reassembler)
        #expect(typeDrops.map(\.reason) == [.conflict])
        let others = try decodedFrames(patternedBody(count: 100), messageID: 2)
        var other = others[1]
        other.compression = CompressionInfo(contentSize: 10)
        let (_, compressionDrops) = feed([others[0], other], into: &reassembler)
        #expect(compressionDrops.map(\.reason) == [.conflict])
        #expect(compressionDrops.first?.messageID == 2)
    }

    @Test func anOverlappingOffsetIsRejectedBeforeAnythingIsAllocated() throws {
        var frames = try decodedFrames(patternedBody(count: 200))
        frames[1].fragment?.offset -= 1
        var reassembler = Reassembler<String>()
        let (_, drops) = feed([frames[1]], into: &reassembler)
        #expect(drops.map(\.reason) == [.invalidFragment])
        #expect(reassembler.partialMessageCount == 0)
        #expect(reassembler.metrics.peakAccountedBytes == 0)
        // The message is dead: its other fragments are ignored, not reported again.
        let (messages, more) = feed(Array(frames.dropFirst(2)), into: &reassembler)
        #expect(messages.isEmpty && more.isEmpty)
    }

    @Test func anIndexOutOfRangeIsRejected() {
        var reassembler = Reassembler<String>()
        let frame = Frame(
            kind: .fragment, typeID: 7,
            fragment: FragmentInfo(messageID: 5, index: 4, count: 4, totalLength: 40, offset: 40), body: [])
        let result = reassembler.receive(frame, from: "mallory")
        #expect(result.message == nil)
        #expect(
            result.drops == [
                DropEvent(
                    reason: .invalidFragment, sender: "mallory", messageID: 5, fragmentsReceived: 0,
                    detail: result.drops.first?.detail ?? "")
            ])
    }

    @Test func aTotalLengthThatLiesIsRejected() {
        // Claims a 16 MiB message in 2 fragments of 10 bytes.
        var reassembler = Reassembler<String>()
        let frame = Frame(
            kind: .fragment, typeID: 7,
            fragment: FragmentInfo(messageID: 5, index: 0, count: 2, totalLength: 16 << 20, offset: 0),
            body: [UInt8](repeating: 1, count: 10))
        let result = reassembler.receive(frame, from: "mallory")
        #expect(result.drops.map(\.reason) == [.invalidFragment])
        #expect(reassembler.metrics.peakAccountedBytes == 0)
    }

    @Test func aFragmentHeaderOnADataFrameIsRejected() {
        var reassembler = Reassembler<String>()
        let frame = Frame(
            kind: .data, typeID: 7, fragment: FragmentInfo(messageID: 5, index: 0, count: 2, totalLength: 4, offset: 0),
            body: [1, 2])
        #expect(reassembler.receive(frame, from: "mallory").drops.map(\.reason) == [.invalidFragment])
    }

    @Test func interleavedSendersWithTheSameMessageIDsAreKeptApart() throws {
        let alice = try decodedFrames(patternedBody(count: 300, seed: 1))
        let bob = try decodedFrames(patternedBody(count: 300, seed: 2))
        var reassembler = Reassembler<String>()
        var delivered: [String: [UInt8]] = [:]
        for (a, b) in zip(alice, bob.reversed()) {
            if let message = reassembler.receive(a, from: "alice").message { delivered["alice"] = message.body }
            if let message = reassembler.receive(b, from: "bob").message { delivered["bob"] = message.body }
        }
        #expect(delivered == ["alice": patternedBody(count: 300, seed: 1), "bob": patternedBody(count: 300, seed: 2)])
    }

    @Test func aSenderOverItsPartialMessageLimitLosesItsOldestMessage() throws {
        var reassembler = Reassembler<String>(reassemblyLimits: ReassemblyLimits(maxPartialMessagesPerSender: 2))
        let messages = try (1...3).map { try decodedFrames(patternedBody(count: 100), messageID: UInt64($0)) }
        let bob = try decodedFrames(patternedBody(count: 100), messageID: 1)
        _ = reassembler.receive(bob[0], from: "bob")
        _ = feed([messages[0][0], messages[1][0]], into: &reassembler)
        let (_, drops) = feed([messages[2][0]], into: &reassembler)
        #expect(drops.map(\.reason) == [.senderLimit])
        #expect(drops.first?.messageID == 1)
        #expect(drops.first?.sender == "alice")
        #expect(reassembler.partialMessageCount == 3)
        // Bob's message, older than all of Alice's, is untouched and still completes.
        let (bobMessages, _) = feed(Array(bob.dropFirst()), from: "bob", into: &reassembler)
        #expect(bobMessages.count == 1)
    }

    @Test func aFullByteBudgetEvictsTheOldestPartialMessageFirst() throws {
        let first = try decodedFrames(patternedBody(count: 1_000), messageID: 1)
        let second = try decodedFrames(patternedBody(count: 1_000), messageID: 2)
        let third = try decodedFrames(patternedBody(count: 1_000), messageID: 3)
        let each = Reassembler<String>.accountedBytes(totalLength: 1_000, count: first.count)
        var reassembler = Reassembler<String>(reassemblyLimits: ReassemblyLimits(byteBudget: 2 * each + 10))
        _ = feed([first[0]], from: "a", into: &reassembler)
        _ = feed([second[0]], from: "b", into: &reassembler)
        let (_, drops) = feed([third[0]], from: "c", into: &reassembler)
        #expect(drops.map(\.reason) == [.budgetEviction])
        #expect(drops.first?.sender == "a")
        #expect(reassembler.accountedBytes == 2 * each)
        let (messages, _) = feed(Array(second.dropFirst()), from: "b", into: &reassembler)
        #expect(messages.map(\.body) == [patternedBody(count: 1_000)])
    }

    @Test func removingASenderDropsOnlyItsPartialMessagesAndReleasesTheirBytes() throws {
        var reassembler = Reassembler<String>()
        let first = try decodedFrames(patternedBody(count: 300), messageID: 1)
        let second = try decodedFrames(patternedBody(count: 400), messageID: 2)
        let bobs = try decodedFrames(patternedBody(count: 500), messageID: 1)
        _ = feed([first[0], second[0]], from: "alice", into: &reassembler)
        _ = feed([bobs[0]], from: "bob", into: &reassembler)
        let drops = reassembler.removeSender("alice")
        #expect(drops.map(\.reason) == [.senderGone, .senderGone])
        #expect(drops.map(\.messageID) == [1, 2])
        #expect(reassembler.partialMessageCount == 1)
        #expect(reassembler.accountedBytes == Reassembler<String>.accountedBytes(totalLength: 500, count: bobs.count))
        #expect(reassembler.removeSender("alice").isEmpty)
    }

    @Test func aMessageLargerThanTheWholeBudgetIsRefused() throws {
        var reassembler = Reassembler<String>(reassemblyLimits: ReassemblyLimits(byteBudget: 500))
        let (_, drops) = feed(try decodedFrames(patternedBody(count: 1_000)), into: &reassembler)
        #expect(drops.map(\.reason) == [.limitExceeded])
        #expect(reassembler.metrics.peakAccountedBytes == 0)
    }

    @Test func aPartialMessageTimesOutAndLaterFragmentsOfItAreIgnored() throws {
        let clock = ManualClock()
        var reassembler = Reassembler<String>(
            reassemblyLimits: ReassemblyLimits(timeout: .seconds(5)), clock: clock.reassemblyClock)
        let frames = try decodedFrames(patternedBody(count: 200))
        _ = feed(Array(frames.prefix(3)), into: &reassembler)
        clock.advance(by: .seconds(4))
        #expect(reassembler.expire().isEmpty)
        clock.advance(by: .seconds(1))
        let drops = reassembler.expire()
        #expect(drops.map(\.reason) == [.timeout])
        #expect(drops.first?.fragmentsReceived == 3)
        #expect(reassembler.accountedBytes == 0)
        let (messages, more) = feed(Array(frames.dropFirst(3)), into: &reassembler)
        #expect(messages.isEmpty && more.isEmpty)
        #expect(reassembler.metrics.lateFragments == frames.count - 3)
    }

    @Test func aFloodOfFirstFragmentsStaysWithinTheBudgetAndTheSenderLimit() throws {
        let budget = 8 << 20
        var reassembler = Reassembler<String>(
            reassemblyLimits: ReassemblyLimits(maxPartialMessagesPerSender: 8, byteBudget: budget))
        // Each first fragment claims a 16 MiB message (4_096 fragments of 4_096 bytes).
        let chunk = [UInt8](repeating: 0xAB, count: 4_096)
        var drops = 0
        for id in 0..<2_000 {
            let frame = Frame(
                kind: .fragment, typeID: 1,
                fragment: FragmentInfo(messageID: UInt64(id), index: 0, count: 4_096, totalLength: 16 << 20, offset: 0),
                body: chunk)
            drops += reassembler.receive(frame, from: "mallory-\(id % 50)").drops.count
            #expect(reassembler.accountedBytes <= budget)
        }
        // 16 MiB is over the 8 MiB budget: every one is refused before allocating.
        #expect(drops == 2_000)
        #expect(reassembler.metrics.peakAccountedBytes == 0)

        // Smaller claims (1 MiB each) are admitted but evicted oldest first.
        for id in 0..<2_000 {
            let frame = Frame(
                kind: .fragment, typeID: 1,
                fragment: FragmentInfo(messageID: UInt64(10_000 + id), index: 0, count: 256, totalLength: 1 << 20, offset: 0),
                body: chunk)
            _ = reassembler.receive(frame, from: "mallory-\(id % 50)")
            #expect(reassembler.accountedBytes <= budget)
        }
        #expect(reassembler.partialMessageCount <= budget / (1 << 20))
        #expect(reassembler.metrics.peakAccountedBytes <= budget)
        #expect(reassembler.metrics.dropped(.budgetEviction) > 1_900)

        // An honest message sent after the flood still gets through.
        let honest = try decodedFrames(patternedBody(count: 5_000), maxFrameSize: 1_024)
        let (messages, _) = feed(honest, from: "carol", into: &reassembler)
        #expect(messages.map(\.body) == [patternedBody(count: 5_000)])
    }

    @Test func aFloodOfTinyMessagesFromOneSenderIsCappedBySenderLimit() {
        var reassembler = Reassembler<String>(reassemblyLimits: ReassemblyLimits(maxPartialMessagesPerSender: 4))
        for id in 0..<10_000 {
            let frame = Frame(
                kind: .fragment, typeID: 1,
                fragment: FragmentInfo(messageID: UInt64(id), index: 0, count: 2, totalLength: 2, offset: 0), body: [9])
            _ = reassembler.receive(frame, from: "mallory")
        }
        #expect(reassembler.partialMessageCount == 4)
        #expect(reassembler.accountedBytes == 4 * Reassembler<String>.accountedBytes(totalLength: 2, count: 2))
        #expect(reassembler.metrics.dropped(.senderLimit) == 9_996)
    }
}
