// groupwire validate's throughput in MB of capture per second on one core, beside tshark
// reading the same capture with the dissector generated from the same spec, for
// small-message traffic (strokes) and for compressed snapshots in fragments; and its peak
// memory on a large capture, which must stay flat however large the capture is.
//   swift run -c release ValidateBenchmark [--megabytes N] [--rounds N] [--big MEGABYTES]
// The validator runs in a child process (`--validate PATH`), so its time and peak RSS are
// its own; tshark runs with `-T fields -e groupwire.type` (every packet dissected, one
// field printed) to /dev/null. Both read the file from the page cache (a warm-up read first).

import Foundation
import GroupWire
import GroupWireCapture
import GroupWireCodegen
import GroupWireCompression
import GroupWireInspection
import GroupWireSession
import GroupWireSpec

#if canImport(Glibc)
    import Glibc
#endif

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let specPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "../../../Spec/Examples/DrawTogether.gwspec"
)
.standardized.path

func loadSpec() throws -> SpecSet {
    let compilation = try SpecCompiler().compile(entry: specPath, loader: FileSpecLoader())
    return try compilation.checkedSpec()
}

// MARK: The validator child

if CommandLine.arguments.dropFirst().first == "--validate", CommandLine.arguments.count >= 3 {
    let stream = try FrameFileStream(path: CommandLine.arguments[2])
    var validator = CaptureValidator(specs: [try loadSpec()])
    try validator.check(contentsOf: stream) { _ in }
    _ = validator.finish()
    let summary = validator.summary
    // The peak of this process's own memory: VmHWM (ru_maxrss keeps the parent's peak across exec).
    var peak = 0
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    {
        peak = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    } else {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        peak = Int(usage.ru_maxrss)
    }
    print("frames \(summary.frames) messages \(summary.messages) problems \(summary.problems) maxrss \(peak)")
    exit(summary.problems == 0 ? 0 : 1)
}

// MARK: Captures

let ana = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0xA1))  // 00000000-0000-4000-8000-0000000000A1
let ben = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0xB2))  // 00000000-0000-4000-8000-0000000000B2

/// An UpsertStroke payload (Spec/FORMAT.md's example shape) with point `index`.
func strokePayload(_ index: Int) -> [UInt8] {
    var writer = PayloadWriter()
    withUnsafeBytes(of: UUID().uuid) { writer.writeBytes(1, Array($0)) }
    writer.writeUInt(2, UInt64(index % 5))
    var point = PayloadWriter()
    point.writeDouble(1, Double(index % 1000) * 0.25)
    point.writeDouble(2, Double(index % 777) * 0.5)
    writer.writeBytes(3, point.bytes)
    return writer.bytes
}

/// Writes records to `path` until it holds `bytes` bytes.
func writeCapture(_ path: String, bytes target: Int, records: (Int) throws -> [CaptureRecord]) throws -> Int {
    let writer = try CaptureWriter(path: path)
    var written = 0
    var index = 0
    var count = 0
    while written < target {
        for record in try records(index) {
            writer.write(record)
            written += record.packetData.count + 32
            count += 1
        }
        index += 1
    }
    writer.close()
    return count
}

func strokeCapture(_ path: String, megabytes: Int) throws -> Int {
    let encoder = FrameEncoder()
    return try writeCapture(path, bytes: megabytes << 20) { index in
        let frame = try encoder.encode(Frame(kind: .data, typeID: 1, session: 7, body: strokePayload(index)))
        return [
            CaptureRecord(
                timestamp: 1_764_000_000_000_000_000 + UInt64(index) * 1000, direction: .received, sessionID: 7,
                local: ben, peer: ana, room: "canvas", frame: frame)
        ]
    }
}

func snapshotCapture(_ path: String, megabytes: Int) throws -> Int {
    // A canvas of 200 strokes of 200 points at a quarter point's precision, as the demo's.
    var snapshot = PayloadWriter()
    var random: UInt64 = 7
    for stroke in 0..<200 {
        var body = PayloadWriter()
        withUnsafeBytes(of: UUID().uuid) { body.writeBytes(1, Array($0)) }
        body.writeUInt(2, UInt64(stroke % 5))
        for _ in 0..<200 {
            var point = PayloadWriter()
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            point.writeDouble(1, Double(random >> 54) * 0.25)
            point.writeDouble(2, Double((random >> 44) & 1023) * 0.25)
            body.writeBytes(3, point.bytes)
        }
        snapshot.writeBytes(1, body.bytes)
    }
    snapshot.writeUInt(2, 40_000)
    let payload = snapshot.bytes
    let pipeline = SendPipeline(codec: try PayloadCompressor())
    let profile = PeerProfile.default(codec: try PayloadCompressor())
    let frames = try pipeline.frames(typeID: 2, payload: payload, messageID: 1, profile: profile)
    return try writeCapture(path, bytes: megabytes << 20) { index in
        let again =
            index == 0 ? frames : try pipeline.frames(typeID: 2, payload: payload, messageID: UInt64(index + 1), profile: profile)
        return again.map { frame in
            CaptureRecord(
                timestamp: 1_764_000_000_000_000_000 + UInt64(index) * 1_000_000, direction: .received, local: ben, peer: ana,
                room: "canvas", frame: frame)
        }
    }
}

// MARK: Measuring

struct Run {
    var seconds: Double
    var cpuSeconds: Double
    var maxRSSKiB: Int
    var output: String
}

/// Runs `executable arguments` to its end; its wall time, CPU time and peak RSS.
///
/// Spawned and reaped directly (`posix_spawn`, `wait4`): Foundation's `Process` on Linux
/// notices the child's exit by polling every 50 ms in `waitUntilExit`, which added 0–50 ms
/// to each timed run (a quarter of a 64 MB strokes run) and nothing to the CPU time.
/// `wait4` returns when the child ends, with the child's own CPU time and peak RSS.
func measure(_ executable: String, _ arguments: [String]) throws -> Run {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw BenchmarkError("pipe: errno \(errno)") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    let argv = ([executable] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv + [nil], environ)
    close(pipeEnds[1])
    guard spawned == 0 else {
        close(pipeEnds[0])
        throw BenchmarkError("posix_spawn \(executable): error \(spawned)")
    }
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
        if count > 0 {
            data += chunk[..<count]
        } else if count == 0 || errno != EINTR {
            break
        }
    }
    close(pipeEnds[0])
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
    let elapsed = ContinuousClock.now - start
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
        throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) ended with status \(status)")
    }
    // The validator child reports its own peak (VmHWM); wait4's is the child's too.
    let text = String(decoding: data, as: UTF8.self)
    let ownPeak = text.split(separator: " ").drop { $0 != "maxrss" }.dropFirst().first.flatMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return Run(
        seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
        cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        maxRSSKiB: ownPeak ?? Int(usage.ru_maxrss), output: text)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func option(_ name: String, default value: Int) -> Int {
    guard let index = CommandLine.arguments.firstIndex(of: name), index + 1 < CommandLine.arguments.count,
        let number = Int(CommandLine.arguments[index + 1])
    else { return value }
    return number
}

// `--write strokes|snapshots PATH`: only write a capture (for profiling `--validate`).
if let index = CommandLine.arguments.firstIndex(of: "--write"), index + 2 < CommandLine.arguments.count {
    let path = CommandLine.arguments[index + 2]
    let count =
        CommandLine.arguments[index + 1] == "strokes"
        ? try strokeCapture(path, megabytes: option("--megabytes", default: 64))
        : try snapshotCapture(path, megabytes: option("--megabytes", default: 64))
    print("wrote \(count) frames to \(path)")
    exit(0)
}

let megabytes = option("--megabytes", default: 64)
let rounds = option("--rounds", default: 3)
let big = option("--big", default: 0)
let tshark = ["/usr/bin/tshark", "/usr/local/bin/tshark", "/opt/homebrew/bin/tshark"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}
let me =
    CommandLine.arguments[0].hasPrefix("/")
    ? CommandLine.arguments[0]
    : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("groupwire-validate-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let lua = folder.appendingPathComponent("groupwire.lua").path
try Data(LuaDissectorGenerator(specs: [try loadSpec()], sources: ["DrawTogether.gwspec"]).generate().utf8).write(
    to: URL(fileURLWithPath: lua))

print("ValidateBenchmark: \(megabytes) MB captures, median of \(rounds) rounds, release, one core each")
print("| capture | frames | groupwire validate | per CPU second | peak RSS | tshark + dissector | per CPU second | ratio |")
print("|---|---|---|---|---|---|---|---|")
for (name, make) in [("strokes (small messages)", strokeCapture), ("snapshots (compressed, in fragments)", snapshotCapture)] {
    let path = folder.appendingPathComponent("capture.pcapng").path
    let records = try make(path, megabytes)
    let size = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1e6
    // Warm the page cache, a chunk at a time (the parent stays small).
    if let handle = FileHandle(forReadingAtPath: path) {
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {}
        try handle.close()
    }
    var ours: [Run] = []
    var theirs: [Run] = []
    for _ in 0..<rounds {
        ours.append(try measure(me, ["--validate", path]))
        if let tshark {
            theirs.append(try measure(tshark, ["-X", "lua_script:\(lua)", "-r", path, "-T", "fields", "-e", "groupwire.type"]))
        }
    }
    let ourRate = size / median(ours.map(\.seconds))
    let ourCPU = size / median(ours.map(\.cpuSeconds))
    let rss = ours.map(\.maxRSSKiB).max() ?? 0
    var row =
        "| \(name) | \(records) | \(String(format: "%.0f MB/s", ourRate)) | \(String(format: "%.0f MB/s", ourCPU)) | \(rss / 1024) MiB |"
    if !theirs.isEmpty {
        let theirRate = size / median(theirs.map(\.seconds))
        row +=
            " \(String(format: "%.1f MB/s", theirRate)) | \(String(format: "%.1f MB/s", size / median(theirs.map(\.cpuSeconds)))) | \(String(format: ourRate >= theirRate ? "%.0f×" : "%.2f×", ourRate / theirRate)) |"
    } else {
        row += " (no tshark) | | |"
    }
    print(row)
    try? FileManager.default.removeItem(atPath: path)
}

if big > 0 {
    let path = folder.appendingPathComponent("big.pcapng").path
    let records = try strokeCapture(path, megabytes: big)
    let size = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    let run = try measure(me, ["--validate", path])
    print("")
    print(
        "\(String(format: "%.2f", size / Double(1 << 30))) GiB of strokes (\(records) frames): validated in \(String(format: "%.1f", run.seconds)) s "
            + "(\(String(format: "%.0f", size / 1e6 / run.seconds)) MB/s), peak RSS \(run.maxRSSKiB / 1024) MiB; \(run.output.trimmingCharacters(in: .newlines))"
    )
}
