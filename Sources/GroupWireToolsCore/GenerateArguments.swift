import ArgumentParser
import GroupWireCodegen

/// The command line of `groupwire generate` and of `groupwire-generate` (the build
/// plugin's tool), one definition for both: `SPEC... --output DIR [--access-level LEVEL]
/// [--entry-only] [--observed-decoding]`.
///
/// Exit codes, the same for both: 0 success, 2 when a spec cannot be read or has errors, a
/// file cannot be written or the command line is wrong.
package struct GenerateArguments: ParsableArguments {
    /// The one-line description both commands show.
    package static let abstract = "Generate Swift types for spec files."

    /// The longer description both commands show.
    package static let discussion = """
        Writes one Swift file per spec file (imports included unless --entry-only), only \
        where the content changed. Exit 2 on spec or I/O errors.
        """

    /// Spec files (.gwspec).
    @Argument(help: "Spec files (.gwspec).")
    package var specs: [String] = []

    /// The folder to write the Swift files to.
    @Option(help: "The folder to write the Swift files to.")
    package var output: String

    /// Access level of the generated declarations.
    @Option(help: "Access level of the generated declarations: public, package or internal.")
    package var accessLevel: String = "public"

    /// Whether to generate only the given spec files, not the files they import.
    @Flag(help: "Generate only the given spec files, not the files they import.")
    package var entryOnly = false

    /// Whether structs and messages also get a decoder that reports to a `WireDecodingObserver`.
    @Flag(
        help: """
            Also give structs and messages a decoder that reports each field to a WireDecodingObserver \
            as it reads it, for checks the spec cannot state.
            """)
    package var observedDecoding = false

    /// Creates empty arguments (ArgumentParser fills them in).
    package init() {}

    /// Checks what ArgumentParser cannot: at least one spec, a known access level.
    package func validate() throws {
        guard !specs.isEmpty else { throw ValidationError("give at least one spec file") }
        guard GeneratorOptions.AccessLevel(accessLevel) != nil else {
            throw ValidationError("unknown access level '\(accessLevel)'; use public, package or internal")
        }
    }

    /// The generator run these arguments ask for.
    /// - Parameter toolName: the tool named in the generated files' DO NOT EDIT stamp.
    package func tool(toolName: String) -> GenerateTool {
        let level = GeneratorOptions.AccessLevel(accessLevel) ?? .public
        let options = GeneratorOptions(
            accessLevel: level, files: entryOnly ? .entryOnly : .all, toolName: toolName, observedDecoding: observedDecoding)
        return GenerateTool(paths: specs, outputDirectory: output, options: options)
    }
}
