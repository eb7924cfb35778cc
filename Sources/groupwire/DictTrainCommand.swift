import ArgumentParser
import GroupWireTools

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
