import ArgumentParser
import GroupWireTools

/// `groupwire demo --output FILE`: writes example frames to try the other commands on.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Write example frames (UpsertStroke, CanvasSnapshot, PlaybackState) to a frame file.",
        discussion: "Try: groupwire demo --output demo.gwf && groupwire inspect demo.gwf"
    )

    @Option(name: [.short, .long], help: "The frame file to write (replaced if it exists).")
    var output: String

    @Flag(help: "Write a commented hex dump instead of raw frames.")
    var hex = false

    func run() throws {
        try StandardStreams.finish(DemoTool.run(outputPath: output, fileFormat: hex ? .hex : .raw))
    }
}
