import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import GroupWireSession
import GroupWireTesting
import Synchronization

/// A `Codable` type of the test's own, sent through the messenger like generated ones.
struct Cursor: CodableMessage, Hashable {
    static let wireTypeID: UInt64 = 900
    var x: Double
    var y: Double
    var label: String
}

/// Claims UpsertStroke's type id, which a registry must refuse.
struct Impostor: CodableMessage, Hashable {
    static let wireTypeID: UInt64 = 1
    var note: String
}

/// Participants on one hub, each with a messenger.
struct Group {
    let hub: InProcessHub
    let ids: [ParticipantID]
    let messengers: [Messenger]

    /// Joins `count` participants (numbered 1 ...) to a hub with `plan`; every messenger
    /// has the zstd codec unless `codec` is false.
    static func make(count: Int, plan: FaultPlan = .reliable(), codec: Bool = true) async throws -> Group {
        let clock = VirtualClock()
        let hub = InProcessHub(plan: plan, clock: clock)
        let ids = (1...count).map { ParticipantID.numbered(UInt64($0)) }
        var messengers: [Messenger] = []
        for id in ids {
            let endpoint = try await hub.join(id)
            let configuration = MessengerConfiguration(
                codec: codec ? try PayloadCompressor() : nil, clock: clock.reassemblyClock)
            messengers.append(Messenger(transport: endpoint, configuration: configuration))
        }
        return Group(hub: hub, ids: ids, messengers: messengers)
    }

    /// Delivers everything in flight, then closes the hub so every stream finishes.
    func settle() async {
        await hub.runUntilIdle()
        await hub.close()
    }
}

/// Everything a stream yields until it finishes.
func collect<Element>(_ stream: Messenger.Messages<Element>) async -> [(message: Element, context: MessageContext)] {
    var all: [(message: Element, context: MessageContext)] = []
    for await element in stream {
        all.append(element)
    }
    return all
}

/// A canvas snapshot of `strokes` strokes of `points` points at full precision, large
/// enough (at 60 × 200) to stay over one 64 KiB frame once compressed.
func largeSnapshot(strokes: Int = 60, points: Int = 200, seed: UInt64 = 7) -> CanvasSnapshot {
    var random = SeededRandom(seed: seed)
    let all = (0..<strokes).map { index in
        Stroke(
            id: random.uuid(), color: index.isMultiple(of: 2) ? .blue : .red,
            points: (0..<points).map { step in Point(x: Double(step) + random.unit(), y: random.unit() * 800) })
    }
    return CanvasSnapshot(strokes: all, pointCount: UInt64(strokes * points))
}

/// A transport that records what is sent and delivers nothing, for counting encodings.
final class RecordingTransport: Transport {
    let localParticipant: ParticipantID
    let guarantees = TransportGuarantees(isReliable: true, isOrdered: true, maxMessageSize: 65_536)
    let events: AsyncStream<TransportEvent>
    private let continuation: AsyncStream<TransportEvent>.Continuation
    private let log = Mutex<[(bytes: [UInt8], recipients: Recipients)]>([])

    init(local: ParticipantID, reachable: [ParticipantID]) {
        localParticipant = local
        (events, continuation) = AsyncStream<TransportEvent>.makeStream()
        for participant in reachable {
            continuation.yield(.joined(participant))
        }
    }

    func send(_ bytes: [UInt8], to recipients: Recipients) async throws(WireError) {
        log.withLock { $0.append((bytes, recipients)) }
    }

    var sent: [(bytes: [UInt8], recipients: Recipients)] {
        log.withLock { $0 }
    }

    func close() {
        continuation.finish()
    }
}
