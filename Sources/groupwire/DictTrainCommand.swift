import ArgumentParser
import GroupWireTools

/// `groupwire dict`: zstd dictionaries for compressed frames.
struct DictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dict",
        abstract: "Work with zstd dictionaries for compressed frames.",
        subcommands: [DictTrainCommand.self, DictGainCommand.self]
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

    @Argument(help: "Sample message files or frame files.")
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: "Where to write the dictionary.")
    var output: String?

    @Option(help: "Dictionary capacity in bytes (default 16384).")
    var size: String?

    @Option(help: "Dictionary id to stamp, 1...4294967295 (default: derived from the content).")
    var id: String?

    func run() throws {
        try StandardStreams.finish(DictTrainTool(inputs: inputs, output: output, size: size, id: id).run())
    }
}

/// `groupwire dict gain DICT SAMPLE...`.
struct DictGainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gain",
        abstract: "Tell what a dictionary gains on sample messages under the default compression policy.",
        discussion: """
            Each SAMPLE is a file of GroupWire frames (every data and control frame's payload \
            is a sample) or one sample message, as for 'dict train'. The default policy \
            compresses payloads of 1024 bytes and more without a dictionary and of 128 bytes \
            and more with one; the report gives the bytes both ways, the saving, and what the \
            samples under 128 bytes would gain if the threshold allowed. Exit status: 0, or 2 \
            on a usage or input error.
            """
    )

    @Argument(help: "The dictionary file.")
    var dictionary: String

    @Argument(help: "Sample message files or frame files.")
    var samples: [String] = []

    func run() throws {
        try StandardStreams.finish(DictGainTool(dictionaryPath: dictionary, inputs: samples).run())
    }
}
