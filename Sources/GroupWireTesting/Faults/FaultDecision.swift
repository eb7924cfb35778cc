import GroupWireSession

/// What a ``FaultInjector`` decided for one message on one link.
public struct FaultDecision: Sendable, Hashable {
    /// When each copy is to be delivered: none when the message is dropped, two when duplicated.
    public var deliveries: [Duration]
    /// Whether the message was held back so later ones may overtake it.
    public var reordered: Bool

    /// Creates a decision.
    public init(deliveries: [Duration], reordered: Bool) {
        self.deliveries = deliveries
        self.reordered = reordered
    }
}
