import GroupWireNATSProtocol

/// Why a ``NATSClient`` call failed or its connection ended.
///
/// A struct, so kinds can be added: what (``kind``), the server concerned (``server``) and
/// the details (``message``).
public struct NATSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of problem; compare with `==`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name.
        public let name: String

        private init(name: String) { self.name = name }

        /// The stable name.
        public var description: String { name }

        /// ``NATSClient/connect()`` has not succeeded yet.
        public static let notConnected = Kind(name: "notConnected")
        /// The client was closed.
        public static let closed = Kind(name: "closed")
        /// No server of the list could be reached and greeted (the last one's reason is
        /// in the message), or reconnecting gave up after its attempts.
        public static let connectionFailed = Kind(name: "connectionFailed")
        /// The connection was lost while waiting (a flush's PONG never came).
        public static let disconnected = Kind(name: "disconnected")
        /// A message larger than the server's `max_payload`: not sent.
        public static let payloadTooLarge = Kind(name: "payloadTooLarge")
        /// More than ``NATSClientConfiguration/maxPendingBytes`` wait to be written: the
        /// server or the network does not keep up. Nothing of the refused message is sent.
        public static let slowConnection = Kind(name: "slowConnection")
        /// The server refused the connection or a command with `-ERR` (the text is the message).
        public static let serverError = Kind(name: "serverError")
        /// The server sent what the protocol does not allow; the connection was closed.
        public static let protocolViolation = Kind(name: "protocolViolation")
        /// A subject, queue group, header or address that cannot be used.
        public static let invalidArgument = Kind(name: "invalidArgument")
        /// The server did not answer within the time allowed.
        public static let timeout = Kind(name: "timeout")
    }

    /// What went wrong.
    public let kind: Kind
    /// The server concerned, if one is.
    public let server: NATSServerAddress?
    /// The details.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, server: NATSServerAddress? = nil, _ message: String) {
        self.kind = kind
        self.server = server
        self.message = message
    }

    init(_ error: NATSProtocolError, server: NATSServerAddress? = nil) {
        self.init(error.offset == nil ? .invalidArgument : .protocolViolation, server: server, error.description)
    }

    /// `kind (server): message`.
    public var description: String {
        "\(kind)\(server.map { " (\($0))" } ?? ""): \(message)"
    }
}
