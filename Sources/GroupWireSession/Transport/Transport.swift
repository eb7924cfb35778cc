import GroupWire

/// A way for one participant to exchange messages with the others in a group session.
///
/// A transport carries whole messages of at most ``TransportGuarantees/maxMessageSize``
/// bytes (for GroupWire, one frame each; a ``Messenger`` fragments larger messages first),
/// says what it promises about them (``guarantees``), and reports who is reachable
/// (``TransportEvent/joined(_:)`` and ``TransportEvent/left(_:)`` in ``events``). The
/// platform messenger, the in-process hub of `GroupWireTesting`, a network relay and the
/// ``DeliveryTransport`` over any of them all fit this shape.
public protocol Transport: Sendable {
    /// This participant.
    var localParticipant: ParticipantID { get }
    /// What the transport promises: ordering, reliability, message size.
    var guarantees: TransportGuarantees { get }
    /// The name of the room or group the transport connects to, for capture records;
    /// empty (the default) when it has none.
    var roomName: String { get }
    /// Messages from other participants and membership changes, in the order the
    /// transport saw them; finishes when the transport closes. The first events name every
    /// participant already reachable when this participant connected.
    var events: AsyncStream<TransportEvent> { get }
    /// The time the layers above this transport set their timers on (a delivery layer's
    /// retransmissions, negotiation's retries, reassembly's timeouts) unless given a clock
    /// of their own: the system's clock (the default), or a test hub's virtual clock, so
    /// virtual time is chosen in one place.
    var clock: TimerClock { get }
    /// Why the transport closed, once ``events`` has finished (the relay's error, a
    /// connection lost past reconnecting, a local close); nil while it is open. A
    /// ``Messenger`` hands it to its sessions, which are invalidated with it.
    var closeReason: String? { get }

    /// Sends `bytes` as one message to `recipients`.
    /// - Throws: a `WireError`: `WireError.Kind.messageTooLarge` over
    ///   ``TransportGuarantees/maxMessageSize``, `WireError.Kind.transportClosed`
    ///   after the transport closed.
    func send(_ bytes: [UInt8], to recipients: Recipients) async throws(WireError)

    /// Sends the frames of one message, in order, in `mode` (Spec/FORMAT.md, "Delivery").
    /// A transport with modes of its own (``DeliveryTransport``, the platform messenger)
    /// honours `mode` and takes the frames as a whole (room for all, or none sent); the
    /// default sends each frame with ``send(_:to:)``, which gives what ``guarantees`` says.
    /// - Throws: as ``send(_:to:)``; a delivery layer's `WireError.Kind.bufferFull`.
    func send(_ frames: [[UInt8]], to recipients: Recipients, mode: DeliveryMode) async throws(WireError)
}

extension Transport {
    /// No room name.
    public var roomName: String { "" }

    /// The system's continuous clock.
    public var clock: TimerClock { .continuous }

    /// No reason given: a messenger says "the transport closed".
    public var closeReason: String? { nil }

    /// Sends each frame with ``send(_:to:)``: one mode, the transport's own.
    public func send(_ frames: [[UInt8]], to recipients: Recipients, mode: DeliveryMode) async throws(WireError) {
        for frame in frames {
            try await send(frame, to: recipients)
        }
    }
}
