/// What a ``Transport`` promises about the messages it carries.
///
/// A messenger adds what a transport lacks (the delivery layer of a later release uses
/// ``isReliable`` and ``isOrdered`` to decide what to add) and fragments every message
/// to fit ``maxMessageSize``.
public struct TransportGuarantees: Sendable, Hashable {
    /// Every message reaches every recipient that stays connected, exactly once.
    public var isReliable: Bool
    /// Messages from one sender arrive in the order it sent them.
    public var isOrdered: Bool
    /// The largest message the transport carries, in bytes.
    public var maxMessageSize: Int

    /// Creates guarantees.
    public init(isReliable: Bool, isOrdered: Bool, maxMessageSize: Int) {
        self.isReliable = isReliable
        self.isOrdered = isOrdered
        self.maxMessageSize = maxMessageSize
    }

    /// The ``DeliveryMode`` these guarantees amount to: reliable only when the transport
    /// is both reliable and ordered.
    public var deliveryMode: DeliveryMode {
        isReliable && isOrdered ? .reliable : .unreliable
    }
}
