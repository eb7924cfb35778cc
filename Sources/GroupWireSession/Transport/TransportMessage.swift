/// One message as a transport delivers it: who sent it and its bytes (one frame, for GroupWire).
public struct TransportMessage: Sendable, Hashable {
    /// The participant that sent it.
    public let source: ParticipantID
    /// The bytes, exactly as sent.
    public let bytes: [UInt8]
    /// When it arrived, on the transport's clock (virtual time for simulated transports).
    public let arrival: Duration

    /// Creates a delivered message.
    public init(source: ParticipantID, bytes: [UInt8], arrival: Duration) {
        self.source = source
        self.bytes = bytes
        self.arrival = arrival
    }
}
