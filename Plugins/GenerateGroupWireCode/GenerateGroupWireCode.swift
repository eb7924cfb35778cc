import Foundation
import PackagePlugin

/// Command plugin: `swift package generate-groupwire-code --target NAME... [--access-level L]
/// [--observed-decoding]` writes the generated Swift of each target's `.gwspec` files into
/// the target's `Generated/` folder, for packages that check generated code in instead of
/// using the build plugin. Only files whose content changed are written (by
/// `groupwire-generate`, which takes the two options as it does on its command line).
@main
struct GenerateGroupWireCode: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let accessLevel = extractor.extractOption(named: "access-level").last
        let observedDecoding = extractor.extractFlag(named: "observed-decoding") > 0
        // Targets are named explicitly: a target that also applies GroupWireGeneratorPlugin
        // would get every type twice, and plugins cannot see which targets do.
        guard !targetNames.isEmpty else {
            Diagnostics.error("name the targets to generate into: --target NAME (repeatable)")
            return
        }
        let targets = try context.package.targets(named: targetNames)
        let tool = try context.tool(named: "groupwire-generate")
        for case let target as SourceModuleTarget in targets {
            let specs = target.sourceFiles(withSuffix: "gwspec").map(\.url).sorted { $0.path < $1.path }
            guard !specs.isEmpty else { continue }
            let output = target.directoryURL.appending(path: "Generated")
            var arguments = ["--entry-only", "--output", output.path(percentEncoded: false)]
            if let accessLevel {
                arguments += ["--access-level", accessLevel]
            }
            if observedDecoding {
                arguments.append("--observed-decoding")
            }
            arguments += specs.map { $0.path(percentEncoded: false) }
            let process = Process()
            process.executableURL = tool.url
            process.arguments = arguments
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                Diagnostics.error("groupwire-generate failed for target \(target.name) (exit \(process.terminationStatus))")
                return
            }
            print("Generated Swift for \(specs.count) spec file(s) of \(target.name) in \(output.path(percentEncoded: false))")
        }
    }
}
