import Foundation
import GroupWireSpec
import GroupWireTesting
import Testing

/// Throws garbage at the lexer, parser and checker: nothing may trap or hang, and every
/// diagnostic must point inside the input.
@Suite struct FuzzInputTests {
    /// Compiles `text` and checks the invariants that hold for any input.
    private func survive(_ text: String, against baseline: SpecSet? = nil) {
        let compilation = SpecCompiler().compile(source: text, path: "f.gwspec")
        if let baseline {
            // The checker expects valid sets but must not trap on best-effort ones either.
            _ = CompatibilityChecker.compare(old: baseline, new: compilation.spec).renderText()
            _ = CompatibilityChecker.compare(old: compilation.spec, new: baseline).renderText()
        }
        let lineCount = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).count
        for diagnostic in compilation.diagnostics {
            #expect(diagnostic.location.line >= 1 && diagnostic.location.line <= lineCount, "\(diagnostic)")
            #expect(diagnostic.location.column >= 1, "\(diagnostic)")
        }
        _ = compilation.renderedDiagnostics
        _ = compilation.spec.canonicalText
        _ = CompatibilityChecker.compare(old: compilation.spec, new: compilation.spec).renderJSON()
    }

    @Test func randomBytesNeverTrap() {
        var random = SeededRandom(seed: 1)
        for _ in 0..<400 {
            let count = Int.random(in: 0..<300, using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            survive(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func randomTokenSoupNeverTraps() {
        let vocabulary = [
            "package", "version", "import", "message", "struct", "enum", "union", "reserved", "@", "@deprecated",
            "(", ")", "{", "}", "[", "]", ":", ",", ";", "=", "?", "-", ".", "...", "0", "1", "7", "99999999999999999999999",
            "0x", "0xFF", "1.5", "1e400", "\"s\"", "\"\\u{110000}\"", "\"", "/*", "*/", "//", "///", "\n", " ", "\t",
            "Int32", "String", "UUID", "Bytes", "Float32", "A", "B", "x", "true", "é", "\u{0}", "\\",
        ]
        var random = SeededRandom(seed: 2)
        for _ in 0..<600 {
            let count = Int.random(in: 0..<80, using: &random)
            var text = ""
            for _ in 0..<count {
                text += vocabulary[Int.random(in: 0..<vocabulary.count, using: &random)]
                if Bool.random(using: &random) { text += " " }
            }
            survive(text)
        }
    }

    @Test func mutatedExamplesNeverTrap() throws {
        var random = SeededRandom(seed: 3)
        let names = ["DrawTogether.gwspec", "Versions/DrawTogether-v2.gwspec", "Versions/DrawTogether-v3.gwspec"]
        let sources = try names.map { Array(try String(contentsOfFile: Examples.path($0), encoding: .utf8).utf8) }
        let baselines = try names.map { try Examples.spec($0) }
        for round in 0..<300 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...8, using: &random) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.remove(at: index)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                default: bytes[index] = bytes[Int.random(in: 0..<bytes.count, using: &random)]
                }
            }
            survive(String(decoding: bytes, as: UTF8.self), against: baselines[round % baselines.count])
        }
    }

    @Test func deeplyNestedTypesStopAtTheNestingLimit() {
        let text = "package t version 1\nstruct S {\n    1 a: " + String(repeating: "[", count: 50_000) + "Int32\n}\n"
        let found = diagnostics(text)
        #expect(found.first?.description == "t.gwspec:3:26: error: type is nested more than 16 levels deep")
    }

    /// Their speed is the spec benchmark's and the fuzzer's to watch (a timed unit test
    /// fails on a busy machine); here: no trap, and the diagnostics stay bounded.
    @Test func longRunsOfGarbageAreBounded() {
        for text in [
            String(repeating: "$", count: 50_000), String(repeating: "{", count: 50_000), String(repeating: "}", count: 50_000),
            "package t version 1\n" + String(repeating: "struct S {\n", count: 5_000), String(repeating: "\"", count: 25_000),
            String(repeating: "/*", count: 25_000),
        ] {
            survive(text)
            let found = diagnostics(text)
            // The parser stops at the limit; the checks of what it parsed add at most one each.
            #expect(
                !found.isEmpty && found.count < 2 * SpecLimits.default.maxDiagnosticsPerFile, "\(text.prefix(20)): \(found.count)"
            )
        }
    }

    @Test func theParserStopsCollectingAfterTheDiagnosticLimit() {
        let text = "package t version 1\nstruct S {\n" + String(repeating: "nonsense\n", count: 5_000)
        #expect(diagnostics(text).count == SpecLimits.default.maxDiagnosticsPerFile)
    }
}
