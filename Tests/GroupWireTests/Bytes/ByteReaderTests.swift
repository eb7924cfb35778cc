import Testing

@testable import GroupWire

@Suite struct ByteReaderTests {
    @Test func fixedWidthIntegersAreLittleEndian() throws {
        var reader = ByteReader([0x78, 0x56, 0x34, 0x12, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01])
        #expect(try reader.readFixed32LE() == 0x1234_5678)
        #expect(try reader.readFixed64LE() == 0x0102_0304_0506_0708)
        #expect(reader.isAtEnd)
    }

    @Test func aShortReadThrowsTruncatedAtTheReadOffsetAndConsumesNothing() throws {
        var reader = ByteReader([1, 2, 3])
        _ = try reader.readByte()
        do {
            _ = try reader.readFixed32LE()
            Issue.record("expected truncated")
        } catch {
            #expect(error.kind == .truncated)
            #expect(error.offset == 1)
        }
        #expect(reader.position == 1)
        #expect(reader.remaining == 2)
    }

    @Test func aHugeCountIsRejectedBeforeAnythingIsAllocated() {
        var reader = ByteReader([1, 2, 3])
        #expect(throws: WireError.self) { _ = try reader.readBytes(count: Int.max) }
        #expect(throws: WireError.self) { _ = try reader.readBytes(count: -1) }
        #expect(throws: WireError.self) { try reader.skip(count: 4) }
    }

    @Test func subReadersReportOffsetsInTheWholeInput() throws {
        var reader = ByteReader([9, 9, 0x80])
        try reader.skip(count: 2)
        var sub = try reader.subReader(count: 1)
        #expect(reader.isAtEnd)
        #expect(throws: WireError(.truncated, offset: 2, "varint runs past the end of the input")) {
            _ = try sub.readUVarint()
        }
    }

    @Test func invalidUTF8IsATypedError() throws {
        var reader = ByteReader([0x61, 0xC3, 0x28])
        do {
            _ = try reader.readUTF8(count: 3)
            Issue.record("expected invalidUTF8")
        } catch {
            #expect(error.kind == .invalidUTF8)
            #expect(error.offset == 0)
        }
        var good = ByteReader(Array("héllo".utf8))
        #expect(try good.readUTF8(count: 6) == "héllo")
    }
}
