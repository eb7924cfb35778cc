/// Something a NATS server sent that breaks the client protocol (docs.nats.io, "Client
/// Protocol"), or a value a client was about to send that the protocol cannot carry.
///
/// A struct, so kinds can be added: it says what (``kind``), where (``offset``, counted from
/// the first byte the server sent on this connection) and the details (``context``).
public struct NATSProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of problem; compare with `==`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name, as used in test vectors.
        public let name: String

        private init(name: String) { self.name = name }

        /// The stable name.
        public var description: String { name }

        /// A control line longer than ``NATSLimits/maxControlLine`` (``NATSLimits/maxInfoLine``
        /// for INFO) without its CRLF.
        public static let lineTooLong = Kind(name: "lineTooLong")
        /// A line that starts with no operation a server sends.
        public static let unknownOperation = Kind(name: "unknownOperation")
        /// An operation with the wrong number of arguments, a size that is not a decimal
        /// number, a subscription id this client could not have given, or a line ended by a
        /// bare LF.
        public static let malformedArguments = Kind(name: "malformedArguments")
        /// A message larger than ``NATSLimits/maxPayload``, or a header size over the total.
        public static let payloadTooLarge = Kind(name: "payloadTooLarge")
        /// A message's payload not followed by CRLF.
        public static let missingTerminator = Kind(name: "missingTerminator")
        /// INFO whose argument is not a JSON object of the documented fields.
        public static let invalidInfo = Kind(name: "invalidInfo")
        /// An HMSG whose header block is not `NATS/1.0`, name-value lines and a blank line.
        public static let invalidHeaders = Kind(name: "invalidHeaders")
        /// A subject, reply subject, queue group or header a client was about to send that
        /// the protocol cannot carry (empty, whitespace, an empty token, a wildcard where
        /// none may be, CR or LF in a header).
        public static let invalidArgument = Kind(name: "invalidArgument")
    }

    /// What went wrong.
    public let kind: Kind
    /// Where, in bytes from the start of what the server sent (nil for a client's argument).
    public let offset: Int?
    /// What was expected and what was seen.
    public let context: String

    /// Creates an error.
    public init(_ kind: Kind, offset: Int?, _ context: String) {
        self.kind = kind
        self.offset = offset
        self.context = context
    }

    /// `kind at offset N: context`.
    public var description: String {
        offset.map { "\(kind) at offset \($0): \(context)" } ?? "\(kind): \(context)"
    }
}
