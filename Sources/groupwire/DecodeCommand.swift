import ArgumentParser
import GroupWireTools

extension DecodeTool.InputFormat: ExpressibleByArgument {}

/// `groupwire decode --spec SPEC [FILE]`.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode data frames to JSON, one document per message.",
        discussion: """
            FILE (default, or '-': standard input) holds frames back to back, raw or as a \
            hex dump (plain hex, the lines 'groupwire demo --hex' writes, xxd, hexdump -C; \
            '#' comments), detected as 'groupwire inspect' does unless --input says. The \
            input is read as a stream: each message is printed as soon as it is complete, \
            and memory stays flat however large the input.

            Output: one JSON document per message on standard output, one a line (--pretty: \
            indented), in the order the messages complete. Without --envelope the document \
            is the message's value in the JSON form of Spec/FORMAT.md (keys sorted, every \
            non-optional field written). With --envelope it is \
            {"offset": O, "type": "Name", "typeID": N, "value": {...}}, keys in that order; \
            O is the byte offset of the message's frame in the frame bytes (decoded bytes \
            for hex input), and for a fragmented message the offset of the fragment that \
            completed it.

            Compressed frames are decompressed (those compressed with a dictionary need it \
            given with --dictionary), and fragment frames are put back together. Control \
            messages (hellos, session control) are the protocol's and are skipped; \
            'groupwire validate' checks them. Problems go \
            to standard error, one line each, and the valid messages around them are still \
            printed: 'groupwire: error: frame at offset O: KIND at offset E: reason' for an \
            invalid frame or run of bytes, '... frame at offset O (type id N): ...' for a \
            payload that does not decode (E counted in the input when the body is not \
            compressed) or a dropped fragment, and one line for messages left incomplete at \
            the end. Exit status: 0 when everything decoded, 1 when anything above was \
            reported (or the input holds no frames or is not valid hex), 2 for usage, spec, \
            file or dictionary problems.
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
