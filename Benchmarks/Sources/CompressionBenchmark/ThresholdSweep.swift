import GroupWireCompression

/// Size sweep behind the default thresholds: for message bodies of growing size, how much
/// zstd saves and what it costs, without and with a dictionary.
func runThresholdSweep() throws {
    var shapes = MessageShapes(seed: 3)
    var training = MessageShapes(seed: 4)
    // Bodies of N bytes: runs of playback states and stroke points, as a mixed session sends.
    let stream = (0..<64).flatMap { _ in shapes.playbackState() + shapes.canvasSnapshot(strokes: 1, points: 8) }
    let samples = (0..<3000).map { index in
        index % 2 == 0 ? training.playbackState() : training.canvasSnapshot(strokes: 1, points: 8)
    }
    let dictionary = try DictionaryTrainer.train(samples: samples, size: 16 * 1024, id: 2)
    let compressor = try ZstdCompressor(level: CompressionPolicy.defaultLevel)
    let sizes = [64, 128, 256, 512, 1024, 2048, 4096, 16384]
    var harness = Harness(rounds: 15, targetRoundNanoseconds: 5_000_000)
    harness.filter = nil
    var bodies: [Int: [[UInt8]]] = [:]
    for size in sizes {
        // 16 different windows of the stream per size.
        let inputs = (0..<16).map { index in Array(stream[(index * 97)..<(index * 97 + size)]) }
        bodies[size] = inputs
        harness.addLoop("\(size)/plain", over: inputs) { try compressor.compress($0).count }
        harness.addLoop("\(size)/dictionary", over: inputs) { try compressor.compress($0, dictionary: dictionary).count }
    }
    let results = try harness.measure()
    print("")
    print(
        "Threshold sweep (level \(CompressionPolicy.defaultLevel), body sizes of a mixed playback/stroke stream, 16 KiB dictionary):"
    )
    print("")
    print("| body B | no dictionary: zstd B (saved) | time | with dictionary: zstd B (saved) | time |")
    print("|---|---|---|---|---|")
    for size in sizes {
        let inputs = bodies[size] ?? []
        let plain = try inputs.map { try compressor.compress($0).count }
        let withDictionary = try inputs.map { try compressor.compress($0, dictionary: dictionary).count }
        let plainAverage = Double(plain.reduce(0, +)) / Double(plain.count)
        let dictionaryAverage = Double(withDictionary.reduce(0, +)) / Double(withDictionary.count)
        print(
            "| \(size) | \(format3(plainAverage)) (\(percent(plainAverage, of: Double(size)))) | \(formatTime(results.median("\(size)/plain"))) | \(format3(dictionaryAverage)) (\(percent(dictionaryAverage, of: Double(size)))) | \(formatTime(results.median("\(size)/dictionary"))) |"
        )
    }
}
