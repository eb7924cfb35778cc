import ArgumentParser
import Foundation
import GroupWireNetwork
import GroupWireTools

/// `groupwire participant`: one DrawTogether participant over a relay, driven line by line.
struct ParticipantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "participant",
        abstract: "Join a relay room as a DrawTogether participant, driven by commands on standard input.",
        discussion: """
            Connects to a relay (groupwire relay) with an access token (groupwire token), \
            negotiates with the given DrawTogether spec (version 1 or 3), starts the session \
            (--activate) or joins the one it is offered, and offers newcomers a canvas \
            snapshot of --canvas-strokes strokes of 200 points. Then it reads commands, one \
            per line: 'draw COUNT MILLISECONDS' sends COUNT numbered strokes that far apart, \
            'statistics' prints what it has sent, 'quit' (or the end of standard input) leaves. \
            Everything it sees (welcome, agreements, joins and leaves, strokes with their \
            numbers, snapshots with their catch-up time) is one JSON object per line on \
            standard output. groupwire demo runs several of these.
            """,
        shouldDisplay: false
    )

    @Option(help: "The relay's address.")
    var host = "127.0.0.1"

    @Option(help: "The relay's port.")
    var port: Int

    @Option(
        name: .customLong("also-port"),
        help:
            "Another relay node of the same cluster on the same host, tried when the connection is lost (repeatable); the participant then reconnects and sends through the delivery layer."
    )
    var alsoPorts: [Int] = []

    @Option(help: "The access token (or set \(ParticipantTool.tokenVariable)).")
    var token: String?

    @Option(help: "The spec to negotiate with: DrawTogether version 1 or 3.")
    var spec = "Spec/Examples/Versions/DrawTogether-v3.gwspec"

    @Flag(help: "Offer no compression.")
    var noZstd = false

    @Flag(help: "Start the session instead of waiting to be offered one.")
    var activate = false

    @Option(help: "Strokes of 200 points in the snapshot offered to newcomers (0...1000).")
    var canvasStrokes = 200

    @Option(help: "Seconds to wait for the relay, the session and the others (1...600).")
    var timeout = 20

    @Flag(help: "Connect over TLS (wss), trusting the system's roots unless --tls-ca names others.")
    var tls = false

    @Option(help: "A PEM file of the certificates to trust for the relay (implies --tls).")
    var tlsCa: String?

    @Option(help: "The name the relay's certificate must carry, if not --host (implies --tls).")
    var tlsServerName: String?

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be 1...65535, not \(port)") }
        for other in alsoPorts where !(1...65_535).contains(other) {
            throw ValidationError("--also-port must be 1...65535, not \(other)")
        }
        guard (0...1_000).contains(canvasStrokes) else {
            throw ValidationError("--canvas-strokes must be 0...1000, not \(canvasStrokes)")
        }
        guard (1...600).contains(timeout) else { throw ValidationError("--timeout must be 1...600 seconds, not \(timeout)") }
        guard token ?? ProcessInfo.processInfo.environment[ParticipantTool.tokenVariable] != nil else {
            throw ValidationError("no token: pass --token or set \(ParticipantTool.tokenVariable) (groupwire token makes one)")
        }
    }

    func run() throws {
        var tool = ParticipantTool(
            port: port, token: token ?? ProcessInfo.processInfo.environment[ParticipantTool.tokenVariable] ?? "",
            specPath: spec)
        tool.host = host
        tool.alternatives = alsoPorts
        tool.zstd = !noZstd
        tool.activate = activate
        tool.canvasStrokes = canvasStrokes
        tool.timeout = .seconds(timeout)
        if tls || tlsCa != nil || tlsServerName != nil {
            tool.tls = RelayClientTLS(trustRootsFile: tlsCa, serverName: tlsServerName)
        }
        try StandardStreams.finish(tool.runBlocking())
    }
}
