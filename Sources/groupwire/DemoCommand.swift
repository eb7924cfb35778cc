import ArgumentParser
import GroupWireTools

/// `groupwire demo --output FILE`: writes example frames to try the other commands on.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Write example frames (UpsertStroke, CanvasSnapshot, PlaybackState) to a frame file.",
        discussion: """
            The messages are built with the types generated from Spec/Examples: an \
            UpsertStroke, a small CanvasSnapshot and a PlaybackState as data frames, then a \
            large CanvasSnapshot compressed with zstd and cut into fragment frames. The file \
            is the same on every run.

            Try: groupwire demo --output demo.gwf && groupwire inspect demo.gwf && \
            groupwire decode --spec Spec/Examples/Demo.gwspec demo.gwf
            """
    )

    @Option(name: [.short, .long], help: "The frame file to write (replaced if it exists).")
    var output: String

    @Flag(help: "Write a commented hex dump instead of raw frames.")
    var hex = false

    func run() throws {
        try StandardStreams.finish(DemoTool.run(outputPath: output, fileFormat: hex ? .hex : .raw))
    }
}
