import GroupWire
import GroupWireSession
import Synchronization

/// A transport that passes everything to another and counts the frames it sends by what
/// their headers say (kind, fragment, compression): the participant's wire statistics,
/// measured rather than estimated.
final class CountingTransport: Transport {
    private let base: any Transport
    private let counts = Mutex(ParticipantStatistics())

    init(_ base: any Transport) {
        self.base = base
    }

    var localParticipant: ParticipantID { base.localParticipant }
    var guarantees: TransportGuarantees { base.guarantees }
    var roomName: String { base.roomName }
    var events: AsyncStream<TransportEvent> { base.events }

    func send(_ bytes: [UInt8], to recipients: Recipients) async throws(WireError) {
        try await base.send(bytes, to: recipients)
        count(bytes)
    }

    func send(_ frames: [[UInt8]], to recipients: Recipients, mode: DeliveryMode) async throws(WireError) {
        try await base.send(frames, to: recipients, mode: mode)
        for frame in frames { count(frame) }
    }

    /// The counts so far.
    var statistics: ParticipantStatistics { counts.withLock { $0 } }

    /// Adds the JSON cost of one app message.
    func countJSON(_ bytes: Int) {
        counts.withLock { $0.jsonBytes += bytes }
    }

    private func count(_ bytes: [UInt8]) {
        // The messenger wrote these frames; one that does not decode is not counted.
        var limits = Limits.default
        limits.maxFrameSize = max(limits.maxFrameSize, bytes.count)
        guard let (frame, body) = try? FrameDecoder(limits: limits).decodeBorrowingBody(bytes) else { return }
        counts.withLock { counts in
            switch frame.kind {
            case .control:
                counts.controlFrames += 1
                counts.controlBytes += bytes.count
                return
            case .data, .fragment:
                break
            default:
                return
            }
            counts.frames += 1
            counts.frameBytes += bytes.count
            let first = frame.fragment.map { $0.index == 0 } ?? true
            if first { counts.messages += 1 }
            if frame.fragment != nil {
                counts.fragments += 1
                if first { counts.fragmentedMessages += 1 }
            }
            if let compression = frame.compression {
                if first { counts.compressedPayloadBytes += Int(clamping: compression.contentSize) }
                counts.compressedBodyBytes += body.count
            }
        }
    }
}
