import Testing

@testable import GroupWire

@Suite struct FragmenterTests {
    @Test func aBodyThatFitsOneFrameBecomesTheSameDataFrameTheEncoderWrites() throws {
        let body = patternedBody(count: 300)
        let frames = try Fragmenter().frames(typeID: 9, messageID: 4, body: body)
        let expected = try FrameEncoder().encode(Frame(kind: .data, typeID: 9, body: body))
        #expect(frames == [expected])
    }

    @Test func aBodyOneByteOverTheFrameBecomesTwoFragments() throws {
        // A data frame with type id 9 and this body is 65_537 bytes: one over the default limit.
        let bodyCount = 65_536 - 2 - 3 - 1 - 1 - 4 + 1
        #expect(FrameEncoder.frameSize(typeID: 9, compression: nil, fragment: nil, bodyCount: bodyCount) == 65_537)
        let layout = try #require(try Fragmenter().layout(typeID: 9, messageID: 4, bodyCount: bodyCount))
        #expect(layout.count == 2)
        let frames = try Fragmenter().frames(typeID: 9, messageID: 4, body: patternedBody(count: bodyCount))
        #expect(frames.count == 2)
        #expect(frames.allSatisfy { $0.count <= 65_536 })
    }

    @Test func theDefaultsCutASixteenMebibyteMessageIntoTwoHundredFiftySevenFragments() throws {
        // The figures quoted in Spec/FORMAT.md, "Fragment frames", "The uniform layout".
        let layout = try #require(try Fragmenter().layout(typeID: 9, messageID: 4, bodyCount: 16 << 20))
        #expect(layout.fragmentBodySize == 65_508)
        #expect(layout.count == 257)
    }

    @Test func everyFragmentFitsTheFrameSizeAndRepeatsTheMessageHeader() throws {
        let body = patternedBody(count: 1_000)
        let frames = try decodedFrames(body, typeID: 300, messageID: 1 << 40, maxFrameSize: 64)
        let layout = try #require(
            try Fragmenter(limits: Limits(maxFrameSize: 64)).layout(typeID: 300, messageID: 1 << 40, bodyCount: 1_000))
        #expect(frames.count == layout.count)
        for (index, frame) in frames.enumerated() {
            let info = try #require(frame.fragment)
            #expect(frame.kind == .fragment)
            #expect(frame.typeID == 300)
            #expect(info.messageID == 1 << 40)
            #expect(info.index == UInt32(index))
            #expect(info.count == UInt32(layout.count))
            #expect(info.totalLength == 1_000)
            #expect(info.offset == UInt64(index * layout.fragmentBodySize))
            #expect(frame.body == Array(body[layout.range(ofFragment: index)]))
        }
        let encoded = try Fragmenter(limits: Limits(maxFrameSize: 64)).frames(typeID: 300, messageID: 1 << 40, body: body)
        #expect(encoded.allSatisfy { $0.count <= 64 })
        // The body size leaves room for the widest header of the message, so frames use
        // the limit to within a few header bytes.
        #expect(encoded.dropLast().allSatisfy { $0.count >= 64 - 4 })
    }

    @Test func aCompressedBodyIsCutWithTheCompressionHeaderOnEveryFragment() throws {
        let compression = CompressionInfo(dictionaryID: 3, contentSize: 5_000)
        let frames = try decodedFrames(patternedBody(count: 500), compression: compression, maxFrameSize: 80)
        #expect(frames.count > 2)
        #expect(frames.allSatisfy { $0.compression == compression })
    }

    @Test func encodingIntoAWriterWritesTheSameFramesBackToBack() throws {
        let body = patternedBody(count: 777)
        let fragmenter = Fragmenter(limits: Limits(maxFrameSize: 100))
        var writer = ByteWriter()
        try fragmenter.encode(typeID: 5, messageID: 2, body: body, into: &writer)
        let frames = try fragmenter.frames(typeID: 5, messageID: 2, body: body)
        #expect(writer.bytes == frames.flatMap { $0 })
        var streamed: [[UInt8]] = []
        try fragmenter.forEachFrame(typeID: 5, messageID: 2, body: body) { streamed.append($0) }
        #expect(streamed == frames)
    }

    @Test func aBodyOverTheMessageLimitIsRefused() throws {
        let fragmenter = Fragmenter(limits: Limits(maxMessageSize: 1_000))
        let error = try #require(throws: WireError.self) {
            try fragmenter.frames(typeID: 1, messageID: 1, body: patternedBody(count: 1_001))
        }
        #expect(error.kind == .limitExceeded)
        #expect(error.context.contains("maxMessageSize 1000"))
    }

    @Test func aBodyNeedingTooManyFragmentsIsRefused() throws {
        let fragmenter = Fragmenter(limits: Limits(maxFrameSize: 64, maxFragmentCount: 4))
        let error = try #require(throws: WireError.self) {
            try fragmenter.frames(typeID: 1, messageID: 1, body: patternedBody(count: 1_000))
        }
        #expect(error.kind == .limitExceeded)
        #expect(error.context.contains("maxFragmentCount 4"))
    }

    @Test func aFrameSizeTooSmallForAnyFragmentBodyIsRefused() throws {
        // 14 bytes: prelude 3, kind 1, type id 1, five fragment varints 5, checksum 4.
        let fragmenter = Fragmenter(limits: Limits(maxFrameSize: 14))
        let error = try #require(throws: WireError.self) {
            try fragmenter.frames(typeID: 1, messageID: 1, body: patternedBody(count: 100))
        }
        #expect(error.kind == .frameTooLarge)
    }

    @Test func typeIDZeroIsRefusedBeforeAnyFrameIsEmitted() throws {
        var emitted = 0
        let error = try #require(throws: WireError.self) {
            try Fragmenter().forEachFrame(typeID: 0, messageID: 1, body: [1, 2, 3]) { _ in emitted += 1 }
        }
        #expect(error.kind == .invalidTypeID)
        #expect(emitted == 0)
    }
}
