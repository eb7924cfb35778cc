import GroupWireSession

/// What a simulated transport did to the messages sent through it.
public struct FaultStatistics: Sendable, Hashable {
    /// Copies of messages sent, one per recipient.
    public var sent = 0
    /// Copies delivered (duplicates included).
    public var delivered = 0
    /// Copies lost on purpose.
    public var dropped = 0
    /// Extra copies scheduled.
    public var duplicated = 0
    /// Copies held back so that later ones could overtake them.
    public var reordered = 0

    /// Creates zeroed statistics.
    public init() {}
}
