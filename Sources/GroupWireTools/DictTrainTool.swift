import GroupWire
import GroupWireCompression

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `groupwire dict train INPUT... -o DICT [--size BYTES] [--id N]`: trains a standard zstd
/// dictionary from sample messages, each INPUT being a frame file (every data and control
/// frame's payload is a sample) or a file holding one sample message.
package struct DictTrainTool: Sendable {
    /// Most bytes read from all inputs together (256 MiB).
    package static let maxInputBytes = 256 << 20

    /// Sample message files or frame files.
    package var inputs: [String]
    /// Where to write the dictionary.
    package var output: String?
    /// Dictionary capacity in bytes, as given on the command line (default 16384).
    package var size: String?
    /// Dictionary id to stamp, as given on the command line (default: from the content).
    package var id: String?

    /// Creates the tool.
    package init(inputs: [String], output: String?, size: String? = nil, id: String? = nil) {
        self.inputs = inputs
        self.output = output
        self.size = size
        self.id = id
    }

    /// Trains and writes the dictionary.
    /// - Returns: a `wrote PATH: dictionary id N, B bytes, S samples` line on standard output;
    ///   status 2 with a `groupwire: error:` line on a usage, input, training or write error.
    package func run() -> ToolResult {
        do throws(ToolFailure) {
            return try train()
        } catch {
            return error.result
        }
    }

    private func train() throws(ToolFailure) -> ToolResult {
        guard !inputs.isEmpty else {
            throw ToolFailure("no INPUT files given; usage: groupwire dict train INPUT... -o DICT")
        }
        guard let output, !output.isEmpty else {
            throw ToolFailure("missing -o DICT: say where to write the dictionary")
        }
        let capacity = try parseSize()
        let stampedID = try parseID()
        let samples = try DictionarySampleFiles.read(inputs)
        let dictionary: ZstdDictionary
        do {
            dictionary = try DictionaryTrainer.train(samples: samples, size: capacity, id: stampedID)
        } catch {
            throw ToolFailure("\(error.context) (\(samples.count) samples from \(inputs.count) inputs)")
        }
        do {
            try Data(dictionary.bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw ToolFailure("cannot write \(output): \(error.localizedDescription)")
        }
        var text = "wrote \(output): dictionary id \(dictionary.id), \(dictionary.bytes.count) bytes, \(samples.count) samples\n"
        // What it gains on the samples it was trained on, so a dictionary the default policy
        // would never use (samples under 128 bytes) does not go unnoticed.
        if let gain = try? DictionaryGain.measure(samples, dictionary: dictionary) {
            text += gain.report(name: "on its training samples: dictionary \(dictionary.id)")
        }
        return ToolResult(output: Array(text.utf8))
    }

    private func parseSize() throws(ToolFailure) -> Int {
        guard let size else { return DictionaryTrainer.defaultSize }
        guard let value = Int(size), (DictionaryTrainer.minimumSize...ZstdDictionary.maxSize).contains(value) else {
            throw ToolFailure(
                "--size \(size) is not a size in \(DictionaryTrainer.minimumSize)...\(ZstdDictionary.maxSize) bytes")
        }
        return value
    }

    private func parseID() throws(ToolFailure) -> UInt32? {
        guard let id else { return nil }
        guard let value = UInt32(id), value != 0 else {
            throw ToolFailure("--id \(id) is not a dictionary id in 1...4294967295")
        }
        return value
    }
}
