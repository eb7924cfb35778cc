import Foundation
import GroupWireTestSupport
import Testing

/// No Swift block of the README or of a DocC article goes unchecked: each is a file of the
/// README's package (built and run by ReadmePackageTests), its manifest or one of its
/// targets, or the exact code of a region of the test file named above it, which runs it.
@Suite struct DocumentSnippetTests {
    @Test func everySwiftBlockIsBuiltAndRunSomewhere() throws {
        let manifest = try #require(try DocumentSnippets.readmeManifest())
        var checked = 0
        for document in DocumentSnippets.documents {
            let snippets = try DocumentSnippets.snippets(in: document)
            var byRunner: [String: String] = [:]
            for snippet in snippets {
                if snippet.isManifest {
                    #expect(document == "README.md", "\(snippet.place): only the README holds the package's manifest")
                } else if snippet.packageFile != nil {
                } else if snippet.isTarget {
                    let indented = snippet.code.split(separator: "\n", omittingEmptySubsequences: false)
                        .map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n")
                    #expect(manifest.contains(indented), "\(snippet.place): a target that is not the README manifest's")
                } else if let runner = snippet.runner {
                    byRunner[runner, default: ""] += snippet.code
                } else {
                    Issue.record(
                        "\(snippet.place) is neither a file of the README's package nor marked with the test that runs it:\n\(snippet.code)"
                    )
                }
                checked += 1
            }
            let name = URL(fileURLWithPath: document).lastPathComponent
            for (runner, code) in byRunner {
                #expect(FileManager.default.fileExists(atPath: RepositoryPaths.path(runner)), "\(document): no \(runner)")
                let region = try DocumentSnippets.regions(named: name, in: runner)
                #expect(
                    region == code, "\(document): the blocks marked for \(runner) differ from its `// \(name): begin` regions")
            }
        }
        #expect(checked >= 12)
    }

    @Test func theRegionsOfARunnerAreFoundDedentedAndInOrder() throws {
        // The parser, on one runner of ours: indentation removed, the article's six blocks in order.
        let region = try DocumentSnippets.regions(
            named: "FollowingOneMessage.md", in: "Tests/GroupWireSessionTests/ArticleExampleTests.swift")
        #expect(region.hasPrefix("let stroke = UpsertStroke("))
        #expect(region.hasSuffix("FrameDecoder().decode(bytes)))\n"))
        let blocks = try DocumentSnippets.snippets(in: "Sources/GroupWire/GroupWire.docc/FollowingOneMessage.md")
        #expect(blocks.count == 6)
        #expect(blocks.allSatisfy { $0.runner == "Tests/GroupWireSessionTests/ArticleExampleTests.swift" })
    }

    @Test func theReadmeStaysShortAndEveryLinkInItResolves() throws {
        let readme = String(decoding: try RepositoryPaths.bytes("README.md"), as: UTF8.self)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(lines <= 300, "README.md has \(lines) lines: details belong in the DocC articles and Benchmarks/README.md")
        // Markdown links `[text](target)` to files of the repository (not web addresses).
        var links: [String] = []
        var rest = readme[...]
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            links.append(String(rest[..<close]))
        }
        let local = links.filter { !$0.hasPrefix("http") }.map { String($0.split(separator: "#", maxSplits: 1).first ?? "") }
        #expect(local.count >= 5)
        for link in local where !link.isEmpty {
            #expect(
                FileManager.default.fileExists(atPath: RepositoryPaths.path(link)),
                "README.md links to \(link), which does not exist")
        }
    }
}
