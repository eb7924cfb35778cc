import Foundation
import GroupWire
import GroupWireNegotiation
import GroupWireSpec
import GroupWireTestSupport
import Testing

/// Replays Spec/vectors/hello (written by Spec/vectors/generate_hello.py from FORMAT.md
/// alone): each body decodes to its fields and encodes back to the same bytes, or fails with
/// its error kind at its offset.
@Suite struct HelloVectorTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        struct Fields: Decodable {
            struct Codec: Decodable {
                struct Dictionary: Decodable {
                    let id: UInt32
                    let hash: String
                }
                let codec: UInt8
                let dictionaries: [Dictionary]
            }
            struct Spec: Decodable {
                struct Message: Decodable {
                    let name: String
                    let typeID: UInt64
                    let fingerprint: String
                    let canonical: String
                }
                let package: String
                let version: UInt64
                let fingerprint: String
                let messages: [Message]
            }
            let minVersion: UInt8
            let maxVersion: UInt8
            let codecs: [Codec]
            let maxFrameSize: Int
            let maxMessageSize: Int
            let spec: Spec?
        }

        struct Failure: Decodable {
            let kind: String
            let offset: Int
        }

        let name: String
        let hex: String
        let hello: Fields?
        let error: Failure?
        var testDescription: String { name }

        /// The hello body the vector's hex spells.
        func bytes() throws -> [UInt8] { try Hex.bytes(hex) }
    }

    /// Every hello vector; throws at a vector file that does not decode.
    static func vectors() throws -> [Vector] {
        try Vectors.loadAll(Vector.self, under: "Spec/vectors/hello")
    }

    @Test func everyContradictionHasAVector() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count >= 16)
        #expect(
            Set(vectors.compactMap(\.error?.kind)) == [
                "invalidVersionRange", "invalidValue", "missingField", "duplicateCodec", "duplicateTypeID", "fingerprintMismatch",
                "invalidSchema", "typeMismatch",
            ])
    }

    @Test(arguments: try vectors().filter { $0.hello != nil })
    func aValidVectorDecodesToItsFieldsAndEncodesToItsBytes(_ vector: Vector) throws {
        let fields = try #require(vector.hello)
        let bytes = try vector.bytes()
        let hello = try Hello(payload: bytes)
        #expect(hello.envelopeVersions == fields.minVersion...fields.maxVersion)
        #expect(hello.maxFrameSize == fields.maxFrameSize && hello.maxMessageSize == fields.maxMessageSize)
        #expect(hello.codecs.map(\.codec) == fields.codecs.map(\.codec))
        #expect(hello.codecs.map { $0.dictionaries.map(\.id) } == fields.codecs.map { $0.dictionaries.map(\.id) })
        #expect(
            hello.codecs.map { $0.dictionaries.map(\.contentHash.description) }
                == fields.codecs.map { $0.dictionaries.map(\.hash) })
        if let spec = fields.spec {
            let schema = try #require(hello.schema)
            #expect(schema.package == spec.package && schema.version == spec.version)
            #expect(schema.fingerprint.description == spec.fingerprint)
            #expect(schema.messages.map(\.name) == spec.messages.map(\.name))
            #expect(schema.messages.map(\.typeID) == spec.messages.map(\.typeID))
            #expect(schema.messages.map { $0.fingerprint?.description } == spec.messages.map(\.fingerprint))
            #expect(spec.messages.map { schema.spec.canonicalText(ofMessage: $0.name) } == spec.messages.map(\.canonical))
        } else {
            #expect(hello.schema == nil)
        }
        let body = try hello.payload()
        if vector.name == "unknown-field-skipped" {
            #expect(try Hello(payload: body) == hello)
        } else {
            #expect(body == bytes)
        }
    }

    @Test(arguments: try vectors().filter { $0.error != nil })
    func anInvalidVectorFailsWithItsKindAtItsOffset(_ vector: Vector) throws {
        let expected = try #require(vector.error)
        let bytes = try vector.bytes()
        do {
            _ = try Hello(payload: bytes)
            Issue.record("\(vector.name) decoded")
        } catch {
            #expect(error.kind.name == expected.kind, "\(error)")
            #expect(error.offset == expected.offset, "\(error)")
        }
    }

    @Test func theDrawTogetherVectorIsTheExampleSpecsTable() throws {
        let vector = try #require(try Self.vectors().first { $0.name == "draw-together-v1" })
        let schema = try #require(try Hello(payload: vector.bytes()).schema)
        let spec = try ExampleSpecs.spec("DrawTogether")
        #expect(schema == (try HelloSchema(spec: spec)))
        #expect(schema.spec.fingerprint(ofMessage: "UpsertStroke")?.description == "ca437cd6d797f1ef")
    }
}
