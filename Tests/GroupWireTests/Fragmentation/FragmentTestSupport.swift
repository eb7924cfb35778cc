import Foundation

@testable import GroupWire

/// A body whose bytes differ from position to position, so misplaced bytes show.
func patternedBody(count: Int, seed: UInt8 = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ Int(seed)) }
}

/// Fragments `body` with a small frame size and decodes every frame, as a receiver would.
func decodedFrames(
    _ body: [UInt8], typeID: UInt64 = 7, messageID: UInt64 = 1, compression: CompressionInfo? = nil,
    maxFrameSize: Int = 64
) throws -> [Frame] {
    let limits = Limits(maxFrameSize: maxFrameSize)
    let frames = try Fragmenter(limits: limits).frames(typeID: typeID, messageID: messageID, compression: compression, body: body)
    return try frames.map { try FrameDecoder(limits: limits).decode($0) }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let lock = NSLock()
    // safe because: every access holds `lock`.
    nonisolated(unsafe) private var time = Duration.zero

    var reassemblyClock: ReassemblyClock {
        ReassemblyClock { [self] in lock.withLock { time } }
    }

    func advance(by duration: Duration) {
        lock.withLock { time += duration }
    }
}
