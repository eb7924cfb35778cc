import Foundation
import GroupWireTestSupport
import Testing

/// The test targets' one vector loader (GroupWireTestSupport's `Vectors`): a missing or
/// malformed vector fails the test that loads it rather than being skipped.
@Suite struct VectorsTests {
    struct Sample: Decodable, Equatable {
        let name: String
        let hex: String
    }

    /// A fresh folder holding `files` (name to contents); the caller removes it.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = try RepositoryPaths.temporaryDirectory(prefix: "groupwire-vectors")
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    @Test func aVectorFileOfTheRepositoryLoadsByItsRelativePath() throws {
        let path = try #require(try Vectors.files(under: "Spec/vectors/frames").first)
        let relative = "Spec/vectors/frames/" + path.lastPathComponent
        let vector = try Vectors.load(Sample.self, from: relative)
        #expect(vector == (try Vectors.load(Sample.self, from: path)))
        #expect(try !Hex.bytes(vector.hex).isEmpty)
    }

    @Test func aMissingFileThrowsNamingTheFile() {
        let error = #expect(throws: VectorError.self) {
            try Vectors.load(Sample.self, from: "Spec/vectors/frames/no-such-vector.json")
        }
        #expect(error?.file == "Spec/vectors/frames/no-such-vector.json")
        #expect(error?.description.hasPrefix("Spec/vectors/frames/no-such-vector.json: cannot be read") == true)
    }

    @Test func malformedJSONThrowsNamingTheFileAndTheProblem() throws {
        let folder = try Self.folder([
            "broken.json": #"{"name": "a", "hex": "#, "short.json": #"{"name": "a"}"#,
            "typed.json": #"{"name": "a", "hex": 7}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = #expect(throws: VectorError.self) {
            try Vectors.load(Sample.self, from: folder.appendingPathComponent("broken.json"))
        }
        #expect(broken?.file.hasSuffix("/broken.json") == true)
        #expect(broken?.problem.hasPrefix("does not decode as Sample") == true)
        let short = #expect(throws: VectorError.self) {
            try Vectors.load(Sample.self, from: folder.appendingPathComponent("short.json"))
        }
        #expect(short?.problem.contains(#"no key "hex" at the top level"#) == true, "\(String(describing: short))")
        let typed = #expect(throws: VectorError.self) {
            try Vectors.load(Sample.self, from: folder.appendingPathComponent("typed.json"))
        }
        #expect(typed?.problem.contains("hex is not String") == true, "\(String(describing: typed))")
    }

    @Test func loadingAFolderReadsEveryJSONFileBelowItInPathOrder() throws {
        let folder = try Self.folder([
            "b.json": #"{"name": "b", "hex": "02"}"#, "a.json": #"{"name": "a", "hex": "01"}"#,
            "nested/c.json": #"{"name": "c", "hex": "03"}"#, "notes.txt": "not a vector",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Vectors.loadAll(Sample.self, under: folder).map(\.name) == ["a", "b", "c"])
        #expect(try Vectors.loadAll(Sample.self, under: folder) { $0.lastPathComponent != "b.json" }.map(\.name) == ["a", "c"])
    }

    @Test func loadingAFolderThrowsAtAnyMalformedFile() throws {
        let folder = try Self.folder(["a.json": #"{"name": "a", "hex": "01"}"#, "b.json": "[1, 2"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: VectorError.self) { try Vectors.loadAll(Sample.self, under: folder) }
        #expect(error?.file.hasSuffix("/b.json") == true)
    }

    @Test func aFolderWithoutVectorFilesThrows() throws {
        let empty = try Self.folder(["notes.txt": "not a vector"])
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: VectorError.self) { try Vectors.loadAll(Sample.self, under: empty) }
        #expect(throws: VectorError.self) { try Vectors.loadAll(Sample.self, under: empty) { _ in false } }
        let missing = #expect(throws: VectorError.self) { try Vectors.loadAll(Sample.self, under: "Spec/vectors/no-such-folder") }
        #expect(missing?.file == "Spec/vectors/no-such-folder")
        #expect(missing?.description == "Spec/vectors/no-such-folder: no vector files (.json) below this folder")
    }
}
