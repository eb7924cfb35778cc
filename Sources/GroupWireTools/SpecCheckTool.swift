import GroupWireSpec

/// `groupwire spec check SPEC...`: compiles each spec and prints its diagnostics
/// compiler-style (`file:line:col: error: …` with the source line and a caret).
package struct SpecCheckTool: Sendable {
    /// The spec files to check.
    package var paths: [String]

    /// Creates the tool.
    package init(paths: [String]) {
        self.paths = paths
    }

    /// Checks every spec.
    /// - Returns: diagnostics on standard error, one summary line per spec on standard
    ///   output; status 0 when no spec has errors (warnings allowed), 2 otherwise.
    package func run() -> ToolResult {
        var result = ToolResult()
        var summary: [String] = []
        for path in paths {
            let compilation: SpecCompilation
            do throws(ToolFailure) {
                compilation = try SpecLoading.compile(path)
            } catch {
                result.messages += error.result.messages
                result.status = .failure
                continue
            }
            result.messages += compilation.renderedDiagnostics
            let errors = compilation.errors.count
            let warnings = compilation.diagnostics.count - errors
            if errors > 0 {
                result.status = .failure
                summary.append("\(path): \(plural(errors, "error")), \(plural(warnings, "warning"))")
            } else {
                let messages = compilation.spec.messages.count
                summary.append("\(path): ok, \(plural(messages, "message")), \(plural(warnings, "warning"))")
            }
        }
        result.output = Array(summary.map { $0 + "\n" }.joined().utf8)
        return result
    }
}

/// `1 error`, `2 errors`.
func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
