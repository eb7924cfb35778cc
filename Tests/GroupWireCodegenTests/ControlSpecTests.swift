import Foundation
import GroupWireTestSupport
import Testing

@testable import GroupWireCodegen

/// The generator carries Spec/Control.gwspec as text (ControlSpecText.swift) for the
/// dissector's control names; it must be the file, byte for byte. `make regenerate`
/// (GROUPWIRE_RECORD_GOLDENS=1) rewrites the Swift file from the spec.
@Suite struct ControlSpecTests {
    static let swiftFile = "Sources/GroupWireCodegen/Dissector/ControlSpecText.swift"

    /// The Swift file that embeds `spec`.
    static func embedding(_ spec: String) -> String {
        let lines = spec.split(separator: "\n", omittingEmptySubsequences: false).dropLast(spec.hasSuffix("\n") ? 1 : 0)
        return """
            // DO NOT EDIT: Spec/Control.gwspec as text, written by `make regenerate`
            // (ControlSpecTests, GROUPWIRE_RECORD_GOLDENS=1). Edit the spec and regenerate.

            extension ControlSpec {
                /// The text of Spec/Control.gwspec.
                static let text = #\"\"\"

            """ + lines.map { $0.isEmpty ? "\n" : "        \($0)\n" }.joined() + "        \"\"\"#\n}\n"
    }

    @Test func theEmbeddedTextIsTheSpecFile() throws {
        let spec = String(decoding: try RepositoryPaths.bytes(ControlSpec.path), as: UTF8.self)
        if GoldenFileTests.isRecording {
            try Data(Self.embedding(spec).utf8).write(to: RepositoryPaths.root.appendingPathComponent(Self.swiftFile))
            Issue.record("Recorded \(Self.swiftFile); run the tests again without GROUPWIRE_RECORD_GOLDENS.")
            return
        }
        #expect(ControlSpec.text + "\n" == spec, "\(Self.swiftFile) is not \(ControlSpec.path); run `make regenerate`")
        let recorded = String(decoding: try RepositoryPaths.bytes(Self.swiftFile), as: UTF8.self)
        #expect(recorded == Self.embedding(spec))
    }

    @Test func theControlIDsAreTheRegistryOfTheFormat() {
        // Spec/FORMAT.md, "Control ids": session control 1–5, the hello 16, the acknowledgement 32.
        #expect(ControlSpec.controlNames.map(\.number) == [1, 2, 3, 4, 5, 16, 32])
        #expect(
            ControlSpec.controlNames.map(\.name) == ["activate", "join", "leave", "replace", "end", "hello", "acknowledgement"])
        #expect(
            ControlSpec.luaTable
                == #"{ [1] = "activate", [2] = "join", [3] = "leave", [4] = "replace", [5] = "end", [16] = "hello", [32] = "acknowledgement" }"#
        )
    }
}
