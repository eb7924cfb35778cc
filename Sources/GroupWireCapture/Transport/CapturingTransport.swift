import Foundation
import GroupWire
import GroupWireSession

/// A transport that records every frame it sends and receives to a capture file, and
/// otherwise is the transport beneath it.
///
/// Capture is the caller's choice: wrap the transport that carries frames, beneath a
/// `DeliveryTransport` so that delivery headers, acknowledgements and retransmissions are
/// recorded as they travel (`DeliveryTransport(over: endpoint.capturing(to: writer))`).
/// ``fromEnvironment(_:)`` is the one place that reads `GROUPWIRE_CAPTURE` (see
/// ``CaptureEnvironment``), for a program that wants capture switched on from outside;
/// GroupWire's own programs (`groupwire participant`, `simulate`, the relay) call it.
/// Control frames (hellos, session control, acknowledgements) are frames like any other
/// and are recorded too. GroupWireCapture needs no zstd, so an app without libzstd can
/// capture.
///
/// A frame sent to one participant is recorded with that participant as its peer; one
/// sent to several or to everyone is recorded once, with no peer.
public struct CapturingTransport: Transport {
    /// The transport that carries the frames.
    public let base: any Transport
    /// Where records go.
    public let writer: CaptureWriter
    /// The events of the transport beneath; each received message is recorded as it passes.
    public let events: AsyncStream<TransportEvent>

    /// Wraps `base`, recording to `writer`.
    public init(over base: any Transport, writer: CaptureWriter) {
        self.base = base
        self.writer = writer
        let (stream, continuation) = AsyncStream<TransportEvent>.makeStream()
        let local = base.localParticipant.uuid
        let room = base.roomName
        let pump = Task {
            for await event in base.events {
                if case .message(let message) = event {
                    writer.write(
                        Self.record(message.bytes, direction: .received, local: local, peer: message.source.uuid, room: room))
                }
                continuation.yield(event)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in pump.cancel() }
        events = stream
    }

    /// `base`, wrapped when `GROUPWIRE_CAPTURE` asks for capture and it is not wrapped yet;
    /// otherwise `base` itself.
    public static func fromEnvironment(_ base: any Transport) -> any Transport {
        guard let writer = CaptureEnvironment.writer, !(base is CapturingTransport) else { return base }
        return CapturingTransport(over: base, writer: writer)
    }

    /// The participant of the transport beneath.
    public var localParticipant: ParticipantID { base.localParticipant }
    /// What the transport beneath guarantees.
    public var guarantees: TransportGuarantees { base.guarantees }
    /// The room of the transport beneath.
    public var roomName: String { base.roomName }
    /// The clock of the transport beneath.
    public var clock: TimerClock { base.clock }
    /// Why the transport beneath closed.
    public var closeReason: String? { base.closeReason }

    /// Sends through the transport beneath, then records the frame as sent.
    public func send(_ bytes: [UInt8], to recipients: Recipients) async throws(WireError) {
        try await base.send(bytes, to: recipients)
        writer.write(
            Self.record(bytes, direction: .sent, local: localParticipant.uuid, peer: Self.peer(recipients), room: roomName))
    }

    /// Sends through the transport beneath, then records each frame as sent.
    public func send(_ frames: [[UInt8]], to recipients: Recipients, mode: DeliveryMode) async throws(WireError) {
        try await base.send(frames, to: recipients, mode: mode)
        let peer = Self.peer(recipients)
        for frame in frames {
            writer.write(Self.record(frame, direction: .sent, local: localParticipant.uuid, peer: peer, room: roomName))
        }
    }

    private static func peer(_ recipients: Recipients) -> UUID? {
        guard let participants = recipients.participants, participants.count == 1 else { return nil }
        return participants.first?.uuid
    }

    /// A record of `frame` now, with the session id from its session header.
    public static func record(_ frame: [UInt8], direction: CaptureRecord.Direction, local: UUID, peer: UUID?, room: String)
        -> CaptureRecord
    {
        CaptureRecord(
            timestamp: CaptureRecord.now(), direction: direction, sessionID: FrameHeaderFields.sessionID(of: frame),
            local: local, peer: peer, room: room, frame: frame)
    }
}

extension Transport {
    /// This transport, recording every frame it sends and receives to `writer` (a
    /// ``CapturingTransport``).
    public func capturing(to writer: CaptureWriter) -> CapturingTransport {
        CapturingTransport(over: self, writer: writer)
    }
}
