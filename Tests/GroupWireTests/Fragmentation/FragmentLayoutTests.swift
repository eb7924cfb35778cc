import Testing

@testable import GroupWire

@Suite struct FragmentLayoutTests {
    let limits = Limits.default

    private func implied(index: UInt32, count: UInt32, total: UInt64, offset: UInt64, bodyCount: Int) throws(WireError)
        -> FragmentLayout
    {
        try FragmentLayout.implied(
            by: FragmentInfo(messageID: 1, index: index, count: count, totalLength: total, offset: offset),
            bodyCount: bodyCount, limits: limits)
    }

    @Test func aLayoutCutsTheBodyIntoEqualPiecesAndAShorterLastOne() throws {
        let layout = try #require(FragmentLayout(totalLength: 25, fragmentBodySize: 10))
        #expect(layout.count == 3)
        #expect(layout.range(ofFragment: 0) == 0..<10)
        #expect(layout.range(ofFragment: 2) == 20..<25)
        #expect(FragmentLayout(totalLength: 10, fragmentBodySize: 10) == nil)
        #expect(FragmentLayout(totalLength: 10, fragmentBodySize: 0) == nil)
    }

    @Test func aMiddleFragmentAndTheLastFragmentImplyTheSameLayout() throws {
        let fromMiddle = try implied(index: 1, count: 3, total: 25, offset: 10, bodyCount: 10)
        let fromLast = try implied(index: 2, count: 3, total: 25, offset: 20, bodyCount: 5)
        #expect(fromMiddle == fromLast)
        #expect(fromMiddle.fragmentBodySize == 10)
    }

    @Test func anOffsetThatOverlapsAnotherFragmentIsInvalid() throws {
        let error = try #require(throws: WireError.self) { try implied(index: 1, count: 3, total: 25, offset: 5, bodyCount: 10) }
        #expect(error.kind == .invalidFragment)
    }

    @Test func aTotalLengthThatDoesNotTakeCountFragmentsIsInvalid() throws {
        // Three fragments of 10 bytes hold 21 ... 30 bytes, not 1_000.
        let error = try #require(throws: WireError.self) {
            try implied(index: 0, count: 3, total: 1_000, offset: 0, bodyCount: 10)
        }
        #expect(error.kind == .invalidFragment)
        #expect(error.context.contains("does not take 3 fragments"))
    }

    @Test func aLastFragmentLongerThanTheOthersIsInvalid() throws {
        let error = try #require(throws: WireError.self) { try implied(index: 1, count: 2, total: 25, offset: 10, bodyCount: 15) }
        #expect(error.kind == .invalidFragment)
    }

    @Test func aLastFragmentThatStopsShortOfTheTotalIsInvalid() throws {
        let error = try #require(throws: WireError.self) { try implied(index: 2, count: 3, total: 25, offset: 20, bodyCount: 4) }
        #expect(error.kind == .invalidFragment)
    }

    @Test func anEmptyFragmentIsInvalid() throws {
        let error = try #require(throws: WireError.self) { try implied(index: 0, count: 2, total: 0, offset: 0, bodyCount: 0) }
        #expect(error.kind == .invalidFragment)
    }

    @Test func anIndexAtTheCountIsInvalid() throws {
        let error = try #require(throws: WireError.self) { try implied(index: 3, count: 3, total: 25, offset: 30, bodyCount: 0) }
        #expect(error.kind == .invalidFragment)
    }

    @Test func aCountOrTotalOverTheLimitsIsALimitError() throws {
        let count = try #require(throws: WireError.self) {
            try implied(index: 0, count: 5_000, total: 50_000, offset: 0, bodyCount: 10)
        }
        #expect(count.kind == .limitExceeded)
        let total = try #require(throws: WireError.self) {
            try implied(index: 0, count: 2, total: 1 << 40, offset: 0, bodyCount: 10)
        }
        #expect(total.kind == .limitExceeded)
    }
}
