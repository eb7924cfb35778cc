import Foundation

/// A small benchmark harness (thread CPU time): cases run in interleaved rounds (every case once per round,
/// so drift on a shared machine hits all of them alike), each round times a batch of
/// operations, and the result is the median nanoseconds per operation over the rounds.
struct Harness {
    struct Case {
        let name: String
        /// Runs `iterations` operations; returns a value that depends on the work done so
        /// the optimizer cannot drop it.
        let run: (Int) throws -> Int
    }

    var rounds: Int
    var targetRoundNanoseconds: Int64
    private(set) var cases: [Case] = []

    init(rounds: Int = 31, targetRoundNanoseconds: Int64 = 10_000_000) {
        self.rounds = ProcessInfo.processInfo.environment["BENCH_ROUNDS"].flatMap { Int($0) } ?? rounds
        self.targetRoundNanoseconds = targetRoundNanoseconds
    }

    /// Cases whose name contains this text run; all run when it is nil (env `BENCH_FILTER`).
    var filter: String? = ProcessInfo.processInfo.environment["BENCH_FILTER"]

    mutating func add(_ name: String, _ run: @escaping (Int) throws -> Int) {
        if let filter, !name.contains(filter) { return }
        cases.append(Case(name: name, run: run))
    }

    /// Adds a case that runs `operation` on `items` in turn, one item per operation.
    mutating func addLoop<Item>(_ name: String, over items: [Item], _ operation: @escaping (Item) throws -> Int) {
        add(name) { iterations in
            var total = 0
            for index in 0..<iterations {
                total &+= try operation(items[index % items.count])
            }
            return total
        }
    }

    /// Per-round ns per operation for every case, by name. Rounds alternate the order of
    /// the cases (forward, then backward) so neighbours see the same machine load.
    func measure() throws -> Measurements {
        // Profile mode (env `BENCH_PROFILE_ITERATIONS`, with `BENCH_FILTER`): run every case
        // that many times, untimed, for `valgrind --tool=callgrind`, whose instruction
        // counts stay stable on a loaded machine.
        if let profile = ProcessInfo.processInfo.environment["BENCH_PROFILE_ITERATIONS"].flatMap({ Int($0) }) {
            var sink = 0
            for testCase in cases {
                // One uncounted run first, so one-time costs (creating pooled contexts,
                // first touches of their memory) stay out of the per-operation count.
                sink &+= try testCase.run(1)
                sink &+= try profiledRun(testCase, iterations: profile)
                print("profiled \(testCase.name) × \(profile)")
            }
            if sink == 42 { print("") }  // keeps `sink` alive
            return Measurements(samples: [:])
        }
        var iterations: [Int] = []
        var sink = 0
        // Calibrate: enough iterations that one batch takes about the target time.
        for testCase in cases {
            var count = 1
            while true {
                let elapsed = try Self.time { sink &+= try testCase.run(count) }
                if elapsed >= targetRoundNanoseconds / 4 || count >= 1 << 24 {
                    let perOp = max(1, elapsed / Int64(count))
                    iterations.append(max(1, Int(targetRoundNanoseconds / perOp)))
                    break
                }
                count *= 4
            }
        }
        var samples = Array(repeating: [Double](), count: cases.count)
        for round in 0..<rounds {
            let order = round % 2 == 0 ? Array(cases.indices) : cases.indices.reversed()
            for index in order {
                let count = iterations[index]
                let elapsed = try Self.time { sink &+= try cases[index].run(count) }
                samples[index].append(Double(elapsed) / Double(count))
            }
        }
        if sink == 42 { print("") }  // keeps `sink` alive
        var byName: [String: [Double]] = [:]
        for (index, testCase) in cases.enumerated() {
            byName[testCase.name] = samples[index]
        }
        return Measurements(samples: byName)
    }

    /// CPU time of this thread spent in `body`, in ns. Thread CPU time rather than wall
    /// time: on a shared 2-core machine at load 7 the wall clock mostly measures waiting.
    private static func time(_ body: () throws -> Void) rethrows -> Int64 {
        let start = threadCPUNanoseconds()
        try body()
        return threadCPUNanoseconds() - start
    }

    private static func threadCPUNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

/// Runs one case in profile mode. Its own function, so that `valgrind --tool=callgrind
/// --toggle-collect='*profiledRun*' --dump-after='*profiledRun_*'` counts exactly the
/// case's loop, one dump per case (see instructions.sh).
@inline(never)
func profiledRun(_ testCase: Harness.Case, iterations: Int) throws -> Int {
    try testCase.run(iterations)
}

/// Per-round samples of each case.
struct Measurements {
    let samples: [String: [Double]]

    /// Median ns per operation of a case (NaN if it did not run).
    func median(_ name: String) -> Double {
        guard let values = samples[name]?.sorted(), !values.isEmpty else { return .nan }
        return values[values.count / 2]
    }

    /// Median over rounds of `name / baseline`, each ratio taken within one round: robust
    /// to load that changes between rounds.
    func medianRatio(_ name: String, to baseline: String) -> Double {
        guard let values = samples[name], let base = samples[baseline], values.count == base.count, !values.isEmpty
        else { return .nan }
        let ratios = zip(values, base).map { $0 / $1 }.sorted()
        return ratios[ratios.count / 2]
    }
}

/// Formats nanoseconds as ns, µs or ms with three significant digits.
func formatTime(_ ns: Double) -> String {
    if ns < 1_000 { return String(format3(ns)) + " ns" }
    if ns < 1_000_000 { return format3(ns / 1_000) + " µs" }
    return format3(ns / 1_000_000) + " ms"
}

func format3(_ value: Double) -> String {
    let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

func percent(_ part: Double, of whole: Double) -> String {
    signedPercent(part / whole)
}

/// `+12.3%` / `-4.5%` for a ratio of 1.123 / 0.955.
func signedPercent(_ ratio: Double) -> String {
    let value = (ratio - 1) * 100
    return (value >= 0 ? "+" : "") + format3(value) + "%"
}
