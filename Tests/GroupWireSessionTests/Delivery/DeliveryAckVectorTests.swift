import Foundation
import GroupWire
import GroupWireTestSupport
import Testing

@testable import GroupWireSession

/// Replays Spec/vectors/delivery (written by Spec/vectors/generate_delivery.py from
/// FORMAT.md alone): each acknowledgement body decodes to its fields and encodes back to
/// the canonical bytes, or fails with its error kind at its offset.
@Suite struct DeliveryAckVectorTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        struct Ack: Decodable {
            let stream: UInt32
            let through: UInt64
            let received: String
            let delay: UInt64
            let duplicate: UInt64
        }

        struct Failure: Decodable {
            let kind: String
            let offset: Int
        }

        let name: String
        let controlID: UInt64
        let hex: String
        let ack: Ack?
        let error: Failure?
        var testDescription: String { name }

        /// The acknowledgement body the vector's hex spells.
        func body() throws -> [UInt8] { try Hex.bytes(hex) }
    }

    /// Every acknowledgement vector; throws at a vector file that does not decode.
    static func vectors() throws -> [Vector] {
        try Vectors.loadAll(Vector.self, under: "Spec/vectors/delivery")
    }

    @Test func thereAreVectorsOfBothKindsForControlID32() throws {
        let vectors = try Self.vectors()
        #expect(vectors.filter { $0.ack != nil }.count >= 4)
        #expect(vectors.filter { $0.error != nil }.count >= 5)
        #expect(vectors.allSatisfy { $0.controlID == DeliveryAck.controlID })
    }

    @Test(arguments: try vectors().filter { $0.ack != nil })
    func aValidBodyDecodesToItsFields(vector: Vector) throws {
        let expected = try #require(vector.ack)
        let body = try vector.body()
        let ack = try DeliveryAck(body)
        let received = try Hex.bytes(expected.received)
        #expect(
            ack
                == DeliveryAck(
                    stream: expected.stream, through: expected.through, received: received,
                    delayMicroseconds: expected.delay, duplicate: expected.duplicate))
        #expect(try DeliveryAck(ack.payload()) == ack)
        if vector.name == "example" {
            #expect(ack.payload() == body, "the canonical encoding is FORMAT.md's example")
        }
    }

    @Test(arguments: try vectors().filter { $0.error != nil })
    func aBrokenBodyFailsWithItsKindAndOffset(vector: Vector) throws {
        let failure = try #require(vector.error)
        let body = try vector.body()
        do {
            let ack = try DeliveryAck(body)
            Issue.record("\(vector.name) decoded to \(ack)")
        } catch {
            #expect(error.kind.name == failure.kind, "\(error)")
            #expect(error.offset == failure.offset, "\(error)")
        }
    }
}
