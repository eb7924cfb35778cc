import EdgeCasesGolden
import Foundation
import GroupWire
import GroupWireDynamic
import GroupWireSpec
import Testing

/// Replays Spec/vectors/payloads (written by Spec/vectors/generate_payloads.py): the error
/// kinds and offsets FORMAT.md states for payload edge cases, through the dynamic codec and
/// through the generated code of the vectors' spec (Tests/GoldenGenerated/EdgeCases).
@Suite struct PayloadVectorTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        struct Failure: Decodable {
            let kind: String
            let offset: Int
        }

        let name: String
        let spec: String
        let type: String
        let hex: String
        let error: Failure?
        var testDescription: String { name }
    }

    static let folder = TestSpecs.root.appendingPathComponent("Spec/vectors/payloads")

    static func vectors() -> [Vector] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { $0.hasSuffix(".json") }.compactMap { name in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return nil }
            return try? JSONDecoder().decode(Vector.self, from: data)
        }
    }

    /// The vector's expected JSON value, as text.
    static func expectedJSON(_ name: String) throws -> String {
        let url = folder.appendingPathComponent(try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix("-\(name).json") }))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let value = try #require(object["json"])
        return String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }

    @Test func thereAreVectorsForEveryEdgeCaseFormatNames() {
        let kinds = Set(Self.vectors().compactMap(\.error?.kind))
        #expect(kinds == ["missingField", "invalidValue", "unknownWireType", "truncated", "typeMismatch"])
        #expect(Self.vectors().count >= 17)
    }

    @Test(arguments: vectors())
    func aPayloadVectorDecodesToItsValueOrFailsWithItsKindAtItsOffset(vector: Vector) throws {
        let compilation = try SpecCompiler().compile(
            entry: Self.folder.appendingPathComponent(vector.spec).path, loader: FileSpecLoader())
        let codec = DynamicCodec(spec: try compilation.checkedSpec())
        let payload = hexBytes(vector.hex)
        guard let failure = vector.error else {
            let decoded = try codec.decode(payload, as: vector.type)
            #expect(decoded == (try json(Self.expectedJSON(vector.name))))
            try codec.validate(payload, as: vector.type)
            return
        }
        let error = wireError { () throws(WireError) in _ = try codec.decode(payload, as: vector.type) }
        #expect(error?.kind.name == failure.kind, "\(String(describing: error))")
        #expect(error?.offset == failure.offset, "\(String(describing: error))")
        let checked = wireError { () throws(WireError) in try codec.validate(payload, as: vector.type) }
        #expect(checked?.kind.name == failure.kind && checked?.offset == failure.offset, "validate: \(String(describing: checked))")
    }

    @Test(arguments: vectors())
    func generatedCodeFailsWithTheVectorsKindAtItsOffset(vector: Vector) throws {
        let payload = hexBytes(vector.hex)
        guard let failure = vector.error else {
            let edge = try Edge(wirePayload: payload)
            let encoded = String(decoding: try JSONEncoder().encode(edge), as: UTF8.self)
            #expect(try json(encoded) == (try json(Self.expectedJSON(vector.name))))
            return
        }
        let error = wireError { () throws(WireError) in _ = try Edge(wirePayload: payload) }
        #expect(error?.kind.name == failure.kind, "\(String(describing: error))")
        #expect(error?.offset == failure.offset, "\(String(describing: error))")
    }
}
