/// One file the generator produces, in memory.
public struct GeneratedFile: Sendable, Hashable {
    /// The file's path relative to the output folder, e.g. `DrawTogether.swift`.
    public var path: String
    /// The file's full text.
    public var contents: String

    /// Creates a generated file.
    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}
