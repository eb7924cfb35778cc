import ArgumentParser
import GroupWireTools

/// `groupwire encode --spec SPEC --type NAME`.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode a JSON message from standard input as the frames a messenger sends for it.",
        discussion: """
            One data frame, or fragment frames when the message is over --max-frame (default \
            65,536 bytes), as the library writes them. With --compress the payload is \
            compressed with zstd when it is 1 KiB or more; with --dictionary FILE, with that \
            dictionary when it is 128 bytes or more (the default policy). With --lines each \
            message's frames follow the previous one's; fragmented messages are numbered from \
            --message-id.

            Exit 1 when the JSON is invalid or does not fit the message (the error names its \
            JSON path), 2 for spec or usage errors and unreadable dictionaries.
            """
    )

    @Option(help: "The spec file declaring the message.")
    var spec: String

    @Option(help: "The message name, e.g. UpsertStroke.")
    var type: String

    @Flag(help: "Write lowercase hex, one frame per line, instead of raw bytes.")
    var hex = false

    @Flag(help: "Read JSON Lines: one message per line, one frame each.")
    var lines = false

    @Flag(help: "Keep fields the spec does not declare, as \"$unknownFields\" (base64 of the raw fields).")
    var keepUnknown = false

    @Flag(help: "Compress payloads of 1 KiB and more with zstd.")
    var compress = false

    @Option(help: "Compress payloads of 128 bytes and more with this zstd dictionary (a file 'groupwire dict train' writes).")
    var dictionary: String?

    @Option(help: "The largest frame to write (64 to 16,777,216 bytes); larger messages go out in fragments.")
    var maxFrame: Int?

    @Option(help: "The message id of the first fragmented message.")
    var messageId: UInt64 = 1

    func run() throws {
        let input = try StandardStreams.input(nil)
        var tool = EncodeTool(specPath: spec, typeName: type, hex: hex, lines: lines)
        tool.keepsUnknownFields = keepUnknown
        tool.compresses = compress
        tool.dictionaryPath = dictionary
        tool.maxFrameSize = maxFrame
        tool.firstMessageID = messageId
        try StandardStreams.finish(tool.run(input: input))
    }
}
