import Foundation
import GroupWire
import GroupWireSession
import GroupWireTesting

/// Fragment + reassemble throughput for 1 MiB and 16 MiB messages next to a plain memcpy
/// of the same size, measured in the same run with interleaved rounds (medians), and the
/// peak memory of the 16 MiB case. Targets (issue 5): end to end at least 20% of memcpy
/// bandwidth, peak memory at most twice the message size.
@main
struct FragmentationBenchmark {
    static let mebibyte = 1 << 20

    static let paths: [(String, @Sendable ([UInt8], UInt64) throws -> [UInt8])] = [
        ("receive(frameBytes:)", Pipeline.borrowingBodies),
        ("FrameDecoder.decode + receive(_:)", Pipeline.throughFrameDecoder),
        ("FrameStreamReader + receive(_:)", Pipeline.throughStreamReader),
    ]

    static func main() throws {
        var random = SeededRandom(seed: 0x5EED)
        switch CommandLine.arguments.dropFirst().first {
        case "profile":
            // For `perf record` / `valgrind --tool=callgrind`: the fast path alone.
            let body = randomBytes(count: 16 * mebibyte, using: &random)
            for round in 0..<20 {
                _ = try Pipeline.borrowingBodies(body, messageID: UInt64(round))
            }
        case "memory":
            try measureMemory(using: &random)
        default:
            // Memory in a fresh process with its own allocator settings (see
            // MemoryProbe.fixMmapThreshold); throughput here, with the default allocator.
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
            child.arguments = ["memory"]
            try child.run()
            child.waitUntilExit()
            try measureThroughput(using: &random)
        }
    }

    static func measureMemory(using random: inout SeededRandom) throws {
        MemoryProbe.fixMmapThreshold()
        print("## Peak memory, 16 MiB message (VmHWM, Linux, fresh process)\n")
        // Warm up with a small message so first-touched code pages do not count as peak.
        for (_, run) in paths {
            _ = try run(randomBytes(count: 200_000, using: &random), 0)
        }
        let before = MemoryProbe.residentBytes()
        let big = randomBytes(count: 16 * mebibyte, using: &random)
        for (name, run) in paths {
            MemoryProbe.resetPeak()
            let start = MemoryProbe.residentBytes()
            let output = try run(big, 1)
            let end = MemoryProbe.residentBytes()
            guard output == big else { throw Pipeline.Failure.lost("16 MiB body differs after reassembly") }
            if let before, let start, let end {
                let extra = end.peak - start.current
                let total = end.peak - before.current
                print(
                    "- \(name): peak growth while fragmenting and reassembling \(mib(extra)) MiB (\(ratio(extra, 16 * mebibyte))× message); "
                        + "including the sender's copy of the message \(mib(total)) MiB (\(ratio(total, 16 * mebibyte))× message)"
                )
            } else {
                print("- \(name): /proc/self/status not available")
            }
        }
    }

    static func measureThroughput(using random: inout SeededRandom) throws {
        let big = randomBytes(count: 16 * mebibyte, using: &random)
        print("\n## Throughput (release, median of interleaved rounds; % of memcpy = median of per-round ratios)\n")
        print("memcpy copies into a destination allocated and touched once; \"fresh alloc + memcpy\" allocates the")
        print("destination each round, as a receiver must for every new message (the allocator may reuse freed memory).\n")
        print(
            "| message | memcpy | fresh alloc + memcpy | " + paths.map { "\($0.0) | % of memcpy" }.joined(separator: " | ") + " |"
        )
        print("|---|---|---|" + String(repeating: "---|---|", count: paths.count))
        for (size, rounds) in [(mebibyte, 61), (16 * mebibyte, 31)] {
            let body = size == big.count ? big : randomBytes(count: size, using: &random)
            var destination = [UInt8](repeating: 0, count: size)
            var copy: [Duration] = []
            var freshCopy: [Duration] = []
            var times = [[Duration]](repeating: [], count: paths.count)
            let clock = ContinuousClock()
            // Operation 0 is memcpy, 1 is allocate + memcpy, 2... are the paths. The order
            // rotates every round so that each operation follows each other one equally often
            // (what the previous one left in the caches matters at these sizes).
            let operations = 2 + paths.count
            for round in 0..<rounds {
                for step in 0..<operations {
                    switch (step + round) % operations {
                    case 0:
                        copy.append(
                            clock.measure {
                                destination.withUnsafeMutableBytes { target in
                                    body.withUnsafeBytes { source in target.copyMemory(from: source) }
                                }
                            })
                    case 1:
                        freshCopy.append(
                            clock.measure {
                                let fresh = [UInt8](unsafeUninitializedCapacity: size) { target, initialized in
                                    body.withUnsafeBytes { source in
                                        UnsafeMutableRawBufferPointer(target).copyMemory(from: source)
                                    }
                                    initialized = size
                                }
                                blackHole(fresh)
                            })
                    case let operation:
                        let (name, path) = paths[operation - 2]
                        var output: [UInt8] = []
                        times[operation - 2].append(try clock.measure { output = try path(body, UInt64(round)) })
                        if round == 0, output != body { throw Pipeline.Failure.lost("\(name): body differs after reassembly") }
                    }
                }
            }
            guard destination == body else { throw Pipeline.Failure.lost("memcpy destination differs") }
            let copyRate = rate(size, median(copy))
            let cells = times.map { samples in
                let pathRate = rate(size, median(samples))
                // Each round's path time against the same round's memcpy time: on a shared
                // machine this cancels the slow stretches that hit both alike.
                let ratios = zip(copy, samples).map { seconds($0) / seconds($1) }.sorted()
                return "\(format(pathRate)) GB/s | \(format(100 * ratios[ratios.count / 2]))%"
            }
            print(
                "| \(size / mebibyte) MiB | \(format(copyRate)) GB/s | \(format(rate(size, median(freshCopy)))) GB/s | "
                    + cells.joined(separator: " | ") + " |")
        }
        print("\n## Where the time goes, 16 MiB (median of 11 interleaved rounds)\n")
        let clock = ContinuousClock()
        let stages: [(String, ([UInt8], UInt64) throws -> Int)] = [
            ("fragment + encode frames (copy + CRC32C)", Pipeline.fragmentOnly),
            ("fragment + encode + decode frames (+ CRC32C + body copy)", Pipeline.fragmentAndDecode),
            ("fragment + encode + decode + reassemble", { try Pipeline.throughFrameDecoder($0, messageID: $1).count }),
            (
                "fragment + encode + reassemble from frame bytes (fast path)",
                { try Pipeline.borrowingBodies($0, messageID: $1).count }
            ),
        ]
        var times = [[Duration]](repeating: [], count: stages.count)
        for round in 0..<11 {
            for (number, stage) in stages.enumerated() {
                times[number].append(try clock.measure { _ = try stage.1(big, UInt64(round)) })
            }
        }
        for (number, stage) in stages.enumerated() {
            print("- \(stage.0): \(format(rate(big.count, median(times[number])))) GB/s")
        }
        print("\nCRC32C hardware path: \(CRC32C.usesHardware)")
    }

    static func randomBytes(count: Int, using random: inout SeededRandom) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            for offset in stride(from: 0, to: count - 7, by: 8) {
                raw.storeBytes(of: random.next(), toByteOffset: offset, as: UInt64.self)
            }
        }
        return bytes
    }

    /// Keeps the optimizer from dropping a value it thinks unused.
    @inline(never)
    static func blackHole(_ value: [UInt8]) {
        if value.count == -1 { print(value) }
    }

    static func median(_ values: [Duration]) -> Duration {
        values.sorted()[values.count / 2]
    }

    /// Gigabytes (10^9 bytes) per second.
    static func rate(_ bytes: Int, _ duration: Duration) -> Double {
        Double(bytes) / seconds(duration) / 1e9
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) * 1e-18
    }

    static func format(_ value: Double) -> String {
        String(Double(Int((value * 100).rounded())) / 100)
    }

    static func mib(_ bytes: Int) -> String {
        format(Double(bytes) / Double(1 << 20))
    }

    static func ratio(_ bytes: Int, _ size: Int) -> String {
        format(Double(bytes) / Double(size))
    }
}
