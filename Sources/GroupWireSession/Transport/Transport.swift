import GroupWire

/// A way for one participant to exchange messages with the others in a group session.
///
/// A transport carries whole messages of at most ``maxMessageSize`` bytes (for GroupWire,
/// one frame each; larger messages are fragmented first) and says which
/// ``DeliveryMode`` it offers. The platform messenger, the in-process ``InProcessHub``
/// and a network relay all fit this shape.
public protocol Transport: Sendable {
    /// This participant.
    var localParticipant: ParticipantID { get }
    /// The largest message the transport carries, in bytes.
    var maxMessageSize: Int { get }
    /// Whether messages may be lost, duplicated or reordered.
    var deliveryMode: DeliveryMode { get }
    /// Messages from other participants, in arrival order; finishes when the transport closes.
    var incoming: AsyncStream<TransportMessage> { get }

    /// Sends `bytes` as one message to `recipients`.
    /// - Throws: a ``GroupWire/WireError``: ``GroupWire/WireError/Kind/messageTooLarge`` over
    ///   ``maxMessageSize``, ``GroupWire/WireError/Kind/transportClosed`` after the transport closed.
    func send(_ bytes: [UInt8], to recipients: Recipients) async throws(WireError)
}
