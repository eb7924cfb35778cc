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

        var body: [UInt8] {
            stride(from: 0, to: hex.count, by: 2).map { offset in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
            }
        }
    }

    static let vectors: [Vector] = RepositoryPaths.files(under: "Spec/vectors/delivery", withExtension: "json").compactMap { url in
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(Vector.self, from: data)
    }

    @Test func thereAreVectorsOfBothKindsForControlID32() {
        #expect(Self.vectors.filter { $0.ack != nil }.count >= 4)
        #expect(Self.vectors.filter { $0.error != nil }.count >= 5)
        #expect(Self.vectors.allSatisfy { $0.controlID == DeliveryAck.controlID })
    }

    @Test(arguments: vectors.filter { $0.ack != nil })
    func aValidBodyDecodesToItsFields(vector: Vector) throws {
        let expected = try #require(vector.ack)
        let ack = try DeliveryAck(vector.body)
        let received = stride(from: 0, to: expected.received.count, by: 2).map { offset in
            let start = expected.received.index(expected.received.startIndex, offsetBy: offset)
            return UInt8(expected.received[start..<expected.received.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
        #expect(ack == DeliveryAck(stream: expected.stream, through: expected.through, received: received))
        #expect(try DeliveryAck(ack.payload()) == ack)
        if vector.name == "example" {
            #expect(ack.payload() == vector.body, "the canonical encoding is FORMAT.md's example")
        }
    }

    @Test(arguments: vectors.filter { $0.error != nil })
    func aBrokenBodyFailsWithItsKindAndOffset(vector: Vector) throws {
        let failure = try #require(vector.error)
        do {
            let ack = try DeliveryAck(vector.body)
            Issue.record("\(vector.name) decoded to \(ack)")
        } catch {
            #expect(error.kind.name == failure.kind, "\(error)")
            #expect(error.offset == failure.offset, "\(error)")
        }
    }
}
