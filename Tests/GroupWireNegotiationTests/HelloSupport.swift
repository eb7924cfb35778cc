import GroupWire
import GroupWireNegotiation
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// The example specs the hello tests measure and round-trip, by short name.
enum ExampleSpecs {
    static let paths: [(name: String, path: String)] = [
        ("DrawTogether", "Spec/Examples/DrawTogether.gwspec"),
        ("DrawTogether-v2", "Spec/Examples/Versions/DrawTogether-v2.gwspec"),
        ("DrawTogether-v3", "Spec/Examples/Versions/DrawTogether-v3.gwspec"),
        ("WatchTogether", "Spec/Examples/WatchTogether.gwspec"),
        ("Common", "Spec/Examples/Common.gwspec"),
    ]

    /// The compiled spec `name` (a key of ``paths``).
    static func spec(_ name: String) throws -> SpecSet {
        let path = try #require(paths.first { $0.name == name }).path
        return try SpecCompiler().compile(entry: RepositoryPaths.path(path), loader: FileSpecLoader()).checkedSpec()
    }

    /// The UTF-8 bytes of the example's files (the entry and its imports).
    static func sourceBytes(_ name: String) throws -> Int {
        let spec = try spec(name)
        return try spec.files.reduce(0) { $0 + (try RepositoryPaths.bytes(relative($1.path))).count }
    }

    private static func relative(_ path: String) -> String {
        guard let range = path.range(of: "Spec/Examples/") else { return path }
        return String(path[range.lowerBound...])
    }
}
