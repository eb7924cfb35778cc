import CZstd
import Foundation
import GroupWire
import GroupWireCompression

// Compression benchmark: for each example message shape, compress and decompress time
// and output size at the default policy and with a dictionary trained on other samples of
// the same shape, next to raw libzstd calls on the same bytes. Release mode only:
// `make bench` or `cd Benchmarks && swift run -c release CompressionBenchmark`.

struct Shape {
    let name: String
    let messages: [[UInt8]]
    let trainingSamples: [[UInt8]]
    let dictionarySize: Int
}

func makeShapes() -> [Shape] {
    var sample = MessageShapes(seed: 1)
    var training = MessageShapes(seed: 2)
    return [
        Shape(
            name: "UpsertStroke", messages: (0..<256).map { _ in sample.upsertStroke() },
            trainingSamples: (0..<4000).map { _ in training.upsertStroke() }, dictionarySize: 16 * 1024),
        Shape(
            name: "PlaybackState", messages: (0..<256).map { _ in sample.playbackState() },
            trainingSamples: (0..<4000).map { _ in training.playbackState() }, dictionarySize: 16 * 1024),
        Shape(
            name: "CanvasSnapshot", messages: (0..<4).map { _ in sample.canvasSnapshot() },
            trainingSamples: (0..<12).map { _ in training.canvasSnapshot() }, dictionarySize: 64 * 1024),
    ]
}

struct Row {
    var shape: String
    var variant: String
    var rawSize: Double
    var bodySize: Double
    var kept: String
    var oursCompress: String
    var rawCompress: String
    var compressDelta: String
    var rawArrayCompress: String
    var rawArrayDecompress: String
    var oursDecompress: String
    var rawDecompress: String
    var decompressDelta: String
    var payloadDecompress: String = ""
}

func average(_ values: [Int]) -> Double {
    Double(values.reduce(0, +)) / Double(max(1, values.count))
}

func run() throws {
    let level = CompressionPolicy.defaultLevel
    var harness = Harness()
    var rows: [Row] = []
    var pending: [(Row, String)] = []  // rows whose times fill in after measuring

    let shapes = makeShapes()
    for shape in shapes {
        // A filter naming one shape ("PlaybackState/default/ours-decompress") skips the
        // others' dictionary training, which would dominate a profiling run.
        if let named = harness.filter?.split(separator: "/").first.map(String.init),
            shapes.contains(where: { $0.name == named }), named != shape.name
        {
            continue
        }
        let dictionary = try DictionaryTrainer.train(samples: shape.trainingSamples, size: shape.dictionarySize, id: 1)
        let store = try DictionaryStore([dictionary])
        for (variant, dict) in [("default", nil as ZstdDictionary?), ("dictionary", dictionary)] {
            let key = "\(shape.name)/\(variant)"
            let policy = dict == nil ? CompressionPolicy.default : CompressionPolicy(dictionaryID: dict?.id)
            let payloads = try PayloadCompressor(policy: policy, dictionaries: store)
            let compressor = try ZstdCompressor(level: level)
            let decompressor = ZstdDecompressor()
            let largest = shape.messages.map(\.count).max() ?? 0
            let raw = try RawZstd(level: Int32(level), dictionary: dict?.bytes, capacity: largest)
            let bodies = try shape.messages.map { try compressor.compress($0, dictionary: dict) }
            let policyResults = try shape.messages.map { try payloads.compress($0) }
            let kept = policyResults.filter { $0 != nil }.count
            let wireSizes = zip(shape.messages, policyResults).map { message, result in
                result.map { $0.bytes.count } ?? message.count
            }
            let messages = shape.messages

            let indices = Array(messages.indices)
            // The policy path: what a sender pays per message (threshold, compress, keep-if-smaller).
            harness.addLoop("\(key)/policy", over: indices) { try payloads.compress(messages[$0])?.bytes.count ?? 0 }
            harness.addLoop("\(key)/ours-compress", over: indices) {
                try compressor.compress(messages[$0], dictionary: dict).count
            }
            harness.addLoop("\(key)/raw-compress", over: indices) { try raw.compress(messages[$0]) }
            harness.addLoop("\(key)/raw-array-compress", over: indices) { try raw.compressToArray(messages[$0]).count }
            harness.addLoop("\(key)/ours-decompress", over: indices) {
                try decompressor.decompress(bodies[$0], expectedSize: messages[$0].count, dictionary: dict).count
            }
            // The receiver's whole path: a decoded frame in, the payload out (codec,
            // dictionary lookup, limits, then the decompressor above).
            let frames = zip(messages, bodies).map { message, body in
                Frame(
                    kind: .data, typeID: 1,
                    compression: CompressionInfo(dictionaryID: dict?.id ?? 0, contentSize: UInt64(message.count)),
                    body: body)
            }
            harness.addLoop("\(key)/ours-payload", over: indices) { try payloads.payload(of: frames[$0]).count }
            harness.addLoop("\(key)/raw-decompress", over: indices) { try raw.decompress(bodies[$0]) }
            harness.addLoop("\(key)/raw-array-decompress", over: indices) {
                try raw.decompressToArray(bodies[$0], size: messages[$0].count).count
            }
            let row = Row(
                shape: shape.name,
                variant: variant == "default"
                    ? "level \(level), no dictionary" : "level \(level), \(dictionary.bytes.count / 1024) KiB dictionary",
                rawSize: average(shape.messages.map(\.count)), bodySize: average(bodies.map(\.count)),
                kept: "\(kept)/\(shape.messages.count) → \(format3(average(wireSizes))) B",
                oursCompress: "", rawCompress: "", compressDelta: "", rawArrayCompress: "", rawArrayDecompress: "",
                oursDecompress: "", rawDecompress: "",
                decompressDelta: "")
            pending.append((row, key))
        }
    }

    let results = try harness.measure()
    for (row, key) in pending {
        var row = row
        func value(_ name: String) -> Double { results.median("\(key)/\(name)") }
        func delta(_ ours: String, _ raw: String) -> String {
            signedPercent(results.medianRatio("\(key)/\(ours)", to: "\(key)/\(raw)"))
        }
        row.oursCompress = formatTime(value("ours-compress"))
        row.rawCompress = formatTime(value("raw-compress"))
        row.compressDelta = delta("ours-compress", "raw-compress")
        row.rawArrayCompress = "\(formatTime(value("raw-array-compress"))) (\(delta("ours-compress", "raw-array-compress")))"
        row.rawArrayDecompress =
            "\(formatTime(value("raw-array-decompress"))) (\(delta("ours-decompress", "raw-array-decompress")))"
        row.oursDecompress = formatTime(value("ours-decompress"))
        row.rawDecompress = formatTime(value("raw-decompress"))
        row.decompressDelta = delta("ours-decompress", "raw-decompress")
        row.payloadDecompress = "\(formatTime(value("ours-payload"))) (\(delta("ours-payload", "raw-array-decompress")))"
        row.kept += ", policy \(formatTime(value("policy")))"
        rows.append(row)
    }

    print(
        "GroupWire compression benchmark: libzstd \(String(cString: ZSTD_versionString())), median of \(harness.rounds) interleaved rounds, thread CPU time per message"
    )
    print("")
    print(
        "Δ: ours vs raw, median of per-round ratios. raw = libzstd into a reused buffer; raw→array = libzstd into a new [UInt8], as any Swift caller keeping the bytes must."
    )
    print("")
    print(
        "| message | variant | payload B | zstd body B | size vs payload | default policy: compressed, wire B, time | compress ours / raw (Δ) | raw→array (Δ) | decompress ours / raw (Δ) | raw→array (Δ) | payload(of: frame) (Δ vs raw→array) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows {
        print(
            "| \(row.shape) | \(row.variant) | \(format3(row.rawSize)) | \(format3(row.bodySize)) | \(percent(row.bodySize, of: row.rawSize)) | \(row.kept) | \(row.oursCompress) / \(row.rawCompress) (\(row.compressDelta)) | \(row.rawArrayCompress) | \(row.oursDecompress) / \(row.rawDecompress) (\(row.decompressDelta)) | \(row.rawArrayDecompress) | \(row.payloadDecompress) |"
        )
    }
}

do {
    try run()
    if ProcessInfo.processInfo.environment["BENCH_FILTER"] == nil {
        try runThresholdSweep()
    }
} catch {
    print("CompressionBenchmark: error: \(error)")
}
