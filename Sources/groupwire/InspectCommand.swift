import ArgumentParser
import GroupWireCapture
import GroupWireTools

/// `groupwire inspect FILE`: prints every frame's header fields and payload dump.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the header fields and payload of every frame, or every message decoded by its spec.",
        discussion: """
            FILE (default, or '-': standard input) holds frames back to back, raw or as a \
            hex dump (plain hex, the lines 'groupwire demo --hex' writes, xxd -p, xxd, \
            hexdump -C; '#' comments). The format is detected from the first bytes read \
            (up to 64 KiB): input starting with the magic byte 0xC7 is raw; text (UTF-8, no \
            control characters but tab, CR and LF) is hex; anything else is raw. --hex or \
            --raw overrides the detection. The input is read as a stream: each frame is \
            printed as soon as it is read, and memory stays flat however large the input. \
            With --format json the entries come one a line and the counts after them. \
            pcapng and pcap captures (Spec/CAPTURE.md) are read too.

            --format jsonl --spec SPEC prints one JSON object per message instead: fragments \
            reassembled per sender, bodies decompressed, the payload decoded by the spec with \
            field names under "value", beside frame, offset, time, sender, receiver, room, \
            session, type, typeID, compressed and fragmented. --type NAME and --participant \
            ID (a UUID or its first characters; sender or receiver) keep only those \
            messages. Problems go to standard error as 'groupwire validate' reports them.

            Exit status: 0 when every frame is valid, 1 when some are not (each is reported \
            with its byte offset and reason, and the frames after it are still read), 2 for \
            usage errors, unreadable files, malformed hex and unreadable or invalid \
            dictionaries. Compressed bodies are decompressed to dump their payload; those \
            compressed with a dictionary need it given with --dictionary.
            """
    )

    /// How the report is printed.
    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, jsonl
    }

    /// The input format, when not detected.
    enum InputFormat: String, EnumerableFlag {
        case hex, raw

        static func help(for value: InputFormat) -> ArgumentHelp? {
            switch value {
            case .hex: "Read FILE as a hex dump."
            case .raw: "Read FILE as raw frames."
            }
        }
    }

    @Argument(help: "The frame file to inspect (default, or '-': standard input).")
    var file: String = "-"

    @Option(
        help:
            "Output format: text for people, json for programs (schema groupwire.inspect/1), jsonl for one decoded message a line (needs --spec)."
    )
    var format: OutputFormat = .text

    @Flag(exclusivity: .exclusive)
    var input: InputFormat?

    @Option(name: .customLong("dictionary"), help: "A zstd dictionary for bodies compressed with one (repeatable).")
    var dictionaries: [String] = []

    @Option(name: .customLong("spec"), help: "With --format jsonl: a spec payloads are decoded by (repeatable).")
    var specs: [String] = []

    @Option(name: .customLong("type"), help: "With --format jsonl: only messages of this type (repeatable).")
    var types: [String] = []

    @Option(
        name: .customLong("participant"),
        help: "With --format jsonl: only messages from or to this participant, a UUID or its first characters (repeatable).")
    var participants: [String] = []

    func validate() throws {
        if format != .jsonl, !(specs.isEmpty && types.isEmpty && participants.isEmpty) {
            throw ValidationError("--spec, --type and --participant go with --format jsonl")
        }
        if format == .jsonl, specs.isEmpty {
            throw ValidationError("--format jsonl decodes payloads by a spec: give it with --spec FILE")
        }
    }

    func run() throws {
        let fileFormat: FrameFileFormat? =
            switch input {
            case .hex: .hex
            case .raw: .raw
            case nil: nil
            }
        if format == .jsonl {
            var tool = InspectMessagesTool(path: file, specPaths: specs)
            tool.dictionaryPaths = dictionaries
            tool.fileFormat = fileFormat
            tool.types = types
            tool.participants = participants
            try StandardStreams.exit(tool.run(output: StandardStreams.streaming()))
            return
        }
        try StandardStreams.exit(
            InspectTool.run(
                path: file, json: format == .json, fileFormat: fileFormat, dictionaryPaths: dictionaries,
                output: StandardStreams.streaming()))
    }
}
