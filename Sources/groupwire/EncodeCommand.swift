import ArgumentParser
import GroupWireTools

/// `groupwire encode --spec SPEC --type NAME`.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode a JSON message from standard input as a data frame on standard output.",
        discussion: "Exit 1 when the JSON is invalid or does not fit the message (the error names its JSON path), 2 for spec or usage errors."
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

    func run() throws {
        let input = try StandardStreams.input(nil)
        var tool = EncodeTool(specPath: spec, typeName: type, hex: hex, lines: lines)
        tool.keepsUnknownFields = keepUnknown
        try StandardStreams.finish(tool.run(input: input))
    }
}
