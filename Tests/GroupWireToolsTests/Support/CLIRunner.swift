import Foundation
import GroupWireTestSupport
import Testing

/// Runs the built `groupwire` binary, as a user would.
enum CLIRunner {
    /// The repository root.
    static var root: URL { RepositoryPaths.root }

    /// The `groupwire` product of this build (next to the test bundle).
    static let binary: URL? = RepositoryPaths.builtProduct("groupwire")

    /// What a run produced.
    typealias Run = ChildProcess.Run

    /// Runs `groupwire arguments...` in `directory` (default: the repository root) with
    /// `input` on standard input.
    static func run(_ arguments: [String], input: [UInt8] = [], in directory: URL? = nil) throws -> Run {
        let binary = try #require(binary, "build the groupwire product first (swift build)")
        return try ChildProcess.run(binary, arguments, input: input, directory: directory ?? root)
    }

    /// A fresh empty folder.
    static func temporaryDirectory() throws -> URL {
        try RepositoryPaths.temporaryDirectory()
    }

    /// The bytes of a file under the repository root.
    static func file(_ path: String) throws -> [UInt8] {
        try RepositoryPaths.bytes(path)
    }
}
