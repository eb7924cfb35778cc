import Foundation
import GroupWireTestSupport
import Testing

@testable import GroupWire

/// One stream vector from Spec/vectors/streams (written by Spec/vectors/generate_streams.py
/// with the independent stream reader in Spec/vectors/stream_reader.py).
struct StreamVector: Decodable, CustomTestStringConvertible {
    struct Event: Decodable {
        let offset: Int
        let length: Int
        let frame: FrameVector.Fields?
        let error: FrameVector.Failure?
    }

    let name: String
    let description: String
    let hex: String
    let events: [Event]

    var testDescription: String { name }

    /// Every stream vector; throws at a vector file that does not decode.
    static func all() throws -> [StreamVector] {
        try Vectors.loadAll(StreamVector.self, under: "Spec/vectors/streams")
    }
}

@Suite struct StreamVectorTests {
    @Test func everyStreamVectorFileParsesAndTheyCoverEveryRecoveryRule() throws {
        let files = try Vectors.files(under: "Spec/vectors/streams")
        let vectors = try StreamVector.all()
        #expect(files.count >= 10)
        #expect(vectors.count == files.count)
        let kinds = Set(vectors.flatMap { $0.events.compactMap(\.error?.kind) })
        #expect(
            kinds.isSuperset(of: [
                "badMagic", "checksumMismatch", "truncated", "frameTooSmall", "frameTooLarge",
                "malformedVarint", "unsupportedVersion", "unknownKind", "invalidFragment",
            ]))
    }

    @Test(arguments: try StreamVector.all())
    func theStreamReaderReportsExactlyTheVectorsEventsFedWholeOrByteByByte(vector: StreamVector) throws {
        let raw = try Hex.bytes(vector.hex)
        let expected = try vector.events.map { event in
            if let fields = event.frame {
                let frame = try FrameVector(name: vector.name, description: "", hex: "", valid: true, frame: fields, error: nil)
                    .expectedFrame()
                return Expected(offset: event.offset, length: event.length, frame: frame, error: nil)
            }
            let error = try #require(event.error)
            return Expected(offset: event.offset, length: event.length, frame: nil, error: error)
        }
        let decoder = FrameDecoder()
        for events in [decoder.decodeAll(raw), decoder.decodeAll(chunks: raw.map { [$0] })] {
            #expect(events.count == expected.count)
            for (event, want) in zip(events, expected) {
                #expect(event.offset == want.offset, "\(event)")
                #expect(event.length == want.length, "\(event)")
                #expect(event.frame == want.frame, "\(event)")
                #expect(event.error?.kind.name == want.error?.kind, "\(event)")
                #expect(event.error?.offset == want.error?.offset, "\(event)")
            }
        }
    }

    private struct Expected {
        let offset: Int
        let length: Int
        let frame: Frame?
        let error: FrameVector.Failure?
    }
}
