import Testing

@testable import GroupWire

@Suite struct WireErrorTests {
    @Test func anErrorDescribesItsKindOffsetAndContext() {
        let error = WireError(.truncated, offset: 12, "need 4 bytes for crc32c, have 2")
        #expect(error.description == "truncated at offset 12: need 4 bytes for crc32c, have 2")
        #expect(error.kind == .truncated)
        #expect(error.kind != .badMagic)
    }

    @Test func shiftingMovesTheOffsetIntoTheEnclosingInput() {
        let error = WireError(.malformedVarint, offset: 3, "varint longer than 10 bytes").shifted(by: 100)
        #expect(error.offset == 103)
        #expect(WireError(.invalidValue, "no position").shifted(by: 100).offset == nil)
    }
}
