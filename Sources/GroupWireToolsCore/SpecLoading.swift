import GroupWireSpec

/// Compiles spec files for the commands, turning problems into command results.
package enum SpecLoading {
    /// Compiles `path` from disk.
    /// - Throws: ``ToolFailure`` with status 2 when the file cannot be read or has errors
    ///   (its diagnostics rendered compiler-style).
    package static func load(_ path: String, loader: some SpecLoader = FileSpecLoader()) throws(ToolFailure) -> (
        spec: SpecSet, warnings: String, sources: [String: String]
    ) {
        let compilation = try compile(path, loader: loader)
        guard !compilation.hasErrors, let spec = try? compilation.checkedSpec() else {
            throw ToolFailure(
                result: ToolResult(
                    messages: compilation.renderedDiagnostics + ToolResult.errorLine("\(path): the spec has errors"),
                    status: .failure))
        }
        return (spec, compilation.renderedDiagnostics, compilation.sources)
    }

    /// Runs `body` with the spec at `path`, or returns the failure to load it (status 2).
    package static func withSpec(_ path: String, _ body: (SpecSet) -> ToolResult) -> ToolResult {
        do throws(ToolFailure) {
            return body(try load(path).spec)
        } catch {
            return error.result
        }
    }

    /// Compiles `path` from disk without judging its diagnostics.
    /// - Throws: ``ToolFailure`` with status 2 when the file cannot be read.
    package static func compile(_ path: String, loader: some SpecLoader = FileSpecLoader()) throws(ToolFailure) -> SpecCompilation
    {
        do throws(SpecError) {
            return try SpecCompiler().compile(entry: path, loader: loader)
        } catch {
            // ToolFailure adds `groupwire: error:`; the location (when there is one) leads.
            throw ToolFailure(error.location.map { "\($0): \(error.context)" } ?? error.context)
        }
    }
}
