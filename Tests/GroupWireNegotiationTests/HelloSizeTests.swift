import GroupWire
import GroupWireCompression
import GroupWireNegotiation
import GroupWireSpec
import Testing

/// The measurement behind the schema table's representation (Spec/FORMAT.md, "Choosing the
/// schema representation"): bytes of each candidate for every example spec, raw and
/// compressed with zstd level 3 (no dictionary), as documented.
@Suite struct HelloSizeTests {
    struct Sizes: Equatable, CustomStringConvertible {
        var source: Int
        var canonical: Int
        var canonicalZstd: Int
        var table: Int
        var tableZstd: Int
        var hello: Int

        var description: String {
            "source \(source), canonical \(canonical) (zstd \(canonicalZstd)), table \(table) (zstd \(tableZstd)), hello \(hello)"
        }
    }

    static func zstd(_ bytes: [UInt8]) throws -> Int {
        try ZstdCompressor(level: 3).compress(bytes).count
    }

    static func sizes(_ name: String) throws -> Sizes {
        let spec = try ExampleSpecs.spec(name)
        let schema = try HelloSchema(spec: spec)
        let hello = try Hello(schema: schema).payload()
        let bare = try Hello().payload()
        // The table: the hello's bytes beyond those of a hello without a spec, less the spec identity.
        let identity = try Hello(schema: schema).payload().count - bare.count - Self.tableBytes(schema)
        let table = hello.count - bare.count - identity
        let canonical = Array(Self.canonical(spec).utf8)
        return Sizes(
            source: try ExampleSpecs.sourceBytes(name), canonical: canonical.count, canonicalZstd: try zstd(canonical),
            table: table, tableZstd: try zstd(Array(hello.suffix(table))), hello: hello.count)
    }

    /// The canonical text a hello would carry instead of the table: the spec's, plus the
    /// blocks of every message closure outside it.
    static func canonical(_ spec: SpecSet) -> String {
        var names: Set<String> = []
        for message in spec.messages { names.formUnion(spec.closure(of: message.name)) }
        for declaration in spec.entry?.declarations ?? [] { names.formUnion(spec.closure(of: declaration.name)) }
        let header = spec.package.map { "package \($0.name) \($0.version)\n" } ?? ""
        return header
            + names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { spec.canonicalBlock(of: $0) }.joined()
    }

    static func tableBytes(_ schema: HelloSchema) throws -> Int {
        var withoutTable = try Hello(schema: schema).payload()
        // Field 7 entries are the last fields of a canonical hello: the table is what follows the last non-7 field.
        var reader = PayloadReader(withoutTable)
        var tableStart = withoutTable.count
        while true {
            let offset = reader.reader.position
            guard let key = try reader.nextKey() else { break }
            if key.number == 7 { tableStart = min(tableStart, offset) }
            try reader.skip(key)
        }
        withoutTable.removeLast(withoutTable.count - tableStart)
        return try Hello(schema: schema).payload().count - tableStart
    }

    /// The numbers of the table in Spec/FORMAT.md ("Choosing the schema representation").
    static let documented: [String: Sizes] = [
        "DrawTogether": Sizes(source: 1_248, canonical: 413, canonicalZstd: 224, table: 289, tableZstd: 246, hello: 321),
        "DrawTogether-v2": Sizes(source: 1_519, canonical: 524, canonicalZstd: 269, table: 357, tableZstd: 292, hello: 389),
        "DrawTogether-v3": Sizes(source: 1_769, canonical: 565, canonicalZstd: 285, table: 401, tableZstd: 328, hello: 433),
        "WatchTogether": Sizes(source: 2_214, canonical: 885, canonicalZstd: 447, table: 634, tableZstd: 487, hello: 667),
        "Common": Sizes(source: 306, canonical: 105, canonicalZstd: 102, table: 51, tableZstd: 60, hello: 95),
    ]

    @Test(arguments: ExampleSpecs.paths.map(\.name))
    func theMeasuredBytesAreTheDocumentedOnes(_ name: String) throws {
        #expect(try Self.sizes(name) == Self.documented[name])
    }

    @Test func embeddingPastVersionsCostsTheirTablesToo() throws {
        let v3Past = try ["DrawTogether", "DrawTogether-v2", "DrawTogether-v3"].reduce(0) { $0 + (try Self.sizes($1).table) }
        #expect(v3Past == 1_047)
    }
}
