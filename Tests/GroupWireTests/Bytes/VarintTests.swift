import Testing

@testable import GroupWire

@Suite struct VarintTests {
    static let documented: [(UInt64, [UInt8])] = [
        (0, [0x00]),
        (1, [0x01]),
        (127, [0x7F]),
        (128, [0x80, 0x01]),
        (300, [0xAC, 0x02]),
        (16_383, [0xFF, 0x7F]),
        (16_384, [0x80, 0x80, 0x01]),
        (UInt64(UInt32.max), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    @Test(arguments: documented)
    func unsignedVarintsHaveTheirDocumentedBytes(value: UInt64, expected: [UInt8]) throws {
        var writer = ByteWriter()
        writer.writeUVarint(value)
        #expect(writer.bytes == expected)
        #expect(Varint.encodedLength(value) == expected.count)
        var reader = ByteReader(expected)
        #expect(try reader.readUVarint() == value)
        #expect(reader.isAtEnd)
    }

    static let zigzagPairs: [(Int64, UInt64)] = [
        (0, 0), (-1, 1), (1, 2), (-2, 3), (Int64.max, UInt64.max - 1), (Int64.min, UInt64.max),
    ]

    @Test(arguments: zigzagPairs)
    func zigzagMapsSmallMagnitudesToSmallValues(signed: Int64, unsigned: UInt64) throws {
        #expect(Varint.zigzag(signed) == unsigned)
        #expect(Varint.unzigzag(unsigned) == signed)
        var writer = ByteWriter()
        writer.writeSVarint(signed)
        var reader = ByteReader(writer.bytes)
        #expect(try reader.readSVarint() == signed)
    }

    static let malformed: [([UInt8], String)] = [
        ([0x80, 0x00], "not minimally encoded"),
        ([0xFF, 0x80, 0x00], "not minimally encoded"),
        ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], "does not fit 64 bits"),
        ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x81, 0x01], "does not fit 64 bits"),
    ]

    @Test(arguments: malformed)
    func malformedVarintsAreRejectedWithTheirStartOffset(input: [UInt8], reason: String) {
        var reader = ByteReader([0x00] + input)
        #expect(throws: Never.self) { _ = try reader.readByte() }
        do {
            _ = try reader.readUVarint()
            Issue.record("expected malformedVarint for \(input)")
        } catch {
            #expect(error.kind == .malformedVarint)
            #expect(error.offset == 1)
            #expect(error.context.contains(reason))
        }
    }

    @Test func aVarintCutShortIsTruncatedNotMisread() {
        var reader = ByteReader([0x80, 0x80])
        #expect(throws: WireError(.truncated, offset: 0, "varint runs past the end of the input")) {
            _ = try reader.readUVarint()
        }
        #expect(reader.position == 0)
    }

    /// The shared reader itself, inside a larger buffer: each documented value from an
    /// offset, moving past it; each malformed or cut-short one nil with its reason and the
    /// position where it was. `end` bounds it even when bytes follow.
    @Test func theSharedReaderReadsWithinItsBoundsAndSaysWhyNot() {
        for (value, bytes) in Self.documented {
            let buffer: [UInt8] = [0xEE] + bytes + [0xFF]
            var position = 1
            var failure = Varint.Failure.tooLarge
            let read = buffer.withUnsafeBufferPointer { Varint.read($0, at: &position, end: 1 + bytes.count, failure: &failure) }
            #expect(read == value)
            #expect(position == 1 + bytes.count)
            #expect(failure == .tooLarge, "untouched on success")
        }
        let cases: [([UInt8], Int, Varint.Failure)] = [
            ([0x80, 0x00], 2, .notMinimal),
            ([0xFF, 0x80, 0x00], 3, .notMinimal),
            ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], 10, .tooLarge),
            ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x81, 0x01], 11, .tooLarge),
            ([0x80, 0x80], 2, .truncated),
            ([0x80, 0x01], 1, .truncated),  // the last byte lies past `end`
            ([], 0, .truncated),
        ]
        for (bytes, end, expected) in cases {
            let buffer = [0xEE] + bytes
            var position = 1
            var failure: Varint.Failure = expected == .truncated ? .tooLarge : .truncated
            let read = buffer.withUnsafeBufferPointer { Varint.read($0, at: &position, end: 1 + end, failure: &failure) }
            #expect(read == nil, "\(bytes)")
            #expect(failure == expected, "\(bytes)")
            #expect(position == 1, "\(bytes): unmoved")
        }
    }
}
