import ArgumentParser
import GroupWireToolsCore

/// `groupwire-generate SPEC... --output DIR`, the build and command plugins' tool: the code
/// behind `groupwire generate` with the same flags and exit codes, built without the wire
/// core, zstd or the other commands so the plugins stay quick to build.
@main
struct GenerateMain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groupwire-generate", abstract: GenerateArguments.abstract, discussion: GenerateArguments.discussion,
        version: GroupWireVersion.current)

    @OptionGroup var arguments: GenerateArguments

    /// Runs the command line; usage mistakes exit 2 as they do from `groupwire generate`.
    static func main() {
        mainReportingUsageErrors(as: "groupwire-generate")
    }

    func run() throws {
        try StandardStreams.finish(arguments.tool(toolName: "groupwire-generate").run())
    }
}
