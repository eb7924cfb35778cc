import Foundation
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// Access to the example specs in Spec/Examples and small compile helpers.
enum Examples {
    /// The repository root.
    static var root: URL { RepositoryPaths.root }

    /// The absolute path of an example, e.g. `DrawTogether.gwspec` or `Versions/DrawTogether-v2.gwspec`.
    static func path(_ name: String) -> String {
        root.appendingPathComponent("Spec/Examples").appendingPathComponent(name).path
    }

    /// Compiles an example from disk.
    static func compile(_ name: String) throws -> SpecCompilation {
        try SpecCompiler().compile(entry: path(name), loader: FileSpecLoader())
    }

    /// Compiles an example and requires it to be free of diagnostics.
    static func spec(_ name: String) throws -> SpecSet {
        let compilation = try compile(name)
        #expect(compilation.diagnostics.isEmpty, "\(compilation.renderedDiagnostics)")
        return try compilation.checkedSpec()
    }
}

/// Compiles in-memory source and returns its diagnostics.
func diagnostics(_ source: String, path: String = "t.gwspec", otherFiles: [String: String] = [:]) -> [Diagnostic] {
    SpecCompiler().compile(source: source, path: path, otherFiles: otherFiles).diagnostics
}

/// Compiles in-memory source that must be valid.
func validSpec(_ source: String, path: String = "t.gwspec", otherFiles: [String: String] = [:]) throws -> SpecSet {
    let compilation = SpecCompiler().compile(source: source, path: path, otherFiles: otherFiles)
    #expect(compilation.diagnostics.isEmpty, "\(compilation.renderedDiagnostics)")
    return try compilation.checkedSpec()
}
