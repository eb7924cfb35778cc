/// What handing one frame to a ``Reassembler`` produced.
public struct ReassemblyResult<Sender: Hashable & Sendable>: Sendable {
    /// The whole message this frame completed, as a ``FrameKind/data`` frame carrying the
    /// full body (still compressed if ``Frame/compression`` is set); or the frame itself
    /// when it was already whole (data or control); nil while fragments are missing.
    public var message: Frame?
    /// The messages dropped while handling the frame: its own, ones evicted to make room
    /// for it, ones that timed out.
    public var drops: [DropEvent<Sender>]

    /// Creates a result.
    public init(message: Frame? = nil, drops: [DropEvent<Sender>] = []) {
        self.message = message
        self.drops = drops
    }
}
