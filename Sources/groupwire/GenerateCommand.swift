import ArgumentParser
import GroupWireCodegen
import GroupWireTools

/// `groupwire generate SPEC... --output DIR`.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate Swift types for spec files.",
        discussion: "Writes one Swift file per spec file (imports included unless --entry-only), only where the content changed. Exit 2 on spec or I/O errors."
    )

    @Argument(help: "Spec files (.gwspec).")
    var specs: [String]

    @Option(help: "The folder to write the Swift files to.")
    var output: String

    @Option(help: "Access level of the generated declarations: public, package or internal.")
    var accessLevel: String = "public"

    @Flag(help: "Generate only the given spec files, not the files they import.")
    var entryOnly = false

    func validate() throws {
        guard !specs.isEmpty else { throw ValidationError("give at least one spec file") }
        guard GeneratorOptions.AccessLevel(accessLevel) != nil else {
            throw ValidationError("unknown access level '\(accessLevel)'; use public, package or internal")
        }
    }

    func run() throws {
        let level = GeneratorOptions.AccessLevel(accessLevel) ?? .public
        let options = GeneratorOptions(accessLevel: level, files: entryOnly ? .entryOnly : .all, toolName: "groupwire generate")
        try StandardStreams.finish(GenerateTool(paths: specs, outputDirectory: output, options: options).run())
    }
}
