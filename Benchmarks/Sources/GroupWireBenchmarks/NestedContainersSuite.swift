import Foundation
import GroupWire

/// One container handing out a `nestedContainer` per row: WireEncoder used to splice each
/// finished child into its parent's bytes, quadratic in the row count (10^6 rows took 212 s
/// against JSONEncoder's 2.2 s). Times one encode per size (best of three below 10^6), so
/// the growth from row to row shows whether the cost is linear.
enum NestedContainersSuite: BenchmarkSuite {
    static let name = "nested"

    struct Row {
        var id: Int
        var name: String
        enum CodingKeys: String, CodingKey { case id, name }
    }

    /// Writes every row through its own `nestedContainer(keyedBy:)` of one unkeyed container.
    struct Rows: Encodable {
        var rows: [Row]
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            for row in rows {
                var nested = list.nestedContainer(keyedBy: Row.CodingKeys.self)
                try nested.encode(row.id, forKey: .id)
                try nested.encode(row.name, forKey: .name)
            }
        }
    }

    static func run(harness: inout Harness) throws {
        print("## Codable: one unkeyed container handing out a nestedContainer per row\n")
        var table = Table(headers: [
            "rows", "WireEncoder", "JSONEncoder", "wire / JSON", "wire per row", "wire bytes", "JSON bytes",
        ])
        for count in [10_000, 100_000, 1_000_000] {
            let rows = Rows(rows: (0..<count).map { Row(id: $0, name: "row \($0)") })
            let attempts = count < 1_000_000 ? 3 : 1
            let wire = try best(of: attempts) { try WireEncoder().encode(rows).count }
            let json = try best(of: attempts) { try JSONEncoder().encode(rows).count }
            table.add([
                "\(count)", formatNanoseconds(wire.time), formatNanoseconds(json.time),
                String(format: "%.2f×", wire.time / json.time),
                formatNanoseconds(wire.time / Double(count)), "\(wire.checksum)", "\(json.checksum)",
            ])
        }
        print(table.render())
        print("")
    }

    /// The least CPU time of `attempts` runs of `body`, and its result (the byte count).
    private static func best(of attempts: Int, _ body: () throws -> Int) throws -> (time: Double, checksum: Int) {
        var least = Double.infinity
        var checksum = 0
        for _ in 0..<attempts {
            let start = Harness.now()
            checksum = try body()
            least = min(least, Double(Harness.now() - start))
        }
        return (least, checksum)
    }
}
