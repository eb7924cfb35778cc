/// What a receiver knows about a message besides its value.
public struct MessageContext: Sendable, Hashable {
    /// The participant that sent it.
    public let source: ParticipantID
    /// The type id it travelled under.
    public let typeID: UInt64
    /// Whether it travelled compressed.
    public let wasCompressed: Bool
    /// The session its frames named (Spec/FORMAT.md, "Sessions"), nil for none.
    public let session: UInt32?

    /// Creates a context.
    public init(source: ParticipantID, typeID: UInt64, wasCompressed: Bool, session: UInt32? = nil) {
        self.source = source
        self.typeID = typeID
        self.wasCompressed = wasCompressed
        self.session = session
    }
}
