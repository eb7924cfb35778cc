import ArgumentParser
import GroupWireTools

extension SpecDiffTool.Format: ExpressibleByArgument {}

/// `groupwire spec diff OLD NEW`.
struct SpecDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Report whether peers on two versions of a spec can talk.",
        discussion: "Exit 0 when the change is compatible, 1 when it breaks, 2 when a spec cannot be read or has errors."
    )

    @Argument(help: "The old spec file.")
    var old: String

    @Argument(help: "The new spec file.")
    var new: String

    @Option(help: "Report format: text or json.")
    var format: SpecDiffTool.Format = .text

    func run() throws {
        try StandardStreams.finish(SpecDiffTool(oldPath: old, newPath: new, format: format).run())
    }
}
