import GroupWire

/// The `WireError` kinds a ``Transport`` raises (the package's one error type, extended
/// per module as Spec/FORMAT.md's "Errors" describes).
extension WireError.Kind {
    /// The message is larger than the transport carries; fragment it first.
    public static let messageTooLarge = WireError.Kind(name: "messageTooLarge")
    /// The transport, or this participant's place in it, is closed.
    public static let transportClosed = WireError.Kind(name: "transportClosed")
    /// The participant is already connected.
    public static let alreadyJoined = WireError.Kind(name: "alreadyJoined")
}

extension WireError.Kind {
    /// A reliable message does not fit the frames kept for a recipient until acknowledged
    /// (``DeliveryConfiguration/maxBufferedBytes``), and the configuration says not to wait.
    public static let bufferFull = WireError.Kind(name: "bufferFull")
}
