import Foundation
import Testing

@testable import GroupWire

/// The byte-exact examples of Spec/FORMAT.md, "Encoding of arbitrary Codable values".
@Suite struct WireCodableBytesTests {
    private func bytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        try WireEncoder().encode(value)
    }

    @Test func integersAreAVarintByteThenZigzagOrPlainVarints() throws {
        #expect(try bytes(1 as Int) == [0x00, 0x02])
        #expect(try bytes(-1 as Int) == [0x00, 0x01])
        #expect(try bytes(300 as UInt16) == [0x00, 0xAC, 0x02])
        #expect(try bytes(true) == [0x00, 0x01])
    }

    @Test func floatingPointValuesAreLittleEndianBitPatterns() throws {
        #expect(try bytes(1.0 as Float) == [0x05, 0x00, 0x00, 0x80, 0x3F])
        // -2.0 is exact as a Float, so the Double is narrowed to fixed32; 0.1 is not.
        #expect(try bytes(-2.0 as Double) == [0x05, 0x00, 0x00, 0x00, 0xC0])
        #expect(try bytes(0.1 as Double) == [0x01, 0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F])
        #expect(try bytes(12.5 as Double) == [0x05, 0x00, 0x00, 0x48, 0x41])
        #expect(try bytes(-0.0 as Double) == [0x05, 0x00, 0x00, 0x00, 0x80])
    }

    @Test func stringsAndNilUseLenAndNullWireTypes() throws {
        #expect(try bytes("hi") == [0x02, 0x02, 0x68, 0x69])
        #expect(try bytes("") == [0x02, 0x00])
        #expect(try bytes(Int?.none) == [0x03])
    }

    @Test func aStructIsAKeyedContainerOfHeaderKeyAndValueEntries() throws {
        let encoded = try bytes(Point(x: 1.5, y: -2))
        // Both coordinates are exact as Floats: fixed32 (header 1 << 3 | 5 = 0x0d).
        #expect(
            encoded == [
                0x02, 0x0C,
                0x0D, 0x78, 0x00, 0x00, 0xC0, 0x3F,
                0x0D, 0x79, 0x00, 0x00, 0x00, 0xC0,
            ])
    }

    @Test func anArrayIsACountThenTypedElements() throws {
        #expect(try bytes([1, 2, 3] as [UInt8]) == [0x02, 0x07, 0x03, 0x00, 0x01, 0x00, 0x02, 0x00, 0x03])
        #expect(try bytes([Int?.none, 5]) == [0x02, 0x04, 0x02, 0x03, 0x00, 0x0A])
    }

    @Test func aUUIDIsSixteenRawBytesOfWireTypeFixed128() throws {
        let id = try #require(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF"))
        #expect(
            try bytes(id) == [
                0x04, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF,
            ])
    }

    @Test func aDateIsItsReferenceDateSecondsAsFixed64() throws {
        #expect(try bytes(Date(timeIntervalSinceReferenceDate: -2)) == [0x01, 0, 0, 0, 0, 0, 0, 0, 0xC0])
    }

    @Test func optionalFieldsThatAreNilAreOmittedAndExplicitNilsAreWritten() throws {
        struct Tagged: Codable {
            var a: Int?
            var b: Int?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(a, forKey: .a)
                try container.encodeNil(forKey: .b)
            }
        }
        #expect(try bytes(Tagged(a: nil, b: nil)) == [0x02, 0x02, 0x0B, 0x62])
        #expect(try bytes(Tagged(a: -3, b: nil)) == [0x02, 0x05, 0x08, 0x61, 0x05, 0x0B, 0x62])
    }

    @Test func lengthsOfOneHundredTwentyEightOrMoreGrowTheirPrefix() throws {
        let long = String(repeating: "a", count: 130)
        let encoded = try bytes([long])
        // len 134 = 0x86 0x01, count 1, element: wire type len, length 130 = 0x82 0x01, bytes.
        #expect(Array(encoded.prefix(7)) == [0x02, 0x86, 0x01, 0x01, 0x02, 0x82, 0x01])
        #expect(encoded.count == 7 + 130)

        let many = try bytes([UInt8](repeating: 0, count: 128))
        #expect(Array(many.prefix(5)) == [0x02, 0x82, 0x02, 0x80, 0x01])
        #expect(many.count == 5 + 256)
    }

    @Test func anEnumWithAssociatedValuesIsAKeyedContainerNamedByItsCase() throws {
        let encoded = try bytes(Shape.labelled("a", nil))
        // {"labelled": {"_0": "a"}}: the nil second value is omitted.
        #expect(
            encoded == [
                0x02, 0x0F,
                0x42, 0x6C, 0x61, 0x62, 0x65, 0x6C, 0x6C, 0x65, 0x64,
                0x05, 0x12, 0x5F, 0x30, 0x01, 0x61,
            ])
    }

    @Test func numberedKeysAreAZeroLengthHeaderThenTheNumberPlusOne() throws {
        struct Numbered: Codable {
            var x: Double
            var name: String
            enum CodingKeys: Int, CodingKey { case x = 1, name = 200 }
        }
        // x: header 0x05 (key length 0, fixed32), tag 2 (= 1 + 1), 1.5 as binary32.
        // name: header 0x02 (key length 0, len), tag 201 = c9 01, "hi".
        #expect(
            try bytes(Numbered(x: 1.5, name: "hi")) == [
                0x02, 0x0C,
                0x05, 0x02, 0x00, 0x00, 0xC0, 0x3F,
                0x02, 0xC9, 0x01, 0x02, 0x68, 0x69,
            ])
    }

    @Test func intKeyedDictionariesUseNumbersAndNegativeKeysTheirText() throws {
        // [3: true]: one entry, header 0x00 (varint), tag 4, value 1.
        #expect(try bytes([3: true]) == [0x02, 0x03, 0x00, 0x04, 0x01])
        // [-1: true]: negative numbers are not numbered; the key is the text "-1".
        #expect(try bytes([-1: true]) == [0x02, 0x04, 0x10, 0x2D, 0x31, 0x01])
    }

    @Test func anEmptyNameIsAZeroLengthHeaderThenZero() throws {
        #expect(try bytes(["": 5]) == [0x02, 0x03, 0x00, 0x00, 0x0A])
    }
}
