import Foundation
import Testing

@testable import GroupWire

@Suite struct WireCodableMalformedInputTests {
    private func decodeError<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], limits: Limits = .default) -> WireError? {
        wireError { _ = try WireDecoder(limits: limits).decode(T.self, from: bytes) }
    }

    @Test func emptyInputIsTruncatedAtOffsetZero() {
        let error = decodeError(Int.self, [])
        #expect(error?.kind == .truncated)
        #expect(error?.offset == 0)
    }

    @Test func bytesAfterTheValueAreTrailingBytes() {
        let error = decodeError(Int.self, [0x00, 0x02, 0x00])
        #expect(error?.kind == .trailingBytes)
        #expect(error?.offset == 2)
    }

    @Test func undefinedWireTypesAreRejectedWhereTheyAppear() {
        #expect(decodeError(Int.self, [0x07]).map { [$0.kind.name, "\($0.offset ?? -1)"] } == ["unknownWireType", "0"])
        // A keyed entry with wire type 7 after a valid one.
        let bytes: [UInt8] = [0x02, 0x05, 0x08, 0x61, 0x02, 0x0F, 0x62]
        let error = decodeError(ProfileB.self, bytes)
        #expect(error?.kind == .unknownWireType)
        #expect(error?.offset == 5)
    }

    @Test func shortFixedWidthValuesAreTruncated() {
        let error = decodeError(Double.self, [0x01, 0, 0, 0])
        #expect(error?.kind == .truncated)
        #expect(error?.offset == 1)
    }

    @Test func aLengthPastTheEndIsTruncatedBeforeAnythingIsAllocated() {
        let error = decodeError(String.self, [0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x61])
        #expect(error?.kind == .truncated)
        #expect(error?.offset == 1)
    }

    @Test func nonMinimalVarintsAreMalformed() {
        let error = decodeError(Int.self, [0x00, 0x80, 0x00])
        #expect(error?.kind == .malformedVarint)
        #expect(error?.offset == 1)
    }

    @Test func invalidUTF8InAStringIsReportedAtTheStringBytes() {
        let error = decodeError(String.self, [0x02, 0x02, 0x61, 0xFF])
        #expect(error?.kind == .invalidUTF8)
        #expect(error?.offset == 2)
    }

    @Test func aValueOfTheWrongWireTypeIsATypeMismatchWithItsCodingPath() throws {
        struct Text: Codable { var x: String }
        let bytes = try WireEncoder().encode(Point(x: 1, y: 2))
        let error = decodeError(Text.self, bytes)
        #expect(error?.kind == .typeMismatch)
        #expect(error?.offset == 4)
        #expect(error?.context.contains("coding path: x") == true)
        #expect(decodeError([Int].self, [0x00, 0x02])?.kind == .typeMismatch)
        #expect(decodeError(Point.self, [0x02, 0x01, 0x00, 0x00])?.kind != nil)
    }

    @Test func outOfRangeNumbersAndBoolsAreInvalidValues() throws {
        #expect(decodeError(Int8.self, try WireEncoder().encode(300))?.kind == .invalidValue)
        #expect(decodeError(UInt8.self, try WireEncoder().encode(256 as UInt))?.kind == .invalidValue)
        #expect(decodeError(Bool.self, [0x00, 0x02])?.kind == .invalidValue)
        // A UUID that is not fixed128 is read through UUID's own init(from:): a string.
        #expect(decodeError(UUID.self, [0x00, 0x01])?.kind == .typeMismatch)
        #expect(throws: DecodingError.self) { try WireDecoder().decode(UUID.self, from: [0x02, 0x01, 0x00]) }
        // The compact URL and Decimal forms (opaque) hold text that must parse.
        func opaque(_ text: String) -> [UInt8] { [0x06, UInt8(text.utf8.count)] + Array(text.utf8) }
        #expect(decodeError(URL.self, opaque(""))?.kind == .invalidValue)
        #expect(decodeError(Decimal.self, opaque("1e5"))?.kind == .invalidValue)
        #expect(decodeError(Decimal.self, [0x06, 0xAC, 0x02] + [UInt8](repeating: 0x39, count: 300))?.kind == .invalidValue)
        #expect(decodeError(Int128.self, [0x02, 0x03, 0x01, 0x02, 0x03])?.kind == .typeMismatch)
        #expect(decodeError(UUID.self, [0x04, 0x01])?.kind == .truncated)
    }

    @Test func errorsDeepInsideCollectionsNameTheElementPath() throws {
        struct Outer: Codable { var rows: [[String: Int8]] }
        let bytes = try WireEncoder().encode(["rows": [["a": 1], ["b": 1000]]])
        let error = try #require(decodeError(Outer.self, bytes))
        #expect(error.kind == .invalidValue)
        #expect(error.context.contains("coding path: rows[1].b"))
    }

    @Test func readingPastTheLastElementIsAMissingFieldError() throws {
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Int.self)
                _ = try container.decode(Int.self)
            }
        }
        let error = decodeError(Pair.self, try WireEncoder().encode([1]))
        #expect(error?.kind == .missingField)
    }

    @Test func aMalformedEntryInADictionaryIsReportedEvenThoughAllKeysCannotThrow() {
        // {"a": 1, then an entry with wire type 7}
        let bytes: [UInt8] = [0x02, 0x05, 0x08, 0x61, 0x02, 0x0F, 0x62]
        let error = decodeError([String: Int].self, bytes)
        #expect(error?.kind == .unknownWireType)
        #expect(error?.offset == 5)
        // A key that is not UTF-8.
        #expect(decodeError([String: Int].self, [0x02, 0x03, 0x08, 0xFF, 0x02])?.kind == .invalidUTF8)
    }

    struct ProfileB: Codable { var a: Int; var b: Int }
}

@Suite struct WireCodableLimitsTests {
    @Test func nestingDeeperThanTheLimitIsDepthExceeded() throws {
        let deep: [[[[[[Int]]]]]] = [[[[[[1]]]]]]
        let bytes = try WireEncoder().encode(deep)
        #expect(try WireDecoder(limits: Limits(maxNestingDepth: 6)).decode([[[[[[Int]]]]]].self, from: bytes) == deep)
        let error = wireError {
            _ = try WireDecoder(limits: Limits(maxNestingDepth: 5)).decode([[[[[[Int]]]]]].self, from: bytes)
        }
        #expect(error?.kind == .depthExceeded)
        #expect(error?.context.contains("[0][0][0][0][0]") == true)
    }

    @Test func selfReferentialWrappersCannotRecurseWithoutBound() throws {
        let error = wireError { _ = try WireDecoder().decode(Recursive.self, from: [0x00, 0x02]) }
        #expect(error?.kind == .depthExceeded)
    }

    @Test func collectionsOverTheCountLimitAreRejectedBeforeDecoding() throws {
        let bytes = try WireEncoder().encode([Int](repeating: 1, count: 11))
        let error = wireError { _ = try WireDecoder(limits: Limits(maxCollectionCount: 10)).decode([Int].self, from: bytes) }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.offset == 2)
        // A count larger than the bytes left cannot be honest: each element takes a byte.
        let lying: [UInt8] = [0x02, 0x02, 0x7F, 0x03]
        #expect(wireError { _ = try WireDecoder().decode([Int?].self, from: lying) }?.kind == .truncated)
    }

    @Test func dictionariesOverTheCountLimitAreRejected() throws {
        let bytes = try WireEncoder().encode(Dictionary(uniqueKeysWithValues: (0..<11).map { ("k\($0)", $0) }))
        let error = wireError {
            _ = try WireDecoder(limits: Limits(maxCollectionCount: 10)).decode([String: Int].self, from: bytes)
        }
        #expect(error?.kind == .limitExceeded)
        #expect(try WireDecoder(limits: Limits(maxCollectionCount: 11)).decode([String: Int].self, from: bytes).count == 11)
    }

    @Test func stringsAndBytesOverTheirLimitsAreRejected() throws {
        let string = try WireEncoder().encode("hello")
        let stringError = wireError { _ = try WireDecoder(limits: Limits(maxStringLength: 4)).decode(String.self, from: string) }
        #expect(stringError?.kind == .limitExceeded)
        #expect(stringError?.offset == 1)
        let data = try WireEncoder().encode(Data([1, 2, 3, 4, 5]))
        let dataError = wireError { _ = try WireDecoder(limits: Limits(maxBytesLength: 4)).decode(Data.self, from: data) }
        #expect(dataError?.kind == .limitExceeded)
        #expect(try WireDecoder(limits: Limits(maxBytesLength: 5)).decode(Data.self, from: data) == Data([1, 2, 3, 4, 5]))
    }
}

/// Decodes itself from its own single value container, forever unless depth is bounded.
final class Recursive: Decodable {
    let next: Recursive
    init(from decoder: any Decoder) throws {
        next = try decoder.singleValueContainer().decode(Recursive.self)
    }
}
