import Foundation
import GroupWireCodegen
import GroupWireSpec

/// `groupwire generate SPEC... --output DIR`: Swift types for spec files, written only
/// where the content changed (so builds depending on them do not rerun).
package struct GenerateTool: Sendable {
    /// The spec files.
    package var paths: [String]
    /// The folder the Swift files go to (created when missing).
    package var outputDirectory: String
    /// How the Swift is written.
    package var options: GeneratorOptions

    /// Creates the tool.
    /// - Parameters:
    ///   - paths: spec files; each one's imports are generated too unless
    ///     `options.files` is ``GroupWireCodegen/GeneratorOptions/FileSelection/entryOnly``.
    ///   - outputDirectory: where to write.
    ///   - options: access level and file selection.
    package init(paths: [String], outputDirectory: String, options: GeneratorOptions) {
        self.paths = paths
        self.outputDirectory = outputDirectory
        self.options = options
    }

    /// Generates and writes the files.
    /// - Returns: one line per file (`wrote PATH` or `unchanged PATH`) on standard output;
    ///   status 2 when a spec cannot be read or has errors, two specs would write different
    ///   contents to one file, or a file cannot be written.
    package func run() -> ToolResult {
        var result = ToolResult()
        var files: [String: String] = [:]
        var order: [String] = []
        let generator = CodeGenerator(options: options)
        for path in paths {
            let loaded: (spec: SpecSet, warnings: String, sources: [String: String])
            do throws(ToolFailure) {
                loaded = try SpecLoading.load(path)
            } catch {
                result.messages += error.result.messages
                result.status = .failure
                continue
            }
            result.messages += loaded.warnings
            for file in generator.generate(loaded.spec, sources: loaded.sources) {
                if let existing = files[file.path] {
                    if existing != file.contents {
                        result.messages += ToolResult.errorLine(
                            "two spec files would generate different \(file.path); rename one of them")
                        result.status = .failure
                    }
                    continue
                }
                files[file.path] = file.contents
                order.append(file.path)
            }
        }
        guard result.status == .ok else { return result }
        var lines: [String] = []
        let directory = URL(fileURLWithPath: outputDirectory)
        for name in order {
            let destination = directory.appendingPathComponent(name)
            let data = Data((files[name] ?? "").utf8)
            if let existing = try? Data(contentsOf: destination), existing == data {
                lines.append("unchanged \(destination.path)")
                continue
            }
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try data.write(to: destination, options: .atomic)
                lines.append("wrote \(destination.path)")
            } catch {
                result.messages += ToolResult.errorLine("cannot write \(destination.path): \(error.localizedDescription)")
                result.status = .failure
            }
        }
        result.output = Array(lines.map { $0 + "\n" }.joined().utf8)
        return result
    }
}
