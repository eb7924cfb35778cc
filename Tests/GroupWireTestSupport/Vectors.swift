import Foundation

/// The JSON test vectors of Spec/vectors, for every test target. A vector file that is
/// missing or does not decode throws ``VectorError`` naming it, and a folder without vector
/// files throws too, so a broken vector fails its test instead of being skipped.
package enum Vectors {
    /// The value of type `T` in the JSON file at `relativePath` under the repository root
    /// (`"Spec/vectors/frames/basic.json"`).
    package static func load<T: Decodable>(_ type: T.Type, from relativePath: String) throws(VectorError) -> T {
        try load(type, from: RepositoryPaths.url(relativePath))
    }

    /// The value of type `T` in the JSON file at `url`.
    package static func load<T: Decodable>(_ type: T.Type, from url: URL) throws(VectorError) -> T {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw VectorError(file: url, problem: "cannot be read: \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw VectorError(file: url, problem: "does not decode as \(T.self): \(describe(error))")
        } catch {
            throw VectorError(file: url, problem: "does not decode as \(T.self): \(error)")
        }
    }

    /// The value of type `T` in every `.json` file below `relativeFolder` under the repository
    /// root (subfolders included), in the order of their paths; only the files `include`
    /// accepts, when it is given. Throws at the first file that does not decode, and when
    /// there is no such file.
    package static func loadAll<T: Decodable>(
        _ type: T.Type, under relativeFolder: String, including include: (URL) -> Bool = { _ in true }
    ) throws(VectorError) -> [T] {
        try loadAll(type, under: RepositoryPaths.url(relativeFolder), including: include)
    }

    /// The value of type `T` in every `.json` file below `folder` (subfolders included), in
    /// the order of their paths; only the files `include` accepts, when it is given. Throws at
    /// the first file that does not decode, and when there is no such file.
    package static func loadAll<T: Decodable>(
        _ type: T.Type, under folder: URL, including include: (URL) -> Bool = { _ in true }
    ) throws(VectorError) -> [T] {
        try files(under: folder, including: include).map { url throws(VectorError) in try load(type, from: url) }
    }

    /// The `.json` files below `relativeFolder` under the repository root (subfolders
    /// included), sorted by path; only those `include` accepts, when it is given. Throws
    /// when there is none.
    package static func files(
        under relativeFolder: String, including include: (URL) -> Bool = { _ in true }
    ) throws(VectorError) -> [URL] {
        try files(under: RepositoryPaths.url(relativeFolder), including: include)
    }

    /// The `.json` files below `folder` (subfolders included), sorted by path; only those
    /// `include` accepts, when it is given. Throws when there is none.
    package static func files(under folder: URL, including include: (URL) -> Bool = { _ in true }) throws(VectorError) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        let found = (enumerator?.compactMap { $0 as? URL } ?? [])
            .filter { $0.pathExtension == "json" && (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .filter(include)
            .sorted { $0.path < $1.path }
        guard !found.isEmpty else { throw VectorError(file: folder, problem: "no vector files (.json) below this folder") }
        return found
    }

    /// A decoding error as a sentence: what went wrong, and where in the JSON.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "no key \"\(key.stringValue)\" at \(path(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) is not \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null, \(type) expected"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            let place = context.codingPath.isEmpty ? "" : "at \(path(context.codingPath)): "
            return "\(place)\(context.debugDescription)\(underlying)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// A vector file that is missing, unreadable or malformed, or a vector folder without files.
package struct VectorError: Error, CustomStringConvertible, Sendable {
    /// The file or folder, relative to the repository root when it is inside it.
    package let file: String
    /// What is wrong with it, as a phrase: "cannot be read: …", "does not decode as T: …".
    package let problem: String

    /// An error about the file or folder at `url`.
    package init(file url: URL, problem: String) {
        let path = url.standardizedFileURL.path(percentEncoded: false)
        let root = RepositoryPaths.root.standardizedFileURL.path(percentEncoded: false)
        let prefix = root.hasSuffix("/") ? root : root + "/"
        self.file = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        self.problem = problem
    }

    /// The file and its problem.
    package var description: String { "\(file): \(problem)" }
}
