import ArgumentParser
import GroupWireCapture
import GroupWireTools

/// `groupwire inspect FILE`: prints every frame's header fields and payload dump.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the header fields and payload of every frame in a frame file.",
        discussion: """
            FILE (default, or '-': standard input) holds frames back to back, raw or as a \
            hex dump (plain hex, the lines 'groupwire demo --hex' writes, xxd -p, xxd, \
            hexdump -C; '#' comments). The format is detected from the first bytes read \
            (up to 64 KiB): input starting with the magic byte 0xC7 is raw; text (UTF-8, no \
            control characters but tab, CR and LF) is hex; anything else is raw. --hex or \
            --raw overrides the detection. The input is read as a stream: each frame is \
            printed as soon as it is read, and memory stays flat however large the input. \
            With --format json the entries come one a line and the counts after them.

            Exit status: 0 when every frame is valid, 1 when some are not (each is reported \
            with its byte offset and reason, and the frames after it are still read), 2 for \
            usage errors, unreadable files, malformed hex and unreadable or invalid \
            dictionaries. Compressed bodies are decompressed to dump their payload; those \
            compressed with a dictionary need it given with --dictionary.
            """
    )

    /// How the report is printed.
    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
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

    @Option(help: "Output format: text for people, json for programs (schema groupwire.inspect/1).")
    var format: OutputFormat = .text

    @Flag(exclusivity: .exclusive)
    var input: InputFormat?

    @Option(name: .customLong("dictionary"), help: "A zstd dictionary for bodies compressed with one (repeatable).")
    var dictionaries: [String] = []

    func run() throws {
        let fileFormat: FrameFileFormat? =
            switch input {
            case .hex: .hex
            case .raw: .raw
            case nil: nil
            }
        try StandardStreams.exit(
            InspectTool.run(path: file, json: format == .json, fileFormat: fileFormat, dictionaryPaths: dictionaries,
                            output: StandardStreams.streaming()))
    }
}
