import GroupWire
import GroupWireSession
import GroupWireTesting

/// One message a test sends: who sends it and its body. Its type id (1 + its number)
/// identifies it after reassembly.
struct SentMessage: Hashable {
    let sender: ParticipantID
    let typeID: UInt64
    let body: [UInt8]
}

/// What one receiver saw after fragments crossed a faulty hub.
struct DeliveryOutcome {
    /// Reassembled (or whole) messages, in delivery order.
    var messages: [Frame] = []
    /// Every drop the reassembler reported, timeouts included.
    var drops: [DropEvent<ParticipantID>] = []
    /// For each (sender, type id): the fragment indexes that arrived at least once, or
    /// how many copies of a single-frame message arrived.
    var fragmentsSeen: [SentMessage: Set<UInt32>] = [:]
    var wholeCopiesSeen: [SentMessage: Int] = [:]
    /// Every transport message, for replay comparisons.
    var transcript: [TransportMessage] = []
    var reassembler: Reassembler<ParticipantID>
}

/// Sends `messages` through a hub with `plan` to one receiver, frame by frame and
/// round robin across messages, then lets the receiver reassemble in arrival order with
/// a clock that follows the arrival times. Everything derives from the plan's seed.
func deliver(
    _ messages: [SentMessage], plan: FaultPlan, maxFrameSize: Int, timeout: Duration = .seconds(60),
    gap: ClosedRange<Int> = 0...2
) async throws -> DeliveryOutcome {
    let hub = InProcessHub(plan: plan, maxMessageSize: maxFrameSize, clock: VirtualClock())
    let receiverID = ParticipantID.numbered(1_000)
    let receiver = try await hub.join(receiverID)
    var endpoints: [ParticipantID: HubEndpoint] = [:]
    for sender in Set(messages.map(\.sender)).sorted() {
        endpoints[sender] = try await hub.join(sender)
    }
    let limits = Limits(maxFrameSize: maxFrameSize)
    let fragmenter = Fragmenter(limits: limits)
    var queues = try messages.enumerated().map { number, message in
        try fragmenter.frames(typeID: message.typeID, messageID: UInt64(number), body: message.body).map { (message, $0) }
    }
    var random = SeededRandom(seed: plan.seed, stream: 0xFEED)
    while queues.contains(where: { !$0.isEmpty }) {
        for index in queues.indices where !queues[index].isEmpty {
            let (message, frame) = queues[index].removeFirst()
            try await endpoints[message.sender]?.send(frame, to: .all)
            await hub.advance(by: .milliseconds(Int.random(in: gap, using: &random)))
        }
    }
    await hub.runUntilIdle()
    await hub.close()

    let clock = VirtualClock()
    var outcome = DeliveryOutcome(
        reassembler: Reassembler(
            limits: limits, reassemblyLimits: ReassemblyLimits(timeout: timeout), clock: clock.reassemblyClock))
    let byKey = Dictionary(
        messages.map { (MessageKey(sender: $0.sender, typeID: $0.typeID), $0) }, uniquingKeysWith: { first, _ in first })
    let decoder = FrameDecoder(limits: limits)
    for await delivery in receiver.messages {
        outcome.transcript.append(delivery)
        clock.advance(to: delivery.arrival)
        let frame = try decoder.decode(delivery.bytes)
        if let sent = byKey[MessageKey(sender: delivery.source, typeID: frame.typeID)] {
            if let info = frame.fragment {
                outcome.fragmentsSeen[sent, default: []].insert(info.index)
            } else {
                outcome.wholeCopiesSeen[sent, default: 0] += 1
            }
        }
        let result = outcome.reassembler.receive(frame, from: delivery.source)
        if let message = result.message { outcome.messages.append(message) }
        outcome.drops += result.drops
    }
    clock.advance(to: clock.elapsed + timeout)
    outcome.drops += outcome.reassembler.expire()
    return outcome
}

private struct MessageKey: Hashable {
    let sender: ParticipantID
    let typeID: UInt64
}

/// Bytes that differ by position and by seed.
func randomBody(count: Int, using random: inout SeededRandom) -> [UInt8] {
    (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
}
