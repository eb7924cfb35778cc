import Foundation
import GroupWireCodegen
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// The generated Swift for every example spec is checked in under Tests/GoldenGenerated and
/// compiled by the golden targets. These tests diff it byte for byte against the generator.
///
/// Re-record with `make regenerate` (GROUPWIRE_RECORD_GOLDENS=1): the files are rewritten
/// and the recording run fails, saying so, so a recording never passes silently.
@Suite("Golden generated files")
struct GoldenFileTests {
    /// One example spec and the golden folder holding its generated files.
    struct Golden: CustomTestStringConvertible, Sendable {
        var spec: String
        var folder: String
        var access: GeneratorOptions.AccessLevel = .public
        var observedDecoding = false
        var testDescription: String { "\(spec) → \(folder)" }
    }

    static let goldens = [
        Golden(spec: "Spec/Examples/DrawTogether.gwspec", folder: "Spec/Examples/Generated/DrawTogetherV1"),
        Golden(spec: "Spec/Examples/Versions/DrawTogether-v2.gwspec", folder: "Spec/Examples/Generated/DrawTogetherV2"),
        Golden(spec: "Spec/Examples/Versions/DrawTogether-v3.gwspec", folder: "Spec/Examples/Generated/DrawTogetherV3"),
        Golden(spec: "Spec/Examples/WatchTogether.gwspec", folder: "Spec/Examples/Generated/WatchTogether"),
        // With observed decoding: every shape of field through the observed decoder too.
        Golden(spec: "Tests/Specs/KitchenSink.gwspec", folder: "Tests/GoldenGenerated/KitchenSink", observedDecoding: true),
        Golden(spec: "Spec/vectors/payloads/EdgeCases.gwspec", folder: "Tests/GoldenGenerated/EdgeCases"),
        // Not a golden of a test target: GroupWire's own control bodies and hello, compiled into
        // GroupWireNegotiation (package access, for the session layer too), checked here like
        // the goldens. Observed, so the hello's checks run as it is read.
        Golden(
            spec: "Spec/Control.gwspec", folder: "Sources/GroupWireNegotiation/Generated", access: .package,
            observedDecoding: true),
        // The playback coordinator's messages, compiled into GroupWirePlayback (internal).
        Golden(spec: "Spec/Playback.gwspec", folder: "Sources/GroupWirePlayback/Generated", access: .internal),
    ]

    static var packageRoot: URL { RepositoryPaths.root }

    static var isRecording: Bool { ProcessInfo.processInfo.environment["GROUPWIRE_RECORD_GOLDENS"] == "1" }

    @Test("The checked-in Swift equals what the generator writes now", arguments: goldens)
    func goldenMatchesGenerator(_ golden: Golden) throws {
        let root = Self.packageRoot
        let compilation = try SpecCompiler().compile(
            entry: root.appendingPathComponent(golden.spec).path, loader: FileSpecLoader())
        let spec = try compilation.checkedSpec()
        let files = CodeGenerator(
            options: GeneratorOptions(accessLevel: golden.access, observedDecoding: golden.observedDecoding)
        ).generate(
            spec, sources: compilation.sources)
        let folder = root.appendingPathComponent(golden.folder)
        if Self.isRecording {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files {
                try Data(file.contents.utf8).write(to: folder.appendingPathComponent(file.path))
            }
            Issue.record(
                "Recorded \(files.count) golden file(s) in \(golden.folder); run the tests again without GROUPWIRE_RECORD_GOLDENS."
            )
            return
        }
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(
            onDisk == files.map(\.path).sorted(),
            "golden folder holds other files than the generator writes; run `make regenerate`")
        for file in files {
            let recorded = try String(contentsOf: folder.appendingPathComponent(file.path), encoding: .utf8)
            if recorded != file.contents {
                Issue.record(
                    "\(golden.folder)/\(file.path) differs from the generator's output at line \(Self.firstDifferentLine(recorded, file.contents)); run `make regenerate` if the change is intended"
                )
            }
        }
    }

    /// The 1-based number of the first line where `a` and `b` differ.
    static func firstDifferentLine(_ a: String, _ b: String) -> Int {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<min(left.count, right.count) where left[index] != right[index] {
            return index + 1
        }
        return min(left.count, right.count) + 1
    }
}
