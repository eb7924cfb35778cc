import Foundation
import GroupWire
import SwiftProtobuf

// Generated GroupWire types vs swift-protobuf 1.39.0 vs Foundation JSON, on the issue 3
// shapes, in one process: encode and decode time (median of interleaved rounds), payload
// bytes and heap allocations per operation. `--messenger` measures the messenger's paths
// instead (MessengerPath.swift), `--delivery` the delivery layer (DeliveryPath.swift),
// `--negotiation` the pipeline with negotiating peers (NegotiationPath.swift). Usage:
//   swift run -c release GeneratedCodeBenchmark [--rounds N] [--output FILE] [--messenger] [--delivery] [--negotiation]

var rounds = 61
var sampleMilliseconds = 1
var outputPath: String?
var profileCase: String?
var profileIterations = 100_000
var messengerMode = false
var deliveryMode = false
var negotiationMode = false
var deliveryMessages = 20_000
var deliveryRows: String?
var hubMessages = 20_000
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds": rounds = arguments.popFirst().flatMap { Int($0) } ?? rounds
    case "--output": outputPath = arguments.popFirst()
    case "--sample-ms": sampleMilliseconds = arguments.popFirst().flatMap { Int($0) } ?? sampleMilliseconds
    case "--profile": profileCase = arguments.popFirst()
    case "--iterations": profileIterations = arguments.popFirst().flatMap { Int($0) } ?? profileIterations
    case "--messenger": messengerMode = true
    case "--delivery": deliveryMode = true
    case "--negotiation": negotiationMode = true
    case "--delivery-messages": deliveryMessages = arguments.popFirst().flatMap { Int($0) } ?? deliveryMessages
    case "--delivery-rows": deliveryRows = arguments.popFirst()
    case "--hub-messages": hubMessages = arguments.popFirst().flatMap { Int($0) } ?? hubMessages
    default:
        print(
            "usage: GeneratedCodeBenchmark [--rounds N] [--sample-ms N] [--output FILE] [--profile MESSAGE/CODEC/OP [--iterations N]] [--messenger [--hub-messages N]] [--delivery [--delivery-messages N] [--delivery-rows TEXT|catch-up]] [--negotiation [--hub-messages N]]"
        )
        exit(2)
    }
}

let fixtures = Fixtures(seed: 0x6772_6F75_7077_6972)

if negotiationMode {
    // Negotiation once agreed (NegotiationPath.swift): same-version and mixed-version
    // peers beside a messenger that does not negotiate.
    do {
        try await NegotiationPath.report(value: fixtures.upsert, messages: hubMessages, rounds: min(rounds, 5))
    } catch {
        print("error: \(error)")
        exit(1)
    }
    exit(0)
}

if deliveryMode {
    // The delivery layer (DeliveryPath.swift): both modes, loss-free and lossy, beside the
    // messenger without the layer; then a snapshot's catch-up (DeliveryCatchUp.swift).
    do {
        // `--delivery-rows catch-up`: the catch-up table alone.
        let catchUpOnly = deliveryRows == "catch-up"
        if !catchUpOnly {
            try await DeliveryPath.report(
                value: fixtures.upsert, messages: deliveryMessages, rounds: min(rounds, 5), rows: deliveryRows)
        }
        if deliveryRows == nil || catchUpOnly {
            try await DeliveryPath.catchUpTable(snapshot: fixtures.canvas, runs: 9)
        }
    } catch {
        print("error: \(error)")
        exit(1)
    }
    exit(0)
}

if messengerMode {
    // The messenger's paths only (MessengerPath.swift): the synchronous small-message path
    // beside its floor and swift-protobuf, then the pipeline over the in-process hub.
    do {
        try await MessengerPath.report(
            fixtures: fixtures, rounds: rounds, sampleMilliseconds: sampleMilliseconds,
            hubMessages: hubMessages)
    } catch {
        print("error: \(error)")
        exit(1)
    }
    exit(0)
}
let jsonEncoder = JSONEncoder()
let jsonDecoder = JSONDecoder()

/// Encode and decode cases for one message in the three codecs, after checking that each
/// codec gives the value back.
func cases<Message: BenchmarkMessage, Proto: SwiftProtobuf.Message & Equatable>(
    _ name: String, _ value: Message, _ proto: Proto
) throws -> (cases: [BenchmarkCase], sizes: [String: Int]) {
    let wire = value.wirePayload()
    let protoBytes: [UInt8] = try proto.serializedBytes()
    let json = try jsonEncoder.encode(value)
    guard try Message(wirePayload: wire) == value, try Proto(serializedBytes: protoBytes) == proto,
        try jsonDecoder.decode(Message.self, from: json) == value
    else {
        throw BenchmarkError("\(name) does not round-trip in every codec")
    }
    let sizes = [
        "GroupWire": wire.count, "swift-protobuf": protoBytes.count, "JSON": json.count,
        "GroupWire frame": try value.wireFrame(limits: Limits(maxFrameSize: Limits.default.maxMessageSize)).count,
    ]
    let list = [
        BenchmarkCase(message: name, codec: "GroupWire", operation: "encode") { count in
            var total = 0
            for _ in 0..<count { total &+= value.wirePayload().count }
            return total
        },
        BenchmarkCase(message: name, codec: "GroupWire", operation: "decode") { count in
            var total = 0
            for _ in 0..<count {
                if let decoded = try? Message(wirePayload: wire) { total &+= decoded.benchmarkChecksum }
            }
            return total
        },
        BenchmarkCase(message: name, codec: "swift-protobuf", operation: "encode") { count in
            var total = 0
            for _ in 0..<count {
                if let bytes: [UInt8] = try? proto.serializedBytes() { total &+= bytes.count }
            }
            return total
        },
        BenchmarkCase(message: name, codec: "swift-protobuf", operation: "decode") { count in
            var total = 0
            for _ in 0..<count {
                if let decoded = try? Proto(serializedBytes: protoBytes) { total &+= decoded.isInitialized ? 1 : 0 }
            }
            return total
        },
        BenchmarkCase(message: name, codec: "JSON", operation: "encode") { count in
            var total = 0
            for _ in 0..<count {
                if let data = try? jsonEncoder.encode(value) { total &+= data.count }
            }
            return total
        },
        BenchmarkCase(message: name, codec: "JSON", operation: "decode") { count in
            var total = 0
            for _ in 0..<count {
                if let decoded = try? jsonDecoder.decode(Message.self, from: json) { total &+= decoded.benchmarkChecksum }
            }
            return total
        },
    ]
    return (list, sizes)
}

/// What the harness needs of a generated message: its codecs and its exact size.
///
/// `wirePayload()` is restated as a requirement so generic calls reach the generated
/// implementation (which reserves the exact size); `WirePayloadCodable` declares it only in
/// an extension, so without this a generic caller gets the default, growing buffer.
protocol BenchmarkMessage: WireMessage, Codable, Equatable {
    func wirePayload() -> [UInt8]
    /// A value read from one field of a decoded message, so the decode cannot be dropped;
    /// cheap, so it adds nothing measurable (computing `wireSize` here cost 3%).
    var benchmarkChecksum: Int { get }
}

extension UpsertStroke: BenchmarkMessage {
    var benchmarkChecksum: Int { Int(color.rawValue) }
}

extension CanvasSnapshot: BenchmarkMessage {
    var benchmarkChecksum: Int { strokes.count }
}

extension PlaybackState: BenchmarkMessage {
    var benchmarkChecksum: Int { title.utf8.count }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

var allCases: [BenchmarkCase] = []
var sizes: [String: [String: Int]] = [:]
let messages = ["UpsertStroke", "CanvasSnapshot", "PlaybackState"]
do {
    for (name, built) in [
        ("UpsertStroke", try cases("UpsertStroke", fixtures.upsert, fixtures.upsertProto)),
        ("CanvasSnapshot", try cases("CanvasSnapshot", fixtures.canvas, fixtures.canvasProto)),
        ("PlaybackState", try cases("PlaybackState", fixtures.playback, fixtures.playbackProto)),
    ] {
        allCases += built.cases
        sizes[name] = built.sizes
    }
} catch {
    print("error: \(error)")
    exit(1)
}

if let profileCase {
    allCases += (try? MessengerPath.cases(fixtures.upsert, fixtures.upsertProto)) ?? []
    // The named cases (comma-separated) in a loop each and nothing else, for valgrind
    // --tool=callgrind: `--toggle-collect='*profiledRun*' --dump-after='*profiledRun*'`
    // counts each case's loop alone, one dump per case (Benchmarks/bench-check.sh).
    var sink = 0
    // `NAME@N` runs that case N times instead of `--iterations`.
    for entry in profileCase.split(separator: ",") {
        let parts = entry.split(separator: "@", maxSplits: 1).map(String.init)
        let name = parts[0]
        let iterations = parts.count > 1 ? Int(parts[1]) ?? profileIterations : profileIterations
        guard let chosen = allCases.first(where: { "\($0.message)/\($0.codec)/\($0.operation)" == name }) else {
            print(
                "no case \(name); cases: "
                    + allCases.map { "\($0.message)/\($0.codec)/\($0.operation)" }.joined(separator: " "))
            exit(2)
        }
        // One uncounted run first, so one-time costs stay out of the per-operation count.
        sink &+= chosen.body(1)
        sink &+= profiledRun(chosen, iterations: iterations)
        print("profiled \(name) × \(iterations)")
    }
    print("checksum \(sink & 0xFFFF)")
    exit(0)
}

var harness = Harness(rounds: rounds)
harness.sampleNanoseconds = UInt64(max(1, sampleMilliseconds)) * 1_000_000
let (measurements, sink) = harness.run(allCases)
let report = Report(
    measurements: measurements, sizes: sizes, messages: messages, rounds: rounds,
    sampleMilliseconds: sampleMilliseconds
).markdown()
print(report)
print("(checksum \(sink & 0xFFFF))")
if let outputPath {
    do {
        try Data(report.utf8).write(to: URL(fileURLWithPath: outputPath))
    } catch {
        print("error: cannot write \(outputPath): \(error)")
        exit(2)
    }
}
