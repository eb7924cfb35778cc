import Foundation

/// Paths inside the repository and of the products `swift build` made, for every test
/// target: tests read the checked-in specs, vectors and corpora rather than copies, and run
/// the built tools as a user would.
package enum RepositoryPaths {
    /// The repository root, found from this file's path (Tests/GroupWireTestSupport/…).
    package static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GroupWireTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // root

    /// The URL of `relative` under the repository root.
    package static func url(_ relative: String) -> URL {
        root.appendingPathComponent(relative)
    }

    /// The absolute path of `relative` under the repository root.
    package static func path(_ relative: String) -> String {
        url(relative).path
    }

    /// The bytes of the file at `relative` under the repository root.
    package static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relative)))
    }

    /// The regular files below `relative`, sorted by path; only those ending in `.ext` when
    /// `ext` is given.
    package static func files(under relative: String, withExtension ext: String? = nil) -> [URL] {
        let folder = url(relative)
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .filter { ext == nil || $0.pathExtension == ext }
            .sorted { $0.path < $1.path }
    }

    /// The executable product `name` of this build: `swift build` puts it in the folder of
    /// the test bundle (on macOS the folder holding the `.xctest` bundle), whatever the
    /// configuration or build path. Nil when it has not been built.
    package static func builtProduct(_ name: String) -> URL? {
        guard let first = CommandLine.arguments.first else { return nil }
        var folder = URL(fileURLWithPath: first).deletingLastPathComponent()
        while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
        let candidate = folder.appendingPathComponent(name)
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// A fresh empty folder under the temporary directory; the caller removes it.
    package static func temporaryDirectory(prefix: String = "groupwire-tests") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
