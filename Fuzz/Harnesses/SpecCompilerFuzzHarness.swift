// Shared by the FuzzSpecCompiler target (Fuzz/Sources/FuzzSpecCompiler, where a violation
// traps) and its corpus replay test (Tests/GroupWireSpecTests/Fuzz, where it is an
// expectation): both depend on the GroupWireFuzzChecks product, so they run the same checks.
import Foundation
import GroupWireSpec

/// The one file fuzzed specs may import, `Common.gwspec` (the examples' shared types, read
/// from Spec/Examples, found from this file's path).
let specFuzzOtherFiles: [String: String] = {
    let url = fuzzRepositoryFile("Spec/Examples/Common.gwspec")
    guard let common = try? String(contentsOf: url, encoding: .utf8) else {
        preconditionFailure("cannot read \(url.path)")
    }
    return ["Common.gwspec": common]
}()

/// Compiles a fuzz input as spec text (invalid UTF-8 is decoded lossily) and returns every
/// invariant it breaks (empty: none).
///
/// Invariants: compiling never traps; every diagnostic of the entry file points at a line
/// of the text and a column at most one past that line's end (columns count UTF-8 bytes);
/// rendering the diagnostics never traps; a spec without errors compiles again to the same
/// canonical text and fingerprint.
public func specCompilerFuzzViolations(_ input: [UInt8]) -> [String] {
    let text = String(decoding: input, as: UTF8.self)
    let path = "fuzz.gwspec"
    let compilation = SpecCompiler().compile(source: text, path: path, otherFiles: specFuzzOtherFiles)
    let lineLengths = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map(\.count)
    var violations: [String] = []
    for diagnostic in compilation.diagnostics where diagnostic.location.file == path {
        let location = diagnostic.location
        guard location.line >= 1, location.line <= lineLengths.count else {
            violations.append("diagnostic on line \(location.line) of \(lineLengths.count): \(diagnostic)")
            continue
        }
        if location.column < 1 || location.column > lineLengths[location.line - 1] + 1 {
            violations.append("diagnostic at column \(location.column) of a \(lineLengths[location.line - 1])-byte line: \(diagnostic)")
        }
    }
    _ = compilation.renderedDiagnostics
    if !compilation.hasErrors {
        let again = SpecCompiler().compile(source: text, path: path, otherFiles: specFuzzOtherFiles)
        if again.hasErrors { violations.append("a spec without errors has errors when compiled again") }
        if again.spec.canonicalText != compilation.spec.canonicalText {
            violations.append("canonical text differs between two compilations")
        }
        if again.spec.fingerprint != compilation.spec.fingerprint {
            violations.append("fingerprint differs between two compilations")
        }
    }
    return violations
}
