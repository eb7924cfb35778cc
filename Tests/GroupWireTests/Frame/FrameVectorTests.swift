import Foundation
import GroupWireTestSupport
import Testing

@testable import GroupWire

/// One test vector from Spec/vectors/frames (written by Spec/vectors/generate.py, an
/// independent implementation of Spec/FORMAT.md).
struct FrameVector: Decodable, CustomTestStringConvertible {
    struct Fields: Decodable {
        let kind: String
        let typeID: UInt64
        let body: String
        let compression: Compression?
        let fragment: Fragment?
        let session: UInt32?
        let delivery: Delivery?
    }
    struct Delivery: Decodable {
        let stream: UInt32
        let sequence: UInt64
    }
    struct Compression: Decodable {
        let codec: UInt8
        let dictionaryID: UInt32
        let contentSize: UInt64
    }
    struct Fragment: Decodable {
        let messageID: UInt64
        let index: UInt32
        let count: UInt32
        let totalLength: UInt64
        let offset: UInt64
    }
    struct Failure: Decodable {
        let kind: String
        let offset: Int
    }

    let name: String
    let description: String
    let hex: String
    let valid: Bool
    let frame: Fields?
    let error: Failure?

    var testDescription: String { name }

    /// Every vector file of one frame: all of Spec/vectors but the stream, payload,
    /// timestamp-conversion, session and acknowledgement vectors, which are not frames.
    static func files() throws -> [URL] {
        try Vectors.files(under: "Spec/vectors", including: isFrameFile)
    }

    /// Every vector of one frame; throws at a vector file that does not decode.
    static func all() throws -> [FrameVector] {
        try Vectors.loadAll(FrameVector.self, under: "Spec/vectors", including: isFrameFile)
    }

    /// Whether the vector file at `url` is one of a frame (not in a folder of other vectors).
    static func isFrameFile(_ url: URL) -> Bool {
        !["streams", "payloads", "timestamps", "session", "delivery", "hello", "relay", "cluster", "playback"].contains(
            url.deletingLastPathComponent().lastPathComponent)
    }

    /// The frame these fields describe.
    func expectedFrame() throws -> Frame {
        let fields = try #require(frame)
        let kinds: [String: FrameKind] = ["data": .data, "control": .control, "fragment": .fragment]
        return Frame(
            kind: try #require(kinds[fields.kind]),
            typeID: fields.typeID,
            compression: fields.compression.map {
                CompressionInfo(codec: $0.codec, dictionaryID: $0.dictionaryID, contentSize: $0.contentSize)
            },
            fragment: fields.fragment.map {
                FragmentInfo(
                    messageID: $0.messageID, index: $0.index, count: $0.count, totalLength: $0.totalLength, offset: $0.offset)
            },
            session: fields.session,
            delivery: fields.delivery.map { DeliveryHeader(stream: $0.stream, sequence: $0.sequence) },
            body: try Hex.bytes(fields.body))
    }
}

@Suite struct FrameVectorTests {
    @Test func thereAreAtLeastTwentyFiveVectorsAndEveryFileParses() throws {
        let files = try FrameVector.files()
        #expect(files.count >= 25)
        #expect(try FrameVector.all().count == files.count)
    }

    @Test(arguments: try FrameVector.all().filter(\.valid))
    func aValidVectorDecodesToItsFieldsAndReencodesToItsBytes(vector: FrameVector) throws {
        let raw = try Hex.bytes(vector.hex)
        let expected = try vector.expectedFrame()
        let decoded = try FrameDecoder().decode(raw)
        #expect(decoded == expected)
        #expect(try FrameEncoder().encode(expected) == raw)
    }

    @Test(arguments: try FrameVector.all().filter { !$0.valid })
    func anInvalidVectorFailsWithItsErrorKindAndOffset(vector: FrameVector) throws {
        let raw = try Hex.bytes(vector.hex)
        let failure = try #require(vector.error)
        do {
            let frame = try FrameDecoder().decode(raw)
            Issue.record("\(vector.name) decoded to \(frame)")
        } catch {
            #expect(error.kind.name == failure.kind, "\(error)")
            #expect(error.offset == failure.offset, "\(error)")
        }
    }
}

/// The delivery layer's view of the vectors (Spec/FORMAT.md, "Delivery header"):
/// `DeliveryFraming` reads the header the decoder reads, and inserting it into the frame
/// without it gives the vector's bytes.
@Suite struct DeliveryFramingVectorTests {
    /// The valid vectors with a delivery header.
    static func withHeader() throws -> [FrameVector] {
        try FrameVector.all().filter { $0.valid && $0.frame?.delivery != nil }
    }

    /// The invalid vectors whose delivery header is broken.
    static func brokenHeader() throws -> [FrameVector] {
        try FrameVector.all().filter { !$0.valid && $0.name.hasPrefix("delivery-") }
    }

    @Test func everyKindOfDeliveryVectorIsThere() throws {
        #expect(try Self.withHeader().count >= 5)
        #expect(try Self.brokenHeader().count >= 6)
    }

    @Test(arguments: try withHeader())
    func insertingTheHeaderIntoTheFrameWithoutItGivesTheVectorAndPeekReadsItBack(vector: FrameVector) throws {
        let raw = try Hex.bytes(vector.hex)
        var plain = try vector.expectedFrame()
        let header = try #require(plain.delivery)
        plain.delivery = nil
        #expect(try DeliveryFraming.inserting(header, into: FrameEncoder().encode(plain)) == raw)
        let peek = try DeliveryFraming.peek(raw)
        #expect(peek.delivery == header && peek.kind == plain.kind && peek.typeID == plain.typeID)
    }

    @Test(arguments: try brokenHeader())
    func peekRejectsABrokenHeaderAsTheDecoderDoes(vector: FrameVector) throws {
        let raw = try Hex.bytes(vector.hex)
        let failure = try #require(vector.error)
        do {
            let peek = try DeliveryFraming.peek(raw)
            Issue.record("\(vector.name) peeked as \(peek)")
        } catch {
            #expect(error.kind.name == failure.kind, "\(error)")
            #expect(error.offset == failure.offset, "\(error)")
        }
    }

    @Test func peekChecksTheChecksumAndInsertingRefusesAFrameWithAHeader() throws {
        var raw = try Hex.bytes(try #require(Self.withHeader().first).hex)
        let header = try #require(try DeliveryFraming.peek(raw).delivery)
        do {
            _ = try DeliveryFraming.inserting(header, into: raw)
            Issue.record("a second header was inserted")
        } catch {
            #expect(error.kind == .invalidValue && error.offset == 3)
        }
        raw[4] ^= 0x02
        do {
            _ = try DeliveryFraming.peek(raw)
            Issue.record("a corrupted header was believed")
        } catch {
            #expect(error.kind == .checksumMismatch && error.offset == raw.count - 4)
        }
    }
}
