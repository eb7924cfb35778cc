import Foundation
import GroupWireTestSupport
import Testing

/// The README's Package.swift and source snippets, built as a package of their own that
/// depends on this checkout (the `.package(url:from:)` line replaced by a path), as a user
/// would build them: the build plugin generates the spec's types and the snippet compiles.
///
/// It builds only the snippet's target (GroupWire and the plugin's tool, not zstd or the
/// CLI) in a fixed scratch folder under .build, so later runs are incremental.
@Suite struct ReadmePackageTests {
    /// The Swift code blocks of the README, in order.
    static func swiftBlocks() throws -> [String] {
        let readme = String(decoding: try RepositoryPaths.bytes("README.md"), as: UTF8.self)
        return readme.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "\n```").first }
    }

    @Test func theManifestIsCompleteAndNamesThePackageByURL() throws {
        let manifest = try #require(try Self.swiftBlocks().first { $0.hasPrefix("// swift-tools-version:") })
        #expect(manifest.contains("import PackageDescription"))
        #expect(manifest.contains(#".package(url: "https://github.com/groupwire/groupwire.git", from: ""#))
        #expect(manifest.contains(#".plugin(name: "GroupWireGeneratorPlugin", package: "groupwire")"#))
    }

    @Test(.timeLimit(.minutes(10)))
    func theSnippetsBuildAgainstThisCheckout() async throws {
        let blocks = try Self.swiftBlocks()
        let manifest = try #require(blocks.first { $0.hasPrefix("// swift-tools-version:") })
        let source = try #require(blocks.first { $0.hasPrefix("// Sources/Canvas/Strokes.swift") })
        let work = RepositoryPaths.url(".build/readme-package")
        let package = work.appendingPathComponent("Canvas")
        let sources = package.appendingPathComponent("Sources/Canvas")
        try? FileManager.default.removeItem(at: package)
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        // The package identity is the last path component: a link named `groupwire` to the checkout.
        let link = work.appendingPathComponent("groupwire")
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: RepositoryPaths.root)
        let url = #"url: "https://github.com/groupwire/groupwire.git", from: "0.1.0""#
        #expect(manifest.contains(url))
        try Data(manifest.replacingOccurrences(of: url, with: "path: \"\(link.path)\"").utf8)
            .write(to: package.appendingPathComponent("Package.swift"))
        try Data(source.utf8).write(to: sources.appendingPathComponent("Strokes.swift"))
        for spec in ["DrawTogether.gwspec", "Common.gwspec"] {
            try FileManager.default.copyItem(
                at: RepositoryPaths.url("Spec/Examples/\(spec)"), to: sources.appendingPathComponent(spec))
        }
        var environment = ProcessInfo.processInfo.environment
        environment["GROUPWIRE_WERROR"] = nil
        let build = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swift", "build", "--package-path", package.path, "--scratch-path", work.appendingPathComponent("scratch").path,
             "--target", "Canvas"],
            directory: package, environment: environment, timeLimit: .seconds(540))
        #expect(!build.timedOut)
        #expect(build.status == 0, "\(build.outputText)\(build.errors)")
        #expect(build.outputText.contains("Generating DrawTogether.swift from DrawTogether.gwspec"))
    }
}
