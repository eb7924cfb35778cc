import ArgumentParser
import GroupWireTools
import GroupWireToolsCore

/// `groupwire dissector --spec SPEC... -o groupwire.lua`.
struct DissectorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dissector",
        abstract: "Generate a Wireshark dissector (Lua) for the specs, the envelope and the relay.",
        discussion: """
            The dissector shows every header field of a frame (delivery, fragment, session, \\
            compression), control frames by name, the capture pseudo-header, the relay's \\
            routing header and messages, and the fields of uncompressed, unfragmented \\
            payloads by name and type (groupwire.TYPE.FIELD). Compressed and fragmented \\
            bodies are shown raw with their headers: Wireshark's Lua has no zstd. It \\
            registers for captures of link type 147 (GROUPWIRE_CAPTURE) and for WebSocket \\
            payloads on the relay's port (--port, and the preference GroupWire relay > \\
            Relay port). Use: tshark -X lua_script:groupwire.lua -r CAPTURE, or copy the \\
            file into Wireshark's personal Lua plugins folder. Several --spec files (app \\
            versions) merge by field number.
            """
    )

    @Option(name: .customLong("spec"), help: "A spec whose messages are dissected (repeatable; at least one).")
    var specs: [String] = []

    @Option(name: .shortAndLong, help: "Where to write the Lua file ('-': standard output).")
    var output: String = "-"

    @Option(help: "The relay's TCP port, whose WebSocket payloads are dissected.")
    var port: Int = 8_787

    func run() throws {
        var tool = DissectorTool(specPaths: specs, output: output)
        tool.relayPort = port
        try StandardStreams.finish(tool.run())
    }
}
