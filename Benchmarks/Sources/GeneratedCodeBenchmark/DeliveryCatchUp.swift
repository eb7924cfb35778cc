import Foundation
import GroupWire
import GroupWireSession
import GroupWireTesting

/// A late joiner's catch-up over the delivery layer (`--delivery`, after the tables): one
/// canvas snapshot, fragmented into frames near the hub's 64 KiB limit, sent reliably on a
/// fresh stream (new layers each run, as a participant that just joined has), timed from
/// the send to the receiver's stream. A fresh stream starts with the initial congestion
/// window (12,000 bytes), which holds one such frame; what the receiver acknowledges when
/// decides how many round trips the snapshot takes.
extension DeliveryPath {
    struct CatchUp {
        let name: String
        let plan: FaultPlan
        var layer = true
    }

    static let catchUps = [
        CatchUp(name: "no layer, 1 ms each way", plan: .reliable(delay: .milliseconds(1) ... .milliseconds(1)), layer: false),
        CatchUp(
            name: "layer, reliable mode, loss-free, 1 ms each way",
            plan: .unreliable(seed: 1, delay: .milliseconds(1) ... .milliseconds(1))),
        CatchUp(name: "layer, reliable mode, loss-free, no delay", plan: .unreliable(seed: 1, delay: .zero ... .zero)),
    ]

    /// What one catch-up took.
    struct CatchUpRun {
        let latency: Duration
        let frames: Int
        let acks: Int
    }

    static func catchUp(_ setup: CatchUp, snapshot: CanvasSnapshot) async throws -> CatchUpRun {
        let (hub, layers, sender, receiver) = try await pair(plan: setup.plan, layer: setup.layer)
        let stream = try receiver.messages(of: CanvasSnapshot.self)
        while sender.reachableParticipants.isEmpty || receiver.reachableParticipants.isEmpty {
            await Task.yield()
        }
        let clock = ContinuousClock()
        let start = clock.now
        try await sender.send(snapshot)
        var arrived: Duration?
        for await (received, _) in stream {
            guard received.pointCount == snapshot.pointCount else { continue }
            arrived = clock.now - start
            break
        }
        let statistics = layers.map(\.statistics)
        await hub.close()
        guard let arrived else { throw CatchUpError(description: "\(setup.name): the snapshot never arrived") }
        return CatchUpRun(
            latency: arrived, frames: statistics.first?.framesSent ?? 0, acks: statistics.reduce(0) { $0 + $1.acksSent })
    }

    struct CatchUpError: Error, CustomStringConvertible {
        let description: String
    }

    /// `runs` catch-ups per row, interleaved; the median and the slowest.
    static func catchUpTable(snapshot: CanvasSnapshot, runs: Int) async throws {
        let size = snapshot.wirePayload().count
        var results: [[CatchUpRun]] = Array(repeating: [], count: catchUps.count)
        for _ in 0..<runs {
            for (index, setup) in catchUps.enumerated() {
                results[index].append(try await catchUp(setup, snapshot: snapshot))
            }
        }
        print("")
        print(
            "| catch-up: one \(size)-byte canvas snapshot on a fresh stream, \(runs) runs | frames | acks | median latency | slowest |"
        )
        print("|---|---|---|---|---|")
        for (index, setup) in catchUps.enumerated() {
            let sorted = results[index].sorted { $0.latency < $1.latency }
            let middle = sorted[sorted.count / 2]
            print(
                "| \(setup.name) | \(middle.frames) | \(middle.acks) | \(milliseconds(middle.latency)) | \(milliseconds(sorted[sorted.count - 1].latency)) |"
            )
        }
    }
}
