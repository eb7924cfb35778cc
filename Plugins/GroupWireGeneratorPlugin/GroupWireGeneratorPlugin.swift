import Foundation
import PackagePlugin

/// Build tool plugin: generates Swift from the `.gwspec` files of the target it is applied
/// to. It only builds command lines; `groupwire-generate` does the work.
///
/// One command per spec file, writing exactly `<Name>.swift` (what the generator names the
/// file) into the plugin's work folder. Every spec of the target is an input of every
/// command, because a spec's output depends on the files it imports.
@main
struct GroupWireGeneratorPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let specs = target.sourceFiles(withSuffix: "gwspec").map(\.url).sorted { $0.path < $1.path }
        guard !specs.isEmpty else { return [] }
        let tool = try context.tool(named: "groupwire-generate")
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources")
        return specs.map { spec in
            let swiftFile = output.appending(path: Self.outputName(forSpec: spec.lastPathComponent))
            return .buildCommand(
                displayName: "Generating \(swiftFile.lastPathComponent) from \(spec.lastPathComponent)",
                executable: tool.url,
                arguments: ["--output", output.path(percentEncoded: false), spec.path(percentEncoded: false)],
                inputFiles: specs,
                outputFiles: [swiftFile]
            )
        }
    }

    /// `Name.gwspec` → `Name.swift`, as `CodeGenerator.outputPath(forSpec:)` names it.
    static func outputName(forSpec name: String) -> String {
        (name.hasSuffix(".gwspec") ? String(name.dropLast(".gwspec".count)) : name) + ".swift"
    }
}
