import Foundation
import GroupWireTestSupport
import Testing

@testable import GroupWire

/// A vector from Spec/vectors/fragments: a frame vector plus what a reassembler does with
/// the fragment when it is the first of its message.
struct FragmentVector: Decodable, CustomTestStringConvertible {
    struct Verdict: Decodable {
        let drop: String
    }

    let frame: FrameVector
    let reassembly: Verdict?

    private enum CodingKeys: String, CodingKey {
        case reassembly
    }

    init(from decoder: any Decoder) throws {
        frame = try FrameVector(from: decoder)
        reassembly = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Verdict.self, forKey: .reassembly)
    }

    var testDescription: String { frame.name }

    static let folder = "Spec/vectors/fragments"

    /// Every fragment vector; throws at a vector file that does not decode.
    static func all() throws -> [FragmentVector] {
        try Vectors.loadAll(FragmentVector.self, under: folder)
    }
}

@Suite struct FragmentVectorTests {
    @Test func everyFragmentVectorFileParsesAndBothVerdictsAreCovered() throws {
        let files = try Vectors.files(under: FragmentVector.folder)
        let vectors = try FragmentVector.all()
        #expect(vectors.count == files.count)
        #expect(vectors.filter { !$0.frame.valid }.count >= 4)
        #expect(vectors.filter { $0.reassembly != nil }.count >= 4)
    }

    @Test(arguments: try FragmentVector.all().filter(\.frame.valid))
    func aValidFragmentVectorRoundTripsAndGetsItsReassemblyVerdict(vector: FragmentVector) throws {
        let raw = try Hex.bytes(vector.frame.hex)
        let expected = try vector.frame.expectedFrame()
        let decoded = try FrameDecoder().decode(raw)
        #expect(decoded == expected)
        #expect(try FrameEncoder().encode(expected) == raw)
        var reassembler = Reassembler<String>()
        let result = reassembler.receive(decoded, from: "peer")
        #expect(result.message == nil)
        if let verdict = vector.reassembly {
            #expect(result.drops.map(\.reason.name) == [verdict.drop])
            #expect(reassembler.metrics.peakAccountedBytes == 0)
        } else {
            #expect(result.drops.isEmpty)
            #expect(reassembler.partialMessageCount == 1)
        }
    }

    @Test(arguments: try FragmentVector.all().filter { !$0.frame.valid })
    func anInvalidFragmentVectorFailsWithItsErrorKindAndOffset(vector: FragmentVector) throws {
        let raw = try Hex.bytes(vector.frame.hex)
        let failure = try #require(vector.frame.error)
        let error = try #require(throws: WireError.self) { try FrameDecoder().decode(raw) }
        #expect(error.kind.name == failure.kind, "\(error)")
        #expect(error.offset == failure.offset, "\(error)")
    }

    @Test func theThreeUniformVectorsReassembleIntoTheirMessageInAnyOrder() throws {
        let pieces = try FragmentVector.all().filter { $0.frame.name.hasPrefix("uniform-") }.map {
            try FrameDecoder().decode(try Hex.bytes($0.frame.hex))
        }
        #expect(pieces.count == 3)
        for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
            var reassembler = Reassembler<String>()
            let messages = order.compactMap { reassembler.receive(pieces[$0], from: "peer").message }
            #expect(messages == [Frame(kind: .data, typeID: 9, body: Array(0x40...0x49))])
        }
    }
}
