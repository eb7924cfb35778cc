import Foundation
import GroupWireTestSupport
import Testing

@testable import GroupWire

/// A hand-written message in the shape generated code takes, to exercise the payload
/// primitives the generator builds on.
private struct PayloadPoint: WirePayloadCodable, Equatable {
    var x: Double = 0
    var y: Double = 0

    func encodeWire(to writer: inout PayloadWriter) {
        if x != 0 { writer.writeDouble(1, x) }
        if y != 0 { writer.writeDouble(2, y) }
    }

    init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    init(decodingWire reader: inout PayloadReader) throws(WireError) {
        while let key = try reader.nextKey() {
            switch key.number {
            case 1: try reader.expect(key, .fixed64, field: "x"); x = try reader.readDouble()
            case 2: try reader.expect(key, .fixed64, field: "y"); y = try reader.readDouble()
            default: try reader.skip(key)
            }
        }
    }
}

private struct UpsertStroke: WireMessage, Equatable {
    static let wireTypeID: UInt64 = 1
    static let wireTypeName = "UpsertStroke"

    var id: UUID
    var color: UInt64
    var point: PayloadPoint
    var tags: [String] = []
    var unknownFields: [UInt8] = []

    func encodeWire(to writer: inout PayloadWriter) {
        writer.writeUUID(1, id)
        if color != 0 { writer.writeUInt(2, color) }
        writer.writeNested(3) { point.encodeWire(to: &$0) }
        for tag in tags { writer.writeString(4, tag) }
        writer.writeRaw(unknownFields)
    }

    init(id: UUID, color: UInt64, point: PayloadPoint, tags: [String] = []) {
        self.id = id
        self.color = color
        self.point = point
        self.tags = tags
    }

    init(decodingWire reader: inout PayloadReader) throws(WireError) {
        var id: UUID?
        color = 0
        point = PayloadPoint(x: 0, y: 0)
        while let key = try reader.nextKey() {
            switch key.number {
            case 1: try reader.expect(key, .lengthDelimited, field: "id"); id = try reader.readUUID()
            case 2: try reader.expect(key, .varint, field: "color"); color = try reader.readUInt()
            case 3:
                try reader.expect(key, .lengthDelimited, field: "point")
                point = try reader.readNested { (nested) throws(WireError) in try PayloadPoint(decodingWire: &nested) }
            case 4: try reader.expect(key, .lengthDelimited, field: "tags"); tags.append(try reader.readString())
            default: unknownFields += try reader.captureUnknown(key)
            }
        }
        guard let id else { throw WireError(.missingField, offset: reader.reader.position, "UpsertStroke.id is required") }
        self.id = id
    }
}

@Suite struct PayloadCodecTests {
    static let id = UUID(uuid: (0x6F, 0x1C, 0x2A, 0x9E, 0x4B, 0x7D, 0x4E, 0x0F, 0x8A, 0x3B, 0x5C, 0x6D, 0x7E, 0x8F, 0x9A, 0x0B))

    @Test func theFormatDocumentsExampleBytesAreWhatTheWriterProduces() throws {
        let message = UpsertStroke(id: Self.id, color: 2, point: PayloadPoint(x: 12.5, y: -3.25))
        let expected = try Hex.bytes(
            "0a106f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b" + "1002" + "1a12" + "090000000000002940" + "110000000000000ac0")
        #expect(message.wirePayload() == expected)
        #expect(try UpsertStroke(wirePayload: message.wirePayload()) == message)
    }

    @Test func nestedContentOver127BytesGetsAMultiByteLengthPrefix() throws {
        let tags = (0..<20).map { "tag number \($0)" }
        var writer = PayloadWriter()
        writer.writeNested(9) { nested in
            for tag in tags { nested.writeString(1, tag) }
        }
        var reader = PayloadReader(writer.bytes)
        let key = try #require(try reader.nextKey())
        #expect(key == FieldKey(number: 9, wireType: .lengthDelimited))
        let decoded = try reader.readNested { (nested) throws(WireError) -> [String] in
            var result: [String] = []
            while try nested.nextKey() != nil { result.append(try nested.readString()) }
            return result
        }
        #expect(decoded == tags)
        #expect(writer.bytes[1] & 0x80 != 0)
    }

    @Test func unknownFieldsSurviveARoundTripThroughAnOlderReader() throws {
        var newer = PayloadWriter()
        UpsertStroke(id: Self.id, color: 1, point: PayloadPoint(x: 1, y: 2)).encodeWire(to: &newer)
        newer.writeString(50, "added in v2")
        newer.writeDouble(51, 0.5)
        let old = try UpsertStroke(wirePayload: newer.bytes)
        #expect(old.unknownFields.count > 0)
        #expect(old.wirePayload() == newer.bytes)
    }

    @Test func aWrongWireTypeIsATypeMismatchNamingTheField() {
        var writer = PayloadWriter()
        writer.writeUUID(1, Self.id)
        writer.writeString(2, "red")
        do {
            _ = try UpsertStroke(wirePayload: writer.bytes)
            Issue.record("expected typeMismatch")
        } catch {
            #expect(error.kind == .typeMismatch)
            #expect(error.context.contains("color"))
        }
    }

    @Test func aMissingRequiredFieldIsReported() {
        var writer = PayloadWriter()
        writer.writeUInt(2, 3)
        #expect(throws: WireError(.missingField, offset: 2, "UpsertStroke.id is required")) {
            _ = try UpsertStroke(wirePayload: writer.bytes)
        }
    }

    @Test(arguments: [
        ("0b", "unknownWireType"),  // field 1, wire type 3
        ("0f", "unknownWireType"),  // field 1, wire type 7
        ("00", "invalidValue"),  // field 0
        ("0a0f" + String(repeating: "00", count: 15), "invalidValue"),  // a 15-byte UUID
        ("0aff7f", "limitExceeded"),  // a 16,383-byte UUID
        ("0a10", "truncated"),  // the UUID's bytes are missing
        ("0a106f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b1a05", "truncated"),  // nested length past the end
        ("0a106f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b2202c328", "invalidUTF8"),
    ])
    func malformedPayloadsFailWithTypedErrors(hex: String, kind: String) throws {
        let input = try Hex.bytes(hex)
        do {
            _ = try UpsertStroke(wirePayload: input)
            Issue.record("expected \(kind)")
        } catch {
            #expect(error.kind.name == kind, "\(error)")
        }
    }

    @Test func nestingDeeperThanTheLimitIsRejected() throws {
        // Fifty levels of field 1 wrapping field 1 ...
        var payload: [UInt8] = []
        for _ in 0..<50 {
            payload = [0x0A] + encodeLength(payload.count) + payload
        }
        func walk(_ reader: inout PayloadReader) throws(WireError) {
            while let key = try reader.nextKey() {
                if key.wireType == .lengthDelimited {
                    try reader.readNested { (nested) throws(WireError) in try walk(&nested) }
                } else {
                    try reader.skip(key)
                }
            }
        }
        var shallow = PayloadReader(payload, limits: Limits(maxNestingDepth: 10))
        #expect(throws: WireError.self) { try walk(&shallow) }
        var deep = PayloadReader(payload, limits: Limits(maxNestingDepth: 64))
        try walk(&deep)
        #expect(deep.isAtEnd)
    }

    @Test func packedArraysCountTheirElementsAgainstTheLimit() throws {
        var writer = PayloadWriter()
        writer.writeNested(1) { packed in
            for value in 0..<10 { packed.writer.writeUVarint(UInt64(value)) }
        }
        var reader = PayloadReader(writer.bytes, limits: Limits(maxCollectionCount: 5))
        _ = try reader.nextKey()
        var seen: [UInt64] = []
        #expect(throws: WireError.self) {
            try reader.readPacked { (element) throws(WireError) in seen.append(try element.readUInt()) }
        }
        #expect(seen == [0, 1, 2, 3, 4])
    }

    @Test func theRegistryDecodesAFrameByItsTypeIDAndRejectsUnknownIDs() throws {
        let registry = try MessageRegistry([UpsertStroke.self])
        let message = UpsertStroke(id: Self.id, color: 4, point: PayloadPoint(x: 3, y: 4))
        let frame = try FrameDecoder().decode(try message.wireFrame())
        #expect(frame.typeID == 1)
        let decoded = try registry.decode(frame)
        #expect(decoded as? UpsertStroke == message)
        #expect(throws: WireError.self) { _ = try registry.decode(Frame(typeID: 2, body: [])) }
        #expect(registry.typeIDs == [1])
    }

    private func encodeLength(_ count: Int) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeUVarint(UInt64(count))
        return writer.bytes
    }
}
