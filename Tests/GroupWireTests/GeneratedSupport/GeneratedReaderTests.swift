import Foundation
import GroupWire
import Testing

/// The reading helpers generated decoders call: their fast paths give what the checked
/// paths give, and errors keep their kinds and offsets.
struct GeneratedReaderTests {
    @Test func aUUIDIsItsSixteenBytesInOrder() throws {
        let bytes: [UInt8] = [0x10] + (0..<16).map { UInt8(truncatingIfNeeded: $0 * 17 + 3) }
        var reader = PayloadReader(bytes)
        let fast = try reader._readUUID()
        var checked = PayloadReader(bytes)
        #expect(fast == (try checked.readUUID()))
        #expect(fast.uuidString == "03142536-4758-697A-8B9C-ADBECFE0F102")
        #expect(MemoryLayout<UUID>.size == 16)
        #expect(reader.reader.isAtEnd)
        var short = PayloadReader([0x0F] + [UInt8](repeating: 1, count: 15))
        expectError(.invalidValue, at: 0) { _ = try short._readUUID() }
    }

    @Test func aNestedValueIsEnteredAlikeWithAOneByteLengthAndALongerOne() throws {
        // A one-byte length (the fast path) and the same length written in two bytes are
        // refused as not minimal by the checked path, so compare lengths 5 and 200 instead.
        for length in [0, 5, 127, 128, 200] {
            var prefix: [UInt8] = []
            var rest = length
            while rest >= 0x80 {
                prefix.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            prefix.append(UInt8(rest))
            let bytes = prefix + [UInt8](repeating: 0, count: length) + [0xAA]
            var reader = PayloadReader(bytes)
            let enclosing = try reader._enterNested(depth: 0)
            #expect(enclosing == bytes.count)
            #expect(reader.reader.position == prefix.count)
            #expect(reader.reader.end == prefix.count + length)
            #expect(reader.decodedValues == 1)
        }
    }

    @Test func aNestedValueOverTheEndOrTheLimitsFailsWithItsKindAndOffset() throws {
        // One byte past what is left: truncated at the length.
        var over = PayloadReader([0x00, 0x05, 1, 2, 3, 4])
        _ = try over.reader.readByte()
        expectError(.truncated, at: 2) { _ = try over._enterNested(depth: 0) }
        // At the depth limit: depthExceeded before anything is read.
        var deep = PayloadReader([0x01, 0x00])
        let maxDepth = deep.limits.maxNestingDepth
        expectError(.depthExceeded, at: 0) { _ = try deep._enterNested(depth: maxDepth) }
        // Past the value count: limitExceeded.
        var limits = Limits.default
        limits.maxDecodedValues = 1
        var counted = PayloadReader([0x00, 0x00], limits: limits)
        _ = try counted._enterNested(depth: 0)
        expectError(.limitExceeded, at: 1) { _ = try counted._enterNested(depth: 0) }
        // Over the size limit: limitExceeded at the length.
        limits = Limits.default
        limits.maxMessageSize = 3
        var large = PayloadReader([0x04, 1, 2, 3, 4], limits: limits)
        expectError(.limitExceeded, at: 0) { _ = try large._enterNested(depth: 0) }
    }
}

/// Expects `body` to throw a `WireError` of `kind` at `offset`.
private func expectError(
    _ kind: WireError.Kind, at offset: Int, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("no error; expected \(kind) at \(offset)", sourceLocation: sourceLocation)
    } catch let error as WireError {
        #expect(error.kind == kind, sourceLocation: sourceLocation)
        #expect(error.offset == offset, sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(error); expected a WireError", sourceLocation: sourceLocation)
    }
}
