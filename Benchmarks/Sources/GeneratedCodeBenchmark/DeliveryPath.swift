import CAllocationCounter
import Foundation
import GroupWire
import GroupWireSession
import GroupWireTesting
import Synchronization

/// The delivery layer's cost and behaviour (`--delivery`): UpsertStrokes from one
/// messenger to another over the in-process hub, with and without `DeliveryTransport`, in
/// both modes, loss-free and lossy, side by side in one run, first on a quiet machine, then
/// with one spinning thread per core beside it.
///
/// Everything runs in real time, open loop: the hub and every timer on the system's clock,
/// the sender sending as fast as its sends return (or at one message per millisecond for
/// latency), nobody waiting for anybody to catch up, so a retransmission storm shows. The
/// table puts the copies the hub dropped (data and acknowledgements) beside the frames sent
/// again and the losses that turned out spurious, and acknowledgements per delivered message.
/// Each row is also compared with the unreliable one round by round (the median and range
/// of those ratios), in throughput and in CPU time per delivered message, the process's
/// less the busy loops': the machine's pace drifts between rounds by more than the
/// differences the issue's targets are about, and CPU time does not count the waits.
enum DeliveryPath {
    struct Setup {
        let name: String
        let plan: FaultPlan
        /// Without the delivery layer: the messengers straight on the hub.
        var layer = true
        let mode: DeliveryMode
        /// One message per millisecond (latency), else as fast as sends return.
        var paced = false
        /// Runs of this row in each round, back to back with the other rows that run as
        /// often (``lossFreeRuns`` for the loss-free open-loop rows, else 1).
        var runsPerRound = 1
    }

    /// Runs per round of the three loss-free open-loop rows. The 0.9 target compares two of
    /// them, runs of a fifth of a second whose ratio within one round spans 0.5–1.4 on a
    /// shared 2-core machine (Benchmarks/README.md): five ratios cannot tell 0.8 from 0.9,
    /// fifteen come closer, for about ten seconds more per table.
    static let lossFreeRuns = 3

    /// What one run measured.
    struct Run {
        let messages: Int
        let delivered: Int
        let seconds: Double
        /// Copies the hub dropped (data and acknowledgements, both directions).
        let dropped: Int
        let retransmitted: Int
        let spurious: Int
        let lost: Int
        let probes: Int
        let congestionEvents: Int
        let acks: Int
        /// CPU time this process spent from the first send until the run ended, less what
        /// the busy loops spent: the work of the messengers, the layers, the hub and the
        /// tasks' wake-ups, whatever the scheduler did with the wall clock meanwhile.
        let cpuSeconds: Double
        /// Heap allocations in this process over the same span (the busy loops make none).
        let allocations: Int
        /// From the send to the receiver's stream, for each message that arrived.
        let latencies: [Duration]

        var perSecond: Double { Double(delivered) / seconds }
        /// CPU microseconds per delivered message.
        var cpuPerMessage: Double { delivered == 0 ? 0 : cpuSeconds * 1e6 / Double(delivered) }
        /// Heap allocations per delivered message (0 where they are not counted).
        var allocationsPerMessage: Double { delivered == 0 ? 0 : Double(allocations) / Double(delivered) }

        func percentile(_ fraction: Double) -> Duration {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    /// Loss-free but unreliable (so the layer is active), no delay.
    static let clean = FaultPlan.unreliable(seed: 1, delay: .zero ... .zero)
    static let lossy = FaultPlan.unreliable(seed: 1, drop: 0.05, delay: .zero ... .zero)
    static let rough = FaultPlan.unreliable(seed: 1, drop: 0.05, duplicate: 0.05, reorder: 0.1, delay: .zero ... .zero)
    static let cleanWithDelay = FaultPlan.unreliable(seed: 1, delay: .milliseconds(1) ... .milliseconds(20))
    static let lossyWithDelay = FaultPlan.unreliable(seed: 1, drop: 0.05, delay: .milliseconds(1) ... .milliseconds(20))
    static let roughWithDelay = FaultPlan.unreliable(
        seed: 1, drop: 0.05, duplicate: 0.05, reorder: 0.1,
        delay: .milliseconds(1) ... .milliseconds(20))

    static let setups = [
        Setup(
            name: "no layer, loss-free unreliable hub", plan: clean, layer: false, mode: .unreliable, runsPerRound: lossFreeRuns),
        Setup(name: "layer, unreliable mode, loss-free", plan: clean, mode: .unreliable, runsPerRound: lossFreeRuns),
        Setup(name: "layer, reliable mode, loss-free", plan: clean, mode: .reliable, runsPerRound: lossFreeRuns),
        Setup(name: "layer over a reliable hub (pass-through)", plan: .reliable(), mode: .reliable),
        Setup(name: "layer, reliable mode, 5% loss", plan: lossy, mode: .reliable),
        Setup(name: "layer, reliable mode, 5% loss + 5% dup + 10% reorder", plan: rough, mode: .reliable),
        Setup(name: "paced 1/ms: reliable, loss-free, 1-20 ms delay", plan: cleanWithDelay, mode: .reliable, paced: true),
        Setup(name: "paced 1/ms: reliable, 5% loss, 1-20 ms delay", plan: lossyWithDelay, mode: .reliable, paced: true),
        Setup(
            name: "paced 1/ms: reliable, 5% loss + 5% dup + 10% reorder, 1-20 ms delay", plan: roughWithDelay, mode: .reliable,
            paced: true),
    ]

    /// Counts arrivals and records when each arrived and was sent, shared with the tasks.
    final class Arrivals: Sendable {
        let count = Atomic<Int>(0)
        let sent: Mutex<[UInt64]>
        let arrived: Mutex<[UInt64]>

        init(messages: Int) {
            sent = Mutex([UInt64](repeating: 0, count: messages))
            arrived = Mutex([UInt64](repeating: 0, count: messages))
        }
    }

    /// One run in real time.
    static func run(_ setup: Setup, messages: Int, value: UpsertStroke) async throws -> Run {
        let (hub, layers, sender, receiver) = try await pair(plan: setup.plan, layer: setup.layer)
        let stream = try receiver.messages(of: UpsertStroke.self)
        let arrivals = Arrivals(messages: messages)
        let receiving = Task {
            for await (stroke, _) in stream {
                let index = Int(stroke.point.y)
                if index >= 0, index < messages {
                    let now = Harness.now()
                    arrivals.arrived.withLock { $0[index] = now }
                }
                if arrivals.count.add(1, ordering: .relaxed).newValue == messages { break }
            }
        }
        while sender.reachableParticipants.isEmpty || receiver.reachableParticipants.isEmpty {
            await Task.yield()
        }
        let start = Harness.now()
        let cpuStart = CPUTime.process() - Spin.current.withLock { $0 }.cpuSeconds
        let allocationsStart = gw_allocation_count()
        let paced = setup.paced
        let sending = Task {
            let clock = ContinuousClock()
            let begin = clock.now
            for index in 0..<messages {
                if paced { try await clock.sleep(until: begin + .milliseconds(index), tolerance: .zero) }
                var stroke = value
                stroke.point.y = Double(index)
                let now = Harness.now()
                arrivals.sent.withLock { $0[index] = now }
                try await sender.send(stroke, mode: setup.mode)
            }
        }
        // Reliable: until all arrived (at most a minute); unreliable: until half a second
        // passes without an arrival.
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
        let cpuSeconds = CPUTime.process() - Spin.current.withLock { $0 }.cpuSeconds - cpuStart
        let allocations = allocationsStart < 0 ? 0 : gw_allocation_count() - allocationsStart
        sending.cancel()
        receiving.cancel()
        let dropped = await hub.statistics.dropped
        await hub.close()
        let sent = arrivals.sent.withLock { $0 }
        let arrived = arrivals.arrived.withLock { $0 }
        let latencies = zip(sent, arrived).compactMap { sentAt, arrivedAt in
            arrivedAt == 0 ? nil : Duration.nanoseconds(Int64(arrivedAt) - Int64(sentAt))
        }
        let statistics = layers.map(\.statistics)
        return Run(
            messages: messages, delivered: arrivals.count.load(ordering: .relaxed), seconds: seconds, dropped: dropped,
            retransmitted: statistics.reduce(0) { $0 + $1.retransmitted },
            spurious: statistics.reduce(0) { $0 + $1.spuriousLosses },
            lost: statistics.reduce(0) { $0 + $1.framesLost }, probes: statistics.reduce(0) { $0 + $1.probeTimeouts },
            congestionEvents: statistics.reduce(0) { $0 + $1.congestionEvents },
            acks: statistics.reduce(0) { $0 + $1.acksSent }, cpuSeconds: cpuSeconds, allocations: allocations,
            latencies: latencies)
    }

    /// A hub on `plan` with two messengers on it, each over a delivery layer when `layer`.
    static func pair(plan: FaultPlan, layer: Bool) async throws -> (
        hub: InProcessHub, layers: [DeliveryTransport], sender: Messenger, receiver: Messenger
    ) {
        let hub = InProcessHub(plan: plan)
        var transports: [any Transport] = []
        var layers: [DeliveryTransport] = []
        for number in 1...2 {
            let endpoint = try await hub.join(.numbered(UInt64(number)))
            if layer {
                let delivery = DeliveryTransport(over: endpoint, configuration: .simulated(seed: UInt64(number)))
                layers.append(delivery)
                transports.append(delivery)
            } else {
                transports.append(endpoint)
            }
        }
        return (hub, layers, Messenger(transport: transports[0]), Messenger(transport: transports[1]))
    }

    /// One table: every setup `rounds` times, interleaved, medians.
    static func table(value: UpsertStroke, messages: Int, rounds: Int, label: String, rows: String?) async throws {
        // The unreliable row stays: the others are compared with it.
        let setups =
            rows.map { text in Self.setups.enumerated().filter { $0.offset == 1 || $0.element.name.contains(text) }.map(\.element)
            }
            ?? Self.setups
        // Each row's runs, by round.
        var rounded: [[[Run]]] = Array(repeating: [], count: setups.count)
        for _ in 0..<max(1, rounds) {
            for index in setups.indices { rounded[index].append([]) }
            // The rows that run more than once a round go first, as many times, their runs
            // interleaved; then the others once each.
            let repeated = setups.indices.filter { setups[$0].runsPerRound > 1 }
            let passes =
                (0..<(setups.map(\.runsPerRound).max() ?? 1)).map { pass in repeated.filter { pass < setups[$0].runsPerRound } }
                + [setups.indices.filter { setups[$0].runsPerRound <= 1 }]
            for index in passes.joined() {
                let setup = setups[index]
                // Paced runs take a second per thousand messages: a tenth of them.
                let count = setup.paced ? max(100, messages / 10) : messages
                let run = try await run(setup, messages: count, value: value)
                rounded[index][rounded[index].count - 1].append(run)
                // Progress on standard error, so a slow machine shows it is working.
                FileHandle.standardError.write(
                    Data(
                        "\(label): \(setup.name): \(Int(run.perSecond))/s, \(run.delivered) delivered, \(run.dropped) dropped, \(run.retransmitted) retransmitted (\(run.lost) declared lost, \(run.spurious) spurious, \(run.probes) probes, \(run.congestionEvents) congestion events)\n"
                            .utf8))
            }
        }
        let runs = rounded.map { Array($0.joined()) }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let rates = runs.map { median($0.map(\.perSecond)) }
        let unreliableIndex = setups.firstIndex { $0.name == Self.setups[1].name } ?? 0
        // Ratios are taken within each round, between runs minutes apart at most, and the
        // median of those is reported: the machine's pace drifts between rounds by more
        // than the differences measured, and a ratio of medians mixes rounds. Rows that run
        // as often pair run for run (the runs of one pass are seconds apart); a row that runs
        // once pairs with the other row's last run of that round, the nearest in time.
        func pairedRatio(_ index: Int, to base: Int, _ value: (Run) -> Double) -> (median: Double, low: Double, high: Double) {
            let ratios = zip(rounded[index], rounded[base]).flatMap { own, other in
                let pairs = own.count == other.count ? Array(zip(own, other)) : own.map { ($0, other[other.count - 1]) }
                return pairs.map { value($0) / max(value($1), 1e-12) }
            }.sorted()
            return (ratios[ratios.count / 2], ratios[0], ratios[ratios.count - 1])
        }
        func format(_ ratio: (median: Double, low: Double, high: Double)) -> String {
            String(format: "%.2f (%.2f–%.2f)", ratio.median, ratio.low, ratio.high)
        }
        print(
            "| \(label), 1 sender → 1 receiver, \(messages) UpsertStrokes (paced: \(max(100, messages / 10))), median of \(rounds) rounds (loss-free open-loop rows: \(Self.lossFreeRuns) runs a round) | delivered/s | vs. layer unreliable, per round | CPU µs per delivered | vs. layer unreliable, per round | allocations per delivered | delivered | dropped by the hub | retransmitted | per drop | spurious losses | acks per delivered | p50 latency | p99 latency (each round's, lowest–highest) |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for (index, setup) in setups.enumerated() {
            let run = runs[index].sorted { $0.perSecond < $1.perSecond }[runs[index].count / 2]
            let acks = run.delivered == 0 ? 0 : Double(run.acks) / Double(run.delivered)
            let perDrop =
                run.dropped == 0
                ? (run.retransmitted == 0 ? "—" : "∞") : String(format: "%.2f", Double(run.retransmitted) / Double(run.dropped))
            // The tail is what a round's rare events make it (a frame lost twice or more), so
            // every round's p99 is shown, not only the median run's.
            let tails = runs[index].map { $0.percentile(0.99) }
            let latency =
                setup.paced
                ? (
                    milliseconds(run.percentile(0.5)),
                    "\(milliseconds(run.percentile(0.99))) (\(milliseconds(tails.min() ?? .zero))–\(milliseconds(tails.max() ?? .zero)))"
                ) : ("—", "—")
            let cpu = median(runs[index].map(\.cpuPerMessage))
            let allocations = median(runs[index].map(\.allocationsPerMessage))
            print(
                "| \(setup.name) | \(Int(rates[index])) | \(format(pairedRatio(index, to: unreliableIndex, \.perSecond))) | \(String(format: "%.2f", cpu)) | \(format(pairedRatio(index, to: unreliableIndex, \.cpuPerMessage))) | \(String(format: "%.1f", allocations)) | \(run.delivered) | \(run.dropped) | \(run.retransmitted) | \(perDrop) | \(run.spurious) | \(String(format: "%.2f", acks)) | \(latency.0) | \(latency.1) |"
            )
        }
        if setups.count == Self.setups.count {
            print(
                "per round, median (range): reliable loss-free / unreliable loss-free \(format(pairedRatio(2, to: 1, \.perSecond))) (target: at least 0.90), CPU per message \(format(pairedRatio(2, to: 1, \.cpuPerMessage))); 5% loss / loss-free \(format(pairedRatio(4, to: 2, \.perSecond))) (target: at least 0.80), CPU per message \(format(pairedRatio(4, to: 2, \.cpuPerMessage)))"
            )
        }
    }

    /// The quiet table and the busy one.
    /// `rows`: only the rows whose name contains it (and the unreliable one).
    static func report(value: UpsertStroke, messages: Int, rounds: Int, rows: String? = nil) async throws {
        try await table(value: value, messages: messages, rounds: rounds, label: "quiet machine", rows: rows)
        print("")
        try await withBusyCores {
            try await table(
                value: value, messages: messages, rounds: rounds, label: "one busy loop per core beside it", rows: rows)
        }
    }

    /// Runs `body` with one thread per core spinning beside it: a busy machine.
    /// Each spinning thread publishes its own CPU time every 2^16 turns, so a run can take
    /// the busy loops' share out of the process's CPU time.
    static func withBusyCores<T>(_ body: () async throws -> T) async rethrows -> T {
        let spin = Spin()
        Spin.current.withLock { $0 = spin }
        let spinners = (0..<ProcessInfo.processInfo.activeProcessorCount).map { index in
            Thread {
                var turns: UInt32 = 0
                while !spin.stop.load(ordering: .relaxed) {
                    turns &+= 1
                    if turns & 0xFFFF == 0 { spin.publish(index) }
                }
                spin.publish(index)
            }
        }
        spinners.forEach { $0.start() }
        defer {
            spin.stop.store(true, ordering: .relaxed)
            Spin.current.withLock { $0 = Spin() }
        }
        return try await body()
    }

    /// The flag the spinning threads read, and the CPU time each spent so far (ns).
    final class Spin: Sendable {
        let stop = Atomic<Bool>(false)
        private let spent = Mutex([Int](repeating: 0, count: ProcessInfo.processInfo.activeProcessorCount))

        /// Called by loop `index` on its own thread.
        func publish(_ index: Int) {
            let time = CPUTime.thread()
            spent.withLock { $0[index] = time }
        }

        /// The busy loops' CPU seconds so far.
        var cpuSeconds: Double { Double(spent.withLock { $0.reduce(0, +) }) / 1e9 }

        /// The loops running now (none: a set that never spins).
        static let current = Mutex(Spin())
    }

    /// CPU time from the kernel's clocks.
    enum CPUTime {
        /// The whole process's, in seconds.
        static func process() -> Double { seconds(CLOCK_PROCESS_CPUTIME_ID) }

        /// The calling thread's, in nanoseconds.
        static func thread() -> Int {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return time.tv_sec * 1_000_000_000 + time.tv_nsec
        }

        private static func seconds(_ clock: clockid_t) -> Double {
            var time = timespec()
            clock_gettime(clock, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
}
