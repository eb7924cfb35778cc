import ArgumentParser
import GroupWireTools

extension DecodeTool.InputFormat: ExpressibleByArgument {}

/// `groupwire decode --spec SPEC [FILE]`.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode data frames to JSON, one document per message.",
        discussion: """
            Compressed frames are decompressed (those compressed with a dictionary need it \
            given with --dictionary), and fragment frames are \
            put back together: a fragmented message is printed when its last fragment \
            arrives (its envelope offset is that fragment's). Invalid frames, dropped \
            fragments and messages left incomplete at the end are reported with their \
            offset and reason and the command exits 1; valid messages around them are still \
            printed.
            """
    )

    @Option(help: "The spec file declaring the messages.")
    var spec: String

    @Argument(help: "A file of back-to-back frames (default: standard input).")
    var file: String?

    @Option(help: "Input format: auto (detected), raw or hex (plain hex, xxd, hexdump -C, groupwire demo --hex).")
    var input: DecodeTool.InputFormat = .auto

    @Flag(help: "Wrap each message as {offset, type, typeID, value}.")
    var envelope = false

    @Flag(help: "Pretty-print each document.")
    var pretty = false

    @Flag(help: "Keep fields the spec does not declare, as \"$unknownFields\" (base64 of the raw fields).")
    var keepUnknown = false

    @Option(name: .customLong("dictionary"), help: "A zstd dictionary for bodies compressed with one (repeatable).")
    var dictionaries: [String] = []

    func run() throws {
        var tool = DecodeTool(specPath: spec, inputFormat: input, envelope: envelope, pretty: pretty)
        tool.keepsUnknownFields = keepUnknown
        tool.dictionaryPaths = dictionaries
        try StandardStreams.exit(tool.run(path: file ?? "-", output: StandardStreams.streaming()))
    }
}
