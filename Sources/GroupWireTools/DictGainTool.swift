import GroupWire
import GroupWireCompression

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a dictionary gains on sample messages under the default compression policy:
/// `groupwire dict gain DICT SAMPLE...`, and the report `groupwire dict train` prints.
///
/// The default policy compresses a payload only from a threshold on: 1 KiB without a
/// dictionary, 128 bytes with one. A dictionary trained on messages under 128 bytes is
/// never used for them, and the report says so instead of leaving it to be found out.
package struct DictionaryGain: Sendable, Hashable {
    /// The samples measured.
    package var samples = 0
    /// Their payload bytes.
    package var payloadBytes = 0
    /// What they take under the default policy without the dictionary.
    package var withoutDictionary = 0
    /// What they take under the default policy with it.
    package var withDictionary = 0
    /// Samples under the dictionary threshold, which the policy leaves uncompressed.
    package var underThreshold = 0
    /// Their payload bytes.
    package var underThresholdBytes = 0
    /// What those would take compressed with the dictionary regardless of the threshold.
    package var underThresholdWithDictionary = 0

    /// Measures `samples` with `dictionary` (level 3, the default thresholds).
    package static func measure(_ samples: [[UInt8]], dictionary: ZstdDictionary) throws(WireError) -> DictionaryGain {
        let store = try DictionaryStore([dictionary])
        let plain = try PayloadCompressor(policy: .default, dictionaries: store)
        let withDictionary = try PayloadCompressor(policy: CompressionPolicy(dictionaryID: dictionary.id), dictionaries: store)
        let forced = try PayloadCompressor(
            policy: CompressionPolicy(threshold: 2, dictionaryID: dictionary.id), dictionaries: store)
        var gain = DictionaryGain()
        for sample in samples {
            gain.samples += 1
            gain.payloadBytes += sample.count
            gain.withoutDictionary += try plain.compress(sample)?.bytes.count ?? sample.count
            gain.withDictionary += try withDictionary.compress(sample)?.bytes.count ?? sample.count
            if sample.count < withDictionary.policy.threshold {
                gain.underThreshold += 1
                gain.underThresholdBytes += sample.count
                gain.underThresholdWithDictionary += try forced.compress(sample)?.bytes.count ?? sample.count
            }
        }
        return gain
    }

    /// The report: sizes without and with the dictionary, the saving, and a warning when
    /// the threshold keeps the dictionary from most samples.
    package func report(name: String) -> String {
        func percent(_ part: Int, of whole: Int) -> String {
            whole == 0 ? "0%" : String(format: "%.1f%%", Double(part) * 100 / Double(whole))
        }
        var lines = [
            "\(name) on \(samples) sample\(samples == 1 ? "" : "s") (\(payloadBytes) bytes of payload), default policy:",
            "  without the dictionary: \(withoutDictionary) bytes (\(percent(withoutDictionary, of: payloadBytes)) of the payload; only payloads of 1024 bytes and more are compressed)",
            "  with the dictionary:    \(withDictionary) bytes (\(percent(withDictionary, of: payloadBytes)); payloads of 128 bytes and more)",
            "  saving: \(withoutDictionary - withDictionary) bytes, \(percent(withoutDictionary - withDictionary, of: withoutDictionary)) of what goes without it",
        ]
        if underThreshold > 0 {
            lines.append(
                "  \(underThreshold) of the samples (\(underThresholdBytes) bytes) are under 128 bytes: the default policy sends them "
                    + "uncompressed; with the dictionary regardless they would take \(underThresholdWithDictionary) bytes "
                    + "(a CompressionPolicy threshold below 128 uses it for them)")
        }
        if samples > 0, underThreshold * 2 > samples {
            lines.append(
                "warning: most samples are under the 128-byte threshold, so under the default policy this dictionary is rarely used"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `groupwire dict gain DICT SAMPLE...`.
package struct DictGainTool: Sendable {
    package var dictionaryPath: String
    package var inputs: [String]

    package init(dictionaryPath: String, inputs: [String]) {
        self.dictionaryPath = dictionaryPath
        self.inputs = inputs
    }

    package func run() -> ToolResult {
        do throws(ToolFailure) {
            guard !inputs.isEmpty else { throw ToolFailure("no SAMPLE files given; usage: groupwire dict gain DICT SAMPLE...") }
            let store = try DictionaryLoading.load([dictionaryPath])
            guard let id = store.ids.first, let dictionary = store.dictionary(id: id) else {
                throw ToolFailure("\(dictionaryPath): no dictionary in it")
            }
            let samples = try DictionarySampleFiles.read(inputs)
            do throws(WireError) {
                let gain = try DictionaryGain.measure(samples, dictionary: dictionary)
                return ToolResult(output: Array(gain.report(name: "dictionary \(id) (\(dictionaryPath))").utf8))
            } catch {
                throw ToolFailure("cannot measure: \(error.context)")
            }
        } catch {
            return error.result
        }
    }
}

/// The sample messages in files, as `dict train` and `dict gain` read them: each file is a
/// stream of frames (each data and control frame's payload a sample) or one sample.
enum DictionarySampleFiles {
    static func read(_ paths: [String]) throws(ToolFailure) -> [[UInt8]] {
        let payloads: PayloadCompressor
        do {
            payloads = try PayloadCompressor()
        } catch {
            throw ToolFailure("cannot set up zstd: \(error)")
        }
        var samples: [[UInt8]] = []
        var totalBytes = 0
        for path in paths {
            let bytes: [UInt8]
            do throws(InputReadingError) {
                bytes = try InputReading.file(path, limit: DictTrainTool.maxInputBytes - totalBytes)
            } catch {
                // Over the limit here means over what the inputs before it left of maxInputBytes.
                throw ToolFailure(error.message)
            }
            totalBytes += bytes.count  // safe because: InputReading keeps the total within maxInputBytes.
            do {
                samples.append(contentsOf: try DictionarySamples.extract(from: bytes, payloads: payloads).samples)
            } catch {
                throw ToolFailure("\(path): \(error)")
            }
        }
        return samples
    }
}
