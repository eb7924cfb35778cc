import ArgumentParser
import Foundation
import GroupWire
import GroupWireCompression

/// `groupwire dict`: zstd dictionaries for compressed frames.
struct DictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dict",
        abstract: "Work with zstd dictionaries for compressed frames.",
        subcommands: [DictTrainCommand.self]
    )
}

/// `groupwire dict train INPUT... -o DICT [--size BYTES] [--id N]`.
struct DictTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a zstd dictionary from sample messages.",
        discussion: """
            Each INPUT is either a file of GroupWire frames (every data and control frame's \
            payload is a sample) or a file holding one sample message. The output is a \
            standard zstd dictionary: `zstd -D DICT` reads it too. Exit status: 0 on \
            success, 2 on a usage, input or training error.
            """
    )

    /// Most bytes read from all inputs together.
    static let maxInputBytes = 256 << 20

    @Argument(help: "Sample message files or frame files.")
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: "Where to write the dictionary.")
    var output: String?

    @Option(help: "Dictionary capacity in bytes (default 16384).")
    var size: String?

    @Option(help: "Dictionary id to stamp, 1...4294967295 (default: derived from the content).")
    var id: String?

    mutating func run() throws {
        do {
            try train()
        } catch let failure as DictTrainFailure {
            FileHandle.standardError.write(Data("groupwire: error: \(failure.message)\n".utf8))
            throw ExitCode(2)
        }
    }

    private func train() throws {
        guard !inputs.isEmpty else {
            throw DictTrainFailure("no INPUT files given; usage: groupwire dict train INPUT... -o DICT")
        }
        guard let output, !output.isEmpty else {
            throw DictTrainFailure("missing -o DICT: say where to write the dictionary")
        }
        let capacity = try parse(size, name: "--size", default: DictionaryTrainer.defaultSize) {
            Int($0).flatMap { (DictionaryTrainer.minimumSize...ZstdDictionary.maxSize).contains($0) ? $0 : nil }
        }
        let stampedID: UInt32? = try id.map { text in
            guard let value = UInt32(text), value != 0 else {
                throw DictTrainFailure("--id \(text) is not a dictionary id in 1...4294967295")
            }
            return value
        }
        let payloads: PayloadCompressor
        do {
            payloads = try PayloadCompressor()
        } catch {
            throw DictTrainFailure("cannot set up zstd: \(error)")
        }
        var samples: [[UInt8]] = []
        var totalBytes = 0
        for path in inputs {
            let bytes = try readInput(path, budget: Self.maxInputBytes - totalBytes)
            totalBytes += bytes.count  // safe because readInput keeps the total within maxInputBytes.
            do {
                samples.append(contentsOf: try DictionarySamples.extract(from: bytes, payloads: payloads).samples)
            } catch let error as WireError {
                throw DictTrainFailure("\(path): \(error)")
            }
        }
        let dictionary: ZstdDictionary
        do {
            dictionary = try DictionaryTrainer.train(samples: samples, size: capacity, id: stampedID)
        } catch let error as WireError {
            throw DictTrainFailure("\(error.context) (\(samples.count) samples from \(inputs.count) inputs)")
        }
        do {
            try Data(dictionary.bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw DictTrainFailure("cannot write \(output): \(error.localizedDescription)")
        }
        print("wrote \(output): dictionary id \(dictionary.id), \(dictionary.bytes.count) bytes, \(samples.count) samples")
    }

    private func parse(_ text: String?, name: String, default value: Int, _ convert: (String) -> Int?) throws -> Int {
        guard let text else { return value }
        guard let parsed = convert(text) else {
            throw DictTrainFailure(
                "\(name) \(text) is not a size in \(DictionaryTrainer.minimumSize)...\(ZstdDictionary.maxSize) bytes")
        }
        return parsed
    }

    private func readInput(_ path: String, budget: Int) throws -> [UInt8] {
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                throw DictTrainFailure("\(path): not a regular file")
            }
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch let failure as DictTrainFailure {
            throw failure
        } catch {
            throw DictTrainFailure("cannot read \(path): no such file or not accessible")
        }
        guard size <= budget else {
            throw DictTrainFailure("\(path): inputs total more than \(Self.maxInputBytes) bytes")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DictTrainFailure("cannot open \(path)")
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: budget + 1) ?? Data()
            guard data.count <= budget else {
                throw DictTrainFailure("\(path): inputs total more than \(Self.maxInputBytes) bytes")
            }
            return Array(data)
        } catch let failure as DictTrainFailure {
            throw failure
        } catch {
            throw DictTrainFailure("cannot read \(path): \(error.localizedDescription)")
        }
    }
}

/// A `dict train` failure, printed as `groupwire: error: MESSAGE` with exit status 2.
struct DictTrainFailure: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
