import ArgumentParser
import GroupWireSession
import GroupWireTools

/// `groupwire simulate`: DrawTogether over the fault-injecting hub, in one process.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run DrawTogether through the whole pipeline over a simulated lossy network and report.",
        discussion: """
            Three participants (ana, ben, cleo) start a session and draw, each behind the \
            full pipeline: session coordinator, messenger with zstd, delivery layer, over \
            the in-process hub with seeded loss, duplication, reordering and delay. dan joins \
            late and catches up from compressed, fragmented snapshots; cleo leaves. The \
            report shows what each received and what the delivery layer retransmitted. \
            Time is simulated, so the run is instant; the same seed injects the same faults \
            and each participant receives the same strokes, while the delivery layer's \
            counts (and with --watch, the errors) vary a little from run to run with how \
            the participants' tasks interleave within one simulated instant. Exits 1 when a \
            mode's promise does not hold.

            With --watch: watch together instead (GroupWirePlayback, Spec/PLAYBACK.md). \
            Four participants whose clocks are up to 500 ms off and 100 ppm fast or slow \
            watch ten simulated minutes of a film: play, a seek, a pause and a play from \
            different participants, a stall the group waits out, a late joiner. It prints \
            each participant's distance from the group's timeline minute by minute, the \
            messages each sent, and the checks; exits 1 when one does not hold or the p99 \
            error is 20 ms or more.
            """
    )

    @Option(help: "The seed of the injected faults.")
    var seed: UInt64 = 1

    @Option(help: "The probability that a message is lost (0...1); 0.1 by default, 0.05 with --watch.")
    var drop: Double?

    @Option(help: "The probability that a message is delivered twice (0...1); not with --watch.")
    var duplicate = 0.05

    @Option(help: "The probability that a message is held back 50 ms (0...1); not with --watch.")
    var reorder = 0.1

    @Option(help: "reliable, unreliable or both; not with --watch (always reliable).")
    var mode = "both"

    @Option(help: "Strokes each of the first three participants sends (1...1000); not with --watch.")
    var strokes = 20

    @Flag(help: "Watch together: coordinated playback of a film instead of drawing.")
    var watch = false

    @Option(help: "With --watch: milliseconds of delay over the 5 ms every message takes (0...1000).")
    var jitter = 45

    func validate() throws {
        guard ["reliable", "unreliable", "both"].contains(mode) else {
            throw ValidationError("--mode must be reliable, unreliable or both, not '\(mode)'")
        }
    }

    func run() throws {
        if watch {
            var options = WatchSimulationTool.Options()
            options.seed = seed
            options.jitter = jitter
            options.drop = drop ?? 0.05
            let watching = options
            try StandardStreams.finish(SimulateTool.runBlocking { await WatchSimulationTool.run(watching) })
            return
        }
        var options = SimulateTool.Options()
        options.seed = seed
        options.drop = drop ?? 0.1
        options.duplicate = duplicate
        options.reorder = reorder
        options.strokes = strokes
        options.modes = mode == "both" ? [.reliable, .unreliable] : mode == "reliable" ? [.reliable] : [.unreliable]
        try StandardStreams.finish(SimulateTool.runBlocking(options))
    }
}
