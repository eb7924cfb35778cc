import GroupWire

/// The end-to-end path a large message takes: fragment → encode frames (CRC32C) → decode
/// frames (CRC32C, checks) → reassemble. One frame exists at a time, as on a real link.
enum Pipeline {
    enum Failure: Error {
        case lost(String)
    }

    /// Fragments `body` and hands each encoded frame to `deliver`, which decodes it into
    /// the reassembler its own way; returns the reassembled body.
    private static func run(
        _ body: [UInt8], messageID: UInt64,
        deliver: ([UInt8], inout Reassembler<Int>) throws -> [ReassemblyResult<Int>]
    ) throws -> [UInt8] {
        var reassembler = Reassembler<Int>()
        var delivered: [UInt8]?
        try Fragmenter().forEachFrame(typeID: 1, messageID: messageID, body: body) { frame in
            for result in try deliver(frame, &reassembler) {
                if let message = result.message { delivered = message.body }
                if let drop = result.drops.first { throw Failure.lost(drop.description) }
            }
        }
        guard let delivered else { throw Failure.lost("message incomplete") }
        return delivered
    }

    /// The fast path: each frame's bytes go to `Reassembler.receive(frameBytes:from:)`,
    /// which checks the frame and copies a fragment's body straight into its message.
    static func borrowingBodies(_ body: [UInt8], messageID: UInt64) throws -> [UInt8] {
        try run(body, messageID: messageID) { frame, reassembler in
            [try reassembler.receive(frameBytes: frame, from: 0)]
        }
    }

    /// One transport message = one frame, decoded by `FrameDecoder.decode` (which copies
    /// the body into the frame) and handed to `receive(_:from:)`.
    static func throughFrameDecoder(_ body: [UInt8], messageID: UInt64) throws -> [UInt8] {
        let decoder = FrameDecoder()
        return try run(body, messageID: messageID) { frame, reassembler in
            [reassembler.receive(try decoder.decode(frame), from: 0)]
        }
    }

    /// The frames travel as one byte stream read by a `FrameStreamReader` (a TCP relay).
    static func throughStreamReader(_ body: [UInt8], messageID: UInt64) throws -> [UInt8] {
        var reader = FrameStreamReader()
        return try run(body, messageID: messageID) { frame, reassembler in
            reader.append(frame)
            var results: [ReassemblyResult<Int>] = []
            while let event = reader.nextEvent() {
                results.append(reassembler.receive(try event.result.get(), from: 0))
            }
            return results
        }
    }

    /// Only the sending half: fragment and encode every frame (CRC32C included).
    static func fragmentOnly(_ body: [UInt8], messageID: UInt64) throws -> Int {
        var bytes = 0
        try Fragmenter().forEachFrame(typeID: 1, messageID: messageID, body: body) { bytes += $0.count }
        return bytes
    }

    /// Fragment, encode and decode every frame, without reassembling.
    static func fragmentAndDecode(_ body: [UInt8], messageID: UInt64) throws -> Int {
        let decoder = FrameDecoder()
        var bytes = 0
        try Fragmenter().forEachFrame(typeID: 1, messageID: messageID, body: body) { bytes += try decoder.decode($0).body.count }
        return bytes
    }
}
