import ArgumentParser
import GroupWireToolsCore

/// `groupwire generate SPEC... --output DIR`: the same command line as `groupwire-generate`.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate", abstract: GenerateArguments.abstract, discussion: GenerateArguments.discussion)

    @OptionGroup var arguments: GenerateArguments

    func run() throws {
        try StandardStreams.finish(arguments.tool(toolName: "groupwire generate").run())
    }
}
