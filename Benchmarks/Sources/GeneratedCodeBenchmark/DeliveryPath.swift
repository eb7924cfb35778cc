import Foundation
import GroupWire
import GroupWireSession
import GroupWireTesting
import Synchronization

/// The delivery layer's cost and behaviour (`--delivery`): UpsertStrokes from one
/// messenger to another over the in-process hub, with and without `DeliveryTransport`, in
/// both modes, loss-free and lossy, side by side in one run.
///
/// Throughput is wall-clock messages per second from the first send to the last delivery:
/// the sender sends a window of 64 messages, the driver moves simulated time 1 ms (the
/// hub delivers, the layers' 10 ms timers fire on their schedule), and so on, then keeps
/// moving time until everything sent reliably has arrived. Latency is in simulated time,
/// from the send to the receiver's stream (to within the 1 ms step), so it shows the
/// layer's timers (retransmission after 100 ms, doubling) rather than this machine's speed.
enum DeliveryPath {
    struct Setup {
        let name: String
        let plan: FaultPlan
        let layer: Bool
        let mode: DeliveryMode
        /// Messages sent per simulated millisecond: 64 for throughput (as fast as the
        /// machine goes; no delay, so simulated time only paces the timers), 1 for latency
        /// at an app's pace with 1-20 ms of delay (faster, the loop outruns the layers' tasks
        /// in simulated time and the latencies it measures are its own).
        var perMillisecond = 64
    }

    /// An open-loop run in real time: the hub and every timer on the system's clock, the
    /// sender sending as fast as sends return, nobody waiting for anybody to catch up. What
    /// an app on a busy machine gets, so a retransmission storm shows.
    struct RealTimeSetup {
        let name: String
        let plan: FaultPlan
        let mode: DeliveryMode
    }

    /// What a real-time run measured.
    struct RealTimeRun {
        let messages: Int
        let delivered: Int
        let seconds: Double
        /// Copies the hub dropped (data and acknowledgements, both directions).
        let dropped: Int
        let retransmitted: Int
        let acks: Int

        var perSecond: Double { Double(delivered) / seconds }
    }

    static let realTimeSetups = [
        RealTimeSetup(name: "layer, unreliable mode, loss-free", plan: clean, mode: .unreliable),
        RealTimeSetup(name: "layer, reliable mode, loss-free", plan: clean, mode: .reliable),
        RealTimeSetup(name: "layer, reliable mode, 5% loss", plan: lossyNoDelay, mode: .reliable),
        RealTimeSetup(name: "layer, reliable mode, 5% loss + 5% dup + 10% reorder", plan: roughNoDelay, mode: .reliable),
    ]

    /// One open-loop run in real time.
    static func runInRealTime(_ setup: RealTimeSetup, messages: Int, value: UpsertStroke) async throws -> RealTimeRun {
        let hub = InProcessHub(plan: setup.plan)
        var layers: [DeliveryTransport] = []
        for number in 1...2 {
            layers.append(DeliveryTransport(over: try await hub.join(.numbered(UInt64(number))),
                                            configuration: .simulated(seed: UInt64(number))))
        }
        let sender = Messenger(transport: layers[0])
        let receiver = Messenger(transport: layers[1])
        let stream = try receiver.messages(of: UpsertStroke.self)
        let arrivals = Arrivals(messages: 0)
        let receiving = Task {
            for await _ in stream {
                if arrivals.count.add(1, ordering: .relaxed).newValue == messages { break }
            }
        }
        while sender.reachableParticipants.isEmpty || receiver.reachableParticipants.isEmpty {
            await Task.yield()
        }
        let start = Harness.now()
        let sending = Task {
            for index in 0..<messages {
                var stroke = value
                stroke.point.y = Double(index)
                try await sender.send(stroke, mode: setup.mode)
            }
        }
        // Reliable: until all arrived (at most a minute); unreliable: until half a second passes without one.
        var seen = 0
        var lastProgress = Harness.now()
        while seen < messages {
            try await Task.sleep(for: .milliseconds(2))
            let now = arrivals.count.load(ordering: .relaxed)
            if now != seen {
                seen = now
                lastProgress = Harness.now()
            }
            let idle = Harness.now() - lastProgress
            if setup.mode == .unreliable ? idle > 500_000_000 : Harness.now() - start > 60_000_000_000 { break }
        }
        let seconds = Double(Harness.now() - start) / 1e9
        sending.cancel()
        receiving.cancel()
        let dropped = await hub.statistics.dropped
        await hub.close()
        return RealTimeRun(messages: messages, delivered: arrivals.count.load(ordering: .relaxed), seconds: seconds, dropped: dropped,
                           retransmitted: layers.reduce(0) { $0 + $1.statistics.retransmitted },
                           acks: layers.reduce(0) { $0 + $1.statistics.acksSent })
    }

    /// The real-time table: open loop, medians of `rounds`, with the hub's drops beside the
    /// retransmissions and acknowledgements per delivered message.
    static func reportInRealTime(value: UpsertStroke, messages: Int, rounds: Int, label: String) async throws {
        var runs: [[RealTimeRun]] = Array(repeating: [], count: realTimeSetups.count)
        for _ in 0..<max(1, rounds) {
            for (index, setup) in realTimeSetups.enumerated() {
                let run = try await runInRealTime(setup, messages: messages, value: value)
                runs[index].append(run)
                FileHandle.standardError.write(Data("real time, \(label): \(setup.name): \(Int(run.perSecond))/s, \(run.delivered) delivered\n".utf8))
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let rates = runs.map { median($0.map(\.perSecond)) }
        print("| real time, open loop, \(label), 1 sender → 1 receiver, \(messages) UpsertStrokes, median of \(rounds) | delivered/s | vs. unreliable | delivered | dropped by the hub | retransmitted | acks per delivered |")
        print("|---|---|---|---|---|---|---|")
        for (index, setup) in realTimeSetups.enumerated() {
            let run = runs[index].sorted { $0.perSecond < $1.perSecond }[runs[index].count / 2]
            let acks = run.delivered == 0 ? 0 : Double(run.acks) / Double(run.delivered)
            print("| \(setup.name) | \(Int(rates[index])) | \(String(format: "%.2f", rates[index] / rates[0])) | \(run.delivered) | \(run.dropped) | \(run.retransmitted) | \(String(format: "%.2f", acks)) |")
        }
    }

    /// Runs `body` with one thread per core spinning beside it: a busy machine.
    static func withBusyCores<T>(_ body: () async throws -> T) async rethrows -> T {
        let spin = Spin()
        let spinners = (0..<ProcessInfo.processInfo.activeProcessorCount).map { _ in
            Thread { while !spin.stop.load(ordering: .relaxed) {} }
        }
        spinners.forEach { $0.start() }
        defer { spin.stop.store(true, ordering: .relaxed) }
        return try await body()
    }

    /// The flag the spinning threads read.
    final class Spin: Sendable {
        let stop = Atomic<Bool>(false)
    }

    struct Run {
        let setup: Setup
        let messages: Int
        let delivered: Int
        let seconds: Double
        let latencies: [Duration]
        let retransmitted: Int
        let acks: Int

        var perSecond: Double { Double(delivered) / seconds }
        func percentile(_ fraction: Double) -> Duration {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    /// Loss-free but unreliable (so the layer is active), no delay.
    static let clean = FaultPlan.unreliable(seed: 1, delay: .zero ... .zero)
    static let lossy = FaultPlan.unreliable(seed: 1, drop: 0.05, delay: .milliseconds(1) ... .milliseconds(20))
    static let rough = FaultPlan.unreliable(seed: 1, drop: 0.05, duplicate: 0.05, reorder: 0.1,
                                            delay: .milliseconds(1) ... .milliseconds(20))
    static let cleanWithDelay = FaultPlan.unreliable(seed: 1, delay: .milliseconds(1) ... .milliseconds(20))
    static let lossyNoDelay = FaultPlan.unreliable(seed: 1, drop: 0.05, delay: .zero ... .zero)
    static let roughNoDelay = FaultPlan.unreliable(seed: 1, drop: 0.05, duplicate: 0.05, reorder: 0.1, delay: .zero ... .zero)

    static let setups = [
        Setup(name: "no layer, loss-free unreliable hub", plan: clean, layer: false, mode: .unreliable),
        Setup(name: "layer, unreliable mode, loss-free", plan: clean, layer: true, mode: .unreliable),
        Setup(name: "layer, reliable mode, loss-free", plan: clean, layer: true, mode: .reliable),
        Setup(name: "layer over a reliable hub (pass-through)", plan: .reliable(), layer: true, mode: .reliable),
        Setup(name: "layer, reliable mode, 5% loss", plan: lossyNoDelay, layer: true, mode: .reliable),
        Setup(name: "layer, reliable mode, 5% loss + 5% dup + 10% reorder", plan: roughNoDelay, layer: true, mode: .reliable),
        Setup(name: "paced 1/ms: layer, reliable, loss-free, 1-20 ms delay", plan: cleanWithDelay, layer: true, mode: .reliable,
              perMillisecond: 1),
        Setup(name: "paced 1/ms: layer, reliable, 5% loss, 1-20 ms delay", plan: lossy, layer: true, mode: .reliable, perMillisecond: 1),
        Setup(name: "paced 1/ms: layer, reliable, 5% loss + 5% dup + 10% reorder", plan: rough, layer: true, mode: .reliable,
              perMillisecond: 1),
    ]

    /// Counts arrivals and records their simulated time (or send times), shared with a task.
    final class Arrivals: Sendable {
        let times: Mutex<[Duration?]>
        let count = Atomic<Int>(0)

        init(messages: Int) {
            times = Mutex([Duration?](repeating: nil, count: messages))
        }
    }

    static func run(_ setup: Setup, messages: Int, value: UpsertStroke) async throws -> Run {
        let clock = VirtualClock()
        let hub = InProcessHub(plan: setup.plan, clock: clock)
        var transports: [any Transport] = []
        var layers: [DeliveryTransport] = []
        for number in 1...2 {
            let endpoint = try await hub.join(.numbered(UInt64(number)))
            if setup.layer {
                let layer = DeliveryTransport(over: endpoint, configuration: .simulated(clock: clock, seed: UInt64(number)))
                layers.append(layer)
                transports.append(layer)
            } else {
                transports.append(endpoint)
            }
        }
        let sender = Messenger(transport: transports[0])
        let receiver = Messenger(transport: transports[1])
        let stream = try receiver.messages(of: UpsertStroke.self)
        let arrivals = Arrivals(messages: messages)
        let receiving = Task {
            for await (stroke, _) in stream {
                let index = Int(stroke.point.y)
                if index >= 0, index < messages {
                    arrivals.times.withLock { $0[index] = clock.elapsed }
                }
                if arrivals.count.add(1, ordering: .relaxed).newValue == messages { break }
            }
        }
        while sender.reachableParticipants.isEmpty || receiver.reachableParticipants.isEmpty {
            await Task.yield()
        }
        // The sender runs on its own task and paces itself on the simulated clock, since a
        // reliable send may wait for acknowledgements, which need simulated time to pass.
        let sentTimes = Arrivals(messages: messages)
        let start = Harness.now()
        let sending = Task {
            var index = 0
            while index < messages {
                for _ in 0..<setup.perMillisecond where index < messages {
                    var stroke = value
                    stroke.point.y = Double(index)
                    let at = clock.elapsed
                    sentTimes.times.withLock { $0[index] = at }
                    try await sender.send(stroke, mode: setup.mode)
                    index += 1
                }
                try await clock.sleep(until: clock.now.advanced(by: .milliseconds(1)), tolerance: nil)
            }
        }
        // Reliable: until all arrived; unreliable: until the hub is idle a while.
        let deadline = clock.elapsed + .seconds(120)
        var lastProgress = Harness.now()
        var seen = arrivals.count.load(ordering: .relaxed)
        while seen < messages, clock.elapsed < deadline {
            await hub.advance(by: .milliseconds(1))
            // Let the tasks (sender, layers, receiver) keep up with simulated time, so what is
            // measured is the protocol and not this loop outrunning them: their timers
            // would fire on frames whose acknowledgements simply have not been read yet.
            await drain(arrivals)
            let now = arrivals.count.load(ordering: .relaxed)
            if now != seen {
                seen = now
                lastProgress = Harness.now()
            } else if setup.mode == .unreliable, Harness.now() - lastProgress > 500_000_000 {
                break  // half a second of wall time without an arrival: the rest was lost
            }
        }
        let seconds = Double(Harness.now() - start) / 1e9
        sending.cancel()
        receiving.cancel()
        let sent = sentTimes.times.withLock { $0 }.map { $0 ?? .zero }
        let times = arrivals.times.withLock { $0 }
        let latencies = zip(sent, times).compactMap { sentAt, arrived in arrived.map { $0 - sentAt } }
        await hub.close()
        return Run(setup: setup, messages: messages, delivered: arrivals.count.load(ordering: .relaxed), seconds: seconds,
                   latencies: latencies, retransmitted: layers.reduce(0) { $0 + $1.statistics.retransmitted },
                   acks: layers.reduce(0) { $0 + $1.statistics.acksSent })
    }

    /// Runs every setup `rounds` times, interleaved, and prints the table with medians.
    static func report(value: UpsertStroke, messages: Int, rounds: Int) async throws {
        var runs: [[Run]] = Array(repeating: [], count: setups.count)
        for _ in 0..<max(1, rounds) {
            for (index, setup) in setups.enumerated() {
                // Paced runs take simulated seconds each: a tenth of the messages.
                let count = setup.perMillisecond == 1 ? max(100, messages / 10) : messages
                let run = try await run(setup, messages: count, value: value)
                runs[index].append(run)
                // Progress on standard error, so a slow machine shows it is working.
                FileHandle.standardError.write(Data("\(setup.name): \(Int(run.perSecond))/s, \(run.delivered) delivered\n".utf8))
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let rates = runs.map { median($0.map(\.perSecond)) }
        print("| UpsertStrokes, 1 sender → 1 receiver, median of \(rounds) | delivered/s (wall clock) | vs. layer unreliable | delivered | retransmitted | acks | p50 latency | p99 latency |")
        print("|---|---|---|---|---|---|---|---|")
        for (index, setup) in setups.enumerated() {
            let run = runs[index][runs[index].count / 2]
            let latency = setup.perMillisecond == 1
                ? (milliseconds(run.percentile(0.5)), milliseconds(run.percentile(0.99)))
                : ("—", "—")
            print("| \(setup.name) | \(Int(rates[index])) | \(String(format: "%.2f", rates[index] / rates[1])) | \(run.delivered) | \(run.retransmitted) | \(run.acks) | \(latency.0) | \(latency.1) |")
        }
        print("reliable / unreliable, loss-free: \(String(format: "%.2f", rates[2] / rates[1])) (target: at least 0.80)")
        print("")
        try await reportInRealTime(value: value, messages: messages, rounds: rounds, label: "quiet machine")
        print("")
        try await withBusyCores {
            try await reportInRealTime(value: value, messages: messages, rounds: rounds, label: "one busy loop per core beside it")
        }
    }

    /// Yields until arrivals stop changing for a few turns: the receiver has read what the
    /// hub delivered.
    static func drain(_ arrivals: Arrivals) async {
        var calm = 0
        var last = arrivals.count.load(ordering: .relaxed)
        while calm < 16 {
            await Task.yield()
            let now = arrivals.count.load(ordering: .relaxed)
            calm = now == last ? calm + 1 : 0
            last = now
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.0f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
}
