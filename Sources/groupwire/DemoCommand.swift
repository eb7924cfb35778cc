import ArgumentParser
import Foundation
import GroupWireTools

/// `groupwire demo`: a relay and participant processes on loopback; with `--output FILE`,
/// example frames to try the other commands on.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run DrawTogether across processes over a relay on loopback, or write example frames (--output).",
        discussion: """
            Without --output: starts groupwire relay on a loopback port (a free one unless \
            --port says which) and four \
            groupwire participant processes. ana, ben and cleo (cleo on the older spec \
            version 1) start a session and draw; dan joins late and catches up from a \
            compressed, fragmented snapshot; ben is killed with SIGKILL while drawing and the \
            others draw on. Then it prints a summary: participants, messages, bytes on the \
            wire against JSON, compression, fragments, catch-up time, and checks that every \
            stroke arrived once, in order. Run it from the GroupWire checkout (it reads \
            Spec/Examples) or pass --examples. Exits 1 when a check fails, 2 when a step does \
            not happen in time; every process it started is stopped, also on Ctrl-C.

            With --output FILE: the messages are built with the types generated from Spec/Examples: an \
            UpsertStroke, a small CanvasSnapshot and a PlaybackState as data frames, then a \
            large CanvasSnapshot compressed with zstd and cut into fragment frames. The file \
            is the same on every run.

            Try: groupwire demo --output demo.gwf && groupwire inspect demo.gwf && \
            groupwire decode --spec Spec/Examples/Demo.gwspec demo.gwf
            """
    )

    @Option(
        name: [.short, .long],
        help: "Write the example frames to this file (replaced if it exists) instead of running the relay demo.")
    var output: String?

    @Option(help: "The folder of the example specs (DrawTogether.gwspec and Versions/DrawTogether-v3.gwspec).")
    var examples = "Spec/Examples"

    @Option(help: "Strokes each participant draws in the first round (1...1000).")
    var strokes = 20

    @Option(
        help:
            "The relay's port on 127.0.0.1 (0 for a free one). With 8787, the port the generated Wireshark dissector watches by default, a capture of the demo is dissected as it is."
    )
    var port = 0

    @Option(
        help:
            "Keep each process's capture (relay.pcapng, ana.pcapng, …) and what it said (relay.log, ana.log, …) in this folder; by default they go to a temporary folder, removed once validated."
    )
    var captures: String?

    @Flag(help: "Write a commented hex dump instead of raw frames.")
    var hex = false

    @Flag(
        help:
            "Run the relay as three nodes of a cluster through a nats-server (which must be installed): the participants spread over the nodes, and cleo's node is killed mid-session."
    )
    var cluster = false

    func validate() throws {
        guard (1...1_000).contains(strokes) else { throw ValidationError("--strokes must be 1...1000, not \(strokes)") }
        guard output != nil || !hex else { throw ValidationError("--hex goes with --output") }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535, not \(port)") }
        guard output == nil || port == 0 else { throw ValidationError("--port goes with the relay demo, not --output") }
        guard output == nil || !cluster else { throw ValidationError("--cluster goes with the relay demo, not --output") }
        guard !cluster || port == 0 else { throw ValidationError("--cluster picks free ports: --port goes without it") }
    }

    func run() throws {
        if let output {
            try StandardStreams.finish(DemoTool.run(outputPath: output, fileFormat: hex ? .hex : .raw))
            return
        }
        guard let executable = Bundle.main.executableURL else {
            try StandardStreams.finish(
                .error("cannot find the groupwire executable to start the relay and participants with", status: .failure))
            return
        }
        var demo = RelayDemo(executable: executable)
        demo.examples = examples
        demo.strokes = strokes
        demo.port = port
        demo.captureFolder = captures
        demo.cluster = cluster
        try StandardStreams.finish(DemoTool.runRelayDemo(demo))
    }
}
