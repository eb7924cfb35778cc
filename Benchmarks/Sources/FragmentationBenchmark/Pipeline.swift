import GroupWire

/// The end-to-end path a large message takes: fragment → encode frames (CRC32C) → decode
/// frames (CRC32C, checks) → reassemble. One frame exists at a time, as on a real link.
enum Pipeline {
    enum Failure: Error {
        case lost(String)
    }

    /// The fast path: each frame's bytes go to `Reassembler.receive(frameBytes:from:)`,
    /// which checks the frame and copies a fragment's body straight into its message.
    static func borrowingBodies(_ body: [UInt8], messageID: UInt64) throws -> [UInt8] {
        var reassembler = Reassembler<Int>()
        var delivered: [UInt8]?
        try Fragmenter().forEachFrame(typeID: 1, messageID: messageID, body: body) { frame in
            let result = try reassembler.receive(frameBytes: frame, from: 0)
            if let message = result.message { delivered = message.body }
            if let drop = result.drops.first { throw Failure.lost(drop.description) }
        }
        guard let delivered else { throw Failure.lost("message incomplete") }
        return delivered
    }

    /// Sends `body` through the fragmenter and a per-message frame decoder (one transport
    /// message = one frame) into a reassembler; returns the reassembled body.
    static func throughFrameDecoder(_ body: [UInt8], messageID: UInt64) throws -> [UInt8] {
        let decoder = FrameDecoder()
        var reassembler = Reassembler<Int>()
        var delivered: [UInt8]?
        try Fragmenter().forEachFrame(typeID: 1, messageID: messageID, body: body) { frame in
            let result = reassembler.receive(try decoder.decode(frame), from: 0)
            if let message = result.message { delivered = message.body }
            if let drop = result.drops.first { throw Failure.lost(drop.description) }
        }
        guard let delivered else { throw Failure.lost("message incomplete") }
        return delivered
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

    /// The same, but the frames travel as one byte stream read by a FrameStreamReader
    /// (a TCP relay), fed frame by frame.
    static func throughStreamReader(_ body: [UInt8], messageID: UInt64) throws -> [UInt8] {
        var reader = FrameStreamReader()
        var reassembler = Reassembler<Int>()
        var delivered: [UInt8]?
        try Fragmenter().forEachFrame(typeID: 1, messageID: messageID, body: body) { frame in
            reader.append(frame)
            while let event = reader.nextEvent() {
                let result = reassembler.receive(try event.result.get(), from: 0)
                if let message = result.message { delivered = message.body }
                if let drop = result.drops.first { throw Failure.lost(drop.description) }
            }
        }
        guard let delivered else { throw Failure.lost("message incomplete") }
        return delivered
    }
}
