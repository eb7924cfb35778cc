import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One operation to time: `body` runs it once and returns something derived from its result,
/// which the harness keeps so the optimiser cannot drop the work.
struct BenchmarkOperation {
    let name: String
    let body: () throws -> Int
}

/// A minimal benchmark harness: every operation is calibrated to a batch that takes about
/// `targetBatchNanoseconds`, then the operations run in interleaved rounds (A B C, A B C, …)
/// so that drift on a shared machine hits them all alike, and each reports the median
/// nanoseconds per operation over its rounds.
///
/// Time is the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), not wall time: on a machine
/// shared by several builds, wall time mostly measures when the scheduler ran us. Batches
/// are short and rounds many, so each operation samples the same mix of cache and
/// frequency states as the others.
struct Harness {
    /// Rounds per operation; the median of these is reported.
    var rounds: Int
    /// Aim for batches this long, so the clock's resolution does not matter.
    var targetBatchNanoseconds: UInt64

    /// Checksum of every result, printed at the end so no work is optimised away.
    private(set) var sink = 0

    init(rounds: Int = 31, targetBatchNanoseconds: UInt64 = 2_000_000) {
        self.rounds = rounds
        self.targetBatchNanoseconds = targetBatchNanoseconds
    }

    /// Median nanoseconds per operation, by name.
    mutating func measure(_ operations: [BenchmarkOperation]) throws -> [String: Double] {
        var batches: [Int] = []
        for operation in operations {
            batches.append(try calibrate(operation))
        }
        var samples = Array(repeating: [Double](), count: operations.count)
        for _ in 0..<rounds {
            for (index, operation) in operations.enumerated() {
                let start = Harness.now()
                for _ in 0..<batches[index] {
                    sink &+= try operation.body()  // safe because: a checksum, wrapping is fine.
                }
                let elapsed = Harness.now() - start
                samples[index].append(Double(elapsed) / Double(batches[index]))
            }
        }
        var result: [String: Double] = [:]
        for (index, operation) in operations.enumerated() {
            result[operation.name] = Harness.median(samples[index])
        }
        return result
    }

    /// How many runs make one batch of about ``targetBatchNanoseconds``.
    private mutating func calibrate(_ operation: BenchmarkOperation) throws -> Int {
        var count = 1
        while true {
            let start = Harness.now()
            for _ in 0..<count {
                sink &+= try operation.body()  // safe because: a checksum, wrapping is fine.
            }
            let elapsed = Harness.now() - start
            if elapsed >= targetBatchNanoseconds / 4 || count >= 1 << 24 {
                let perRun = max(Double(elapsed) / Double(count), 1)
                return max(1, Int(Double(targetBatchNanoseconds) / perRun))
            }
            count *= 4
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// This thread's CPU time in nanoseconds.
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

/// Renders rows as a Markdown table with right-aligned numeric columns.
struct Table {
    let headers: [String]
    var rows: [[String]] = []

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    func render() -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        var text = line(headers) + "\n"
        text +=
            "|"
            + widths.enumerated().map { index, width in
                index == 0
                    ? " " + String(repeating: "-", count: width) + " " : " " + String(repeating: "-", count: width - 1) + ": "
            }.joined(separator: "|") + "|\n"
        for row in rows {
            text += line(row) + "\n"
        }
        return text
    }
}

/// Formats nanoseconds as ns, µs or ms with three significant digits.
func formatNanoseconds(_ value: Double) -> String {
    if value >= 1_000_000 { return String(format: "%.2f ms", value / 1_000_000) }
    if value >= 1_000 { return String(format: "%.2f µs", value / 1_000) }
    return String(format: "%.0f ns", value)
}

/// A benchmark suite: runs its operations on the harness and prints its own table.
protocol BenchmarkSuite {
    /// The name `--suite` selects it by.
    static var name: String { get }
    /// Runs the suite and prints its results.
    static func run(harness: inout Harness) throws
}
