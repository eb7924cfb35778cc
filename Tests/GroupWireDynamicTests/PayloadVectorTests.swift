import EdgeCasesGolden
import Foundation
import GroupWire
import GroupWireDynamic
import GroupWireSpec
import GroupWireTestSupport
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

    static let folder = RepositoryPaths.url("Spec/vectors/payloads")

    /// Every payload vector; throws at a vector file that does not decode.
    static func vectors() throws -> [Vector] {
        try Vectors.loadAll(Vector.self, under: folder)
    }

    /// The vector's expected JSON value, as text.
    static func expectedJSON(_ name: String) throws -> String {
        let url = try #require(try Vectors.files(under: folder).first { $0.lastPathComponent.hasSuffix("-\(name).json") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let value = try #require(object["json"])
        return String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }

    @Test func thereAreVectorsForEveryEdgeCaseFormatNames() throws {
        let vectors = try Self.vectors()
        let kinds = Set(vectors.compactMap(\.error?.kind))
        #expect(kinds == ["missingField", "invalidValue", "unknownWireType", "truncated", "typeMismatch"])
        #expect(vectors.count >= 17)
    }

    @Test(arguments: try vectors())
    func aPayloadVectorDecodesToItsValueOrFailsWithItsKindAtItsOffset(vector: Vector) throws {
        let compilation = try SpecCompiler().compile(
            entry: Self.folder.appendingPathComponent(vector.spec).path, loader: FileSpecLoader())
        let codec = DynamicCodec(spec: try compilation.checkedSpec())
        let payload = try Hex.bytes(vector.hex)
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
        #expect(
            checked?.kind.name == failure.kind && checked?.offset == failure.offset, "validate: \(String(describing: checked))")
    }

    @Test(arguments: try vectors())
    func generatedCodeFailsWithTheVectorsKindAtItsOffset(vector: Vector) throws {
        let payload = try Hex.bytes(vector.hex)
        // The generated type the vector names, decoded and written as JSON.
        func decodeGenerated() throws(WireError) -> String {
            func text(_ value: some Encodable) -> String {
                (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "unencodable"
            }
            switch vector.type {
            case "Edge": return text(try Edge(wirePayload: payload))
            case "Hashes": return text(try Hashes(wirePayload: payload))
            default: throw WireError(.unknownType, offset: 0, "no generated type \(vector.type)")
            }
        }
        guard let failure = vector.error else {
            #expect(try json(try decodeGenerated()) == (try json(Self.expectedJSON(vector.name))))
            return
        }
        let error = wireError { () throws(WireError) in _ = try decodeGenerated() }
        #expect(error?.kind.name == failure.kind, "\(String(describing: error))")
        #expect(error?.offset == failure.offset, "\(String(describing: error))")
    }
}
