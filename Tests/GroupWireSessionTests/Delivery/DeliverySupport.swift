import GroupWire
import GroupWireSession
import GroupWireTesting
import Synchronization
import Testing

/// Every event one transport yields, collected as it arrives.
final class EventLog: Sendable {
    private final class Storage: Sendable {
        let events = Mutex<[TransportEvent]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<TransportEvent>) {
        let storage = storage
        task = Task {
            for await event in stream {
                storage.events.withLock { $0.append(event) }
            }
        }
    }

    deinit { task.cancel() }

    var events: [TransportEvent] { storage.events.withLock { $0 } }

    /// The bodies of the data frames received, decoded, in arrival order.
    var bodies: [[UInt8]] {
        events.compactMap { event in
            guard case .message(let message) = event else { return nil }
            return try? FrameDecoder().decode(message.bytes).body
        }
    }

    func joined(_ participant: ParticipantID) -> Bool {
        events.contains(.joined(participant))
    }

    func left(_ participant: ParticipantID) -> Bool {
        events.contains(.left(participant))
    }
}

/// Participants on one seeded hub, each behind a delivery layer.
struct DeliveryParty {
    let hub: InProcessHub
    let ids: [ParticipantID]
    let transports: [DeliveryTransport]
    let logs: [EventLog]

    /// - Parameter settled: build the layers with the hub's gauge set
    ///   (`SettleGauge.current`), so each step also waits until the layers handled what
    ///   arrived, sent what they queued and ran each timer tick that came due.
    static func make(
        count: Int, plan: FaultPlan, seed: UInt64 = 1, maxMessageSize: Int = 65_536, clock: VirtualClock = VirtualClock(),
        settled: Bool = false, configure: (inout DeliveryConfiguration) -> Void = { _ in }
    ) async throws -> DeliveryParty {
        let hub = InProcessHub(plan: plan, maxMessageSize: maxMessageSize, clock: clock)
        let ids = (1...count).map { ParticipantID.numbered(UInt64($0)) }
        var transports: [DeliveryTransport] = []
        try await SettleGauge.$current.withValue(settled ? hub.gauge : nil) {
            for (index, id) in ids.enumerated() {
                var configuration = DeliveryConfiguration.simulated(seed: seed &+ UInt64(index))
                configure(&configuration)
                transports.append(DeliveryTransport(over: try await hub.join(id), configuration: configuration))
            }
        }
        let party = DeliveryParty(hub: hub, ids: ids, transports: transports, logs: transports.map { EventLog($0.events) })
        // Everybody has seen everybody before a test sends.
        try await party.run("everybody reachable") {
            party.logs.indices.allSatisfy { index in ids.allSatisfy { $0 == ids[index] || party.logs[index].joined($0) } }
        }
        return party
    }

    /// Moves simulated time in `step`s (delivering, firing the layers' timers), each time
    /// waiting for the layers' tasks to take what arrived and what their timers fired
    /// (``InProcessHub/step(by:patience:)``), until `condition` holds; bounded by `limit`
    /// of simulated time.
    func run(
        _ what: String, step: Duration = .milliseconds(5), limit: Duration = .seconds(120), line: Int = #line,
        until condition: () -> Bool
    ) async throws {
        let start = hub.elapsed
        try await hub.settle()
        while !condition() {
            guard hub.elapsed - start < limit else {
                Issue.record("\(what): not reached after \(hub.elapsed - start) of simulated time (line \(line))")
                throw DeliveryTestError(description: what)
            }
            try await hub.step(by: step)
        }
    }
}

struct DeliveryTestError: Error, CustomStringConvertible {
    let description: String
}

/// A data frame of type 1 whose body is `index` as four little-endian bytes.
func numberedFrame(_ index: Int, padding: Int = 0) -> [UInt8] {
    let body = withUnsafeBytes(of: UInt32(index).littleEndian) { Array($0) } + [UInt8](repeating: 0xAB, count: padding)
    do {
        return try FrameEncoder().encode(Frame(typeID: 1, body: body))
    } catch {
        Issue.record(error, "a small data frame failed to encode")
        return []
    }
}

/// A frame like `numberedFrame(index)` padded to exactly `size` bytes (at least 13).
func numberedFrame(_ index: Int, size: Int) -> [UInt8] {
    var padding = max(0, size - 14)
    var frame = numberedFrame(index, padding: padding)
    while frame.count != size, padding > 0 || frame.count < size {
        padding += frame.count < size ? 1 : -1
        frame = numberedFrame(index, padding: padding)
    }
    return frame
}

/// The index `numberedFrame` wrote into a body.
func frameNumber(_ body: [UInt8]) -> Int {
    Int(body[0]) | Int(body[1]) << 8 | Int(body[2]) << 16 | Int(body[3]) << 24
}

/// A layer over `base` on a virtual clock, and its events after `peer` joined (checked).
func layerJoined(over base: any Transport, peer: ParticipantID) async -> (
    DeliveryTransport, AsyncStream<TransportEvent>.AsyncIterator
) {
    let layer = DeliveryTransport(over: base, configuration: .simulated(clock: VirtualClock(), seed: 1))
    var events = layer.events.makeAsyncIterator()
    #expect(await events.next() == .joined(peer))
    return (layer, events)
}
