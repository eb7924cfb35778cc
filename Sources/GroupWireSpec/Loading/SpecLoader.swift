/// The text of one spec file and the path it is known by.
public struct SpecSource: Sendable, Hashable {
    /// The normalized path (used in diagnostics and to detect cycles).
    public var path: String
    /// The file's text.
    public var text: String

    /// Creates a source.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// Finds spec files for the compiler: the entry file and every import.
///
/// The compiler never touches the file system itself; tests use ``InMemorySpecLoader``,
/// tools use ``FileSpecLoader``.
public protocol SpecLoader: Sendable {
    /// Resolves an import path against the importing file.
    /// - Parameters:
    ///   - importPath: the path as written in the `import` line (or the entry path).
    ///   - importingFile: the resolved path of the importing file; `nil` for the entry file.
    /// - Returns: the resolved path, used as the file's identity.
    func resolve(_ importPath: String, from importingFile: String?) -> String

    /// Loads a resolved path.
    /// - Returns: the text, or `nil` when no such file exists.
    /// - Throws: ``SpecError`` when the file exists but cannot be read.
    func load(_ resolvedPath: String) throws(SpecError) -> String?
}

extension SpecLoader {
    /// Joins `importPath` to the folder of `importingFile` and normalizes `.` and `..`
    /// segments. Absolute import paths are kept.
    public func resolve(_ importPath: String, from importingFile: String?) -> String {
        SpecPath.resolve(importPath, from: importingFile)
    }
}

/// Path arithmetic for spec imports: `/`-separated, no file system access.
public enum SpecPath {
    /// Resolves `path` relative to the folder of `importingFile` and normalizes it.
    public static func resolve(_ path: String, from importingFile: String?) -> String {
        guard !path.hasPrefix("/"), let importingFile else { return normalize(path) }
        var folder = importingFile.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if importingFile.hasPrefix("/") && folder.isEmpty { folder = "/" }
        if folder.isEmpty { return normalize(path) }
        return normalize(folder.hasSuffix("/") ? folder + path : folder + "/" + path)
    }

    /// Removes `.` segments and empty segments and folds `..` into its parent.
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == ".." && absolute { continue }
            parts.append(part)
        }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }
}

/// A loader over a dictionary of path → text, for tests and tools that hold specs in memory.
public struct InMemorySpecLoader: SpecLoader {
    /// The files, keyed by normalized path.
    public var files: [String: String]

    /// Creates a loader; keys are normalized with ``SpecPath/normalize(_:)``.
    public init(files: [String: String]) {
        var normalized: [String: String] = [:]
        for (path, text) in files { normalized[SpecPath.normalize(path)] = text }
        self.files = normalized
    }

    /// The text for `resolvedPath`, or `nil`.
    public func load(_ resolvedPath: String) throws(SpecError) -> String? { files[resolvedPath] }
}
