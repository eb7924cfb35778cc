import Foundation
import PackagePlugin

/// Build tool plugin: generates Swift from the `.gwspec` files of the target it is applied
/// to, in SwiftPM packages and (through `XcodeBuildToolPlugin`) in Xcode app targets. It
/// only builds command lines; `groupwire-generate` does the work.
///
/// One command per spec file, writing exactly `<Name>.gwspec.swift` (what the generator
/// names the file, so an app's own `<Name>.swift` beside the spec is no second producer)
/// into the plugin's work folder. Every spec of the target is an input of every
/// command, because a spec's output depends on the files it imports.
@main
struct GroupWireGeneratorPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try Self.commands(
            specs: target.sourceFiles(withSuffix: "gwspec").map(\.url), workDirectory: context.pluginWorkDirectoryURL,
            tool: context.tool(named:))
    }

    /// The commands for `specs`, whoever hosts the plugin.
    static func commands(
        specs unsorted: [URL], workDirectory: URL, tool: (String) throws -> PluginContext.Tool
    ) throws -> [Command] {
        let specs = unsorted.sorted { $0.path < $1.path }
        guard !specs.isEmpty else { return [] }
        let generator = try tool("groupwire-generate")
        let output = workDirectory.appending(path: "GeneratedSources")
        return specs.map { spec in
            let swiftFile = output.appending(path: outputName(forSpec: spec.lastPathComponent))
            return .buildCommand(
                displayName: "Generating \(swiftFile.lastPathComponent) from \(spec.lastPathComponent)",
                executable: generator.url,
                arguments: ["--entry-only", "--output", output.path(percentEncoded: false), spec.path(percentEncoded: false)],
                inputFiles: specs,
                outputFiles: [swiftFile]
            )
        }
    }

    /// `Name.gwspec` → `Name.gwspec.swift`, as `CodeGenerator.outputPath(forSpec:)` names it.
    static func outputName(forSpec name: String) -> String {
        name + ".swift"
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension GroupWireGeneratorPlugin: XcodeBuildToolPlugin {
        /// The same commands for the `.gwspec` files of an Xcode target.
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            try Self.commands(
                specs: target.inputFiles.filter { $0.url.pathExtension == "gwspec" }.map(\.url),
                workDirectory: context.pluginWorkDirectoryURL, tool: context.tool(named:))
        }
    }
#endif
