import CAllocationCounter
import GroupWireTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One measured operation: a codec encoding or decoding one message.
struct BenchmarkCase {
    /// `UpsertStroke`, `CanvasSnapshot`, `PlaybackState`.
    let message: String
    /// `GroupWire`, `swift-protobuf`, `JSON`.
    let codec: String
    /// `encode` or `decode`.
    let operation: String
    /// Runs the operation `iterations` times and returns a value derived from the results,
    /// so the optimizer cannot drop the work. Sums of these use wrapping `&+` throughout:
    /// safe because the value is only a checksum, overflow is meaningless and must not trap.
    let body: (Int) -> Int
}

/// The result for one case: median nanoseconds per operation and allocations per operation.
struct Measurement {
    let benchmark: BenchmarkCase
    let medianNanoseconds: Double
    let minimumNanoseconds: Double
    let allocationsPerOperation: Double?
}

/// Interleaved rounds: every round runs every case once (in a shuffled order), so slow
/// phases of a shared machine hit all codecs alike; the median over rounds is reported.
struct Harness {
    var rounds: Int
    /// Each sample runs about this long.
    var sampleNanoseconds: UInt64 = 3_000_000

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Iterations per sample so one sample takes about ``sampleNanoseconds``.
    func calibrate(_ benchmark: BenchmarkCase, sink: inout Int) -> Int {
        var iterations = 1
        while true {
            let start = Self.now()
            sink &+= benchmark.body(iterations)
            let elapsed = Self.now() - start
            if elapsed >= sampleNanoseconds / 4 || iterations >= 1 << 24 {
                let perOperation = max(1, elapsed / UInt64(iterations))
                return max(1, Int(sampleNanoseconds / perOperation))
            }
            iterations *= 4
        }
    }

    func run(_ cases: [BenchmarkCase]) -> (measurements: [Measurement], sink: Int) {
        var sink = 0
        let iterations = cases.map { calibrate($0, sink: &sink) }
        var samples = [[Double]](repeating: [], count: cases.count)
        var random = SeededRandom(seed: 42)
        for _ in 0..<rounds {
            for index in Array(cases.indices).shuffled(using: &random) {
                let start = Self.now()
                sink &+= cases[index].body(iterations[index])
                let elapsed = Self.now() - start
                samples[index].append(Double(elapsed) / Double(iterations[index]))
            }
        }
        var measurements: [Measurement] = []
        for (index, benchmark) in cases.enumerated() {
            let sorted = samples[index].sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            measurements.append(
                Measurement(
                    benchmark: benchmark, medianNanoseconds: median, minimumNanoseconds: sorted.first ?? 0,
                    allocationsPerOperation: allocations(benchmark, sink: &sink)))
        }
        return (measurements, sink)
    }

    /// Heap allocations per operation, counted over a few runs after warming up.
    func allocations(_ benchmark: BenchmarkCase, sink: inout Int) -> Double? {
        guard gw_allocation_count() >= 0 else { return nil }
        sink &+= benchmark.body(2)
        let runs = 16
        let before = gw_allocation_count()
        sink &+= benchmark.body(runs)
        let after = gw_allocation_count()
        return Double(after - before) / Double(runs)
    }
}

/// Runs one case in profile mode. Its own function, so that callgrind's
/// `--toggle-collect='*profiledRun*'` counts exactly the case's loop.
@inline(never)
func profiledRun(_ testCase: BenchmarkCase, iterations: Int) -> Int {
    testCase.body(iterations)
}
