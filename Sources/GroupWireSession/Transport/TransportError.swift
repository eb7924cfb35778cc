/// An error raised by a ``Transport``.
///
/// A struct rather than an enum so that kinds can be added; compare kinds with `==`.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of problem.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name of the kind.
        public let name: String

        /// Creates a kind.
        package init(name: String) {
            self.name = name
        }

        /// The stable name of the kind.
        public var description: String { name }

        /// The message is larger than the transport carries; fragment it first.
        public static let messageTooLarge = Kind(name: "messageTooLarge")
        /// The transport, or this participant's place in it, is closed.
        public static let closed = Kind(name: "closed")
        /// The participant is already connected.
        public static let alreadyJoined = Kind(name: "alreadyJoined")
    }

    /// What went wrong.
    public let kind: Kind
    /// The details: sizes, participants.
    public let context: String

    /// Creates an error.
    public init(_ kind: Kind, _ context: String) {
        self.kind = kind
        self.context = context
    }

    /// `kind: context`.
    public var description: String { "\(kind.name): \(context)" }
}
