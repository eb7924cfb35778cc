import Foundation

/// A Swift code block of the README or a DocC article, and what it says about how it is
/// checked: a file of the README's package (first line `// Sources/…`), that package's
/// manifest, a target of it, or a block some test compiles and runs (an HTML comment right
/// above the block: `<!-- The block below is compiled and run by Tests/….swift. -->`).
package struct DocumentSnippet: Sendable {
    /// The document, relative to the repository root.
    package let document: String
    /// Its position among the document's Swift blocks, from 1.
    package let index: Int
    /// The block's text, ending with a newline.
    package let code: String
    /// The line right above the block's opening fence.
    package let lineAbove: String

    /// The path in the README's package when the block is a file of it.
    package var packageFile: String? {
        guard let first = code.split(separator: "\n", maxSplits: 1).first, first.hasPrefix("// Sources/") else { return nil }
        return String(first.dropFirst(3))
    }

    /// Whether the block is a package manifest.
    package var isManifest: Bool { code.hasPrefix("// swift-tools-version:") }

    /// Whether the block is one target of a manifest.
    package var isTarget: Bool { code.hasPrefix(".target(") || code.hasPrefix(".executableTarget(") }

    /// The test file that compiles and runs the block, from the comment above it.
    package var runner: String? {
        let prefix = "<!-- The block below is compiled and run by "
        guard lineAbove.hasPrefix(prefix), lineAbove.hasSuffix(". -->") else { return nil }
        return String(lineAbove.dropFirst(prefix.count).dropLast(". -->".count))
    }

    /// `README.md, block 3`.
    package var place: String { "\(document), block \(index)" }
}

/// The Swift blocks of the documents a user reads first.
package enum DocumentSnippets {
    /// README.md and every DocC article and module page, relative to the repository root.
    package static var documents: [String] {
        let articles = RepositoryPaths.files(under: "Sources", withExtension: "md")
            .map { String($0.path.dropFirst(RepositoryPaths.root.path.count + 1)) }
            .filter { $0.contains(".docc/") }
        return ["README.md"] + articles.sorted()
    }

    /// The Swift blocks of `document`, in order.
    package static func snippets(in document: String) throws -> [DocumentSnippet] {
        let lines = String(decoding: try RepositoryPaths.bytes(document), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var snippets: [DocumentSnippet] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```swift" else {
                index += 1
                continue
            }
            let above = index > 0 ? lines[index - 1] : ""
            var end = index + 1
            while end < lines.count, lines[end] != "```" { end += 1 }
            let code = lines[(index + 1)..<end].map { $0 + "\n" }.joined()
            snippets.append(DocumentSnippet(document: document, index: snippets.count + 1, code: code, lineAbove: above))
            index = end + 1
        }
        return snippets
    }

    /// The code between `// NAME: begin` and `// NAME: end` lines of the Swift file at
    /// `file`, each region with its common indentation removed, concatenated in order.
    package static func regions(named name: String, in file: String) throws -> String {
        let lines = String(decoding: try RepositoryPaths.bytes(file), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var result = ""
        var region: [String]?
        for line in lines {
            let marker = line.trimmingCharacters(in: .whitespaces)
            if marker == "// \(name): begin" {
                region = []
            } else if marker == "// \(name): end", let body = region {
                let indent =
                    body.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                    .map { $0.prefix { $0 == " " }.count }.min() ?? 0
                result += body.map { ($0.count >= indent ? String($0.dropFirst(indent)) : "") + "\n" }.joined()
                region = nil
            } else {
                region?.append(line)
            }
        }
        return result
    }

    /// The README's package manifest.
    package static func readmeManifest() throws -> String? {
        try snippets(in: "README.md").first(where: \.isManifest)?.code
    }
}
