import GroupWireNATSProtocol
import NIOCore

/// A message a subscription received.
public struct NATSMessage: Sendable {
    /// The subject it was published to.
    public var subject: String
    /// Where a reply goes, if the publisher asked for one.
    public var replyTo: String?
    /// Its headers, for a message published with some.
    public var headers: NATSHeaders?
    /// The payload: a slice of what the client read, not copied.
    public var payload: ByteBuffer
}

/// A subscription of a ``NATSClient``: what ``NATSClient/unsubscribe(_:after:)`` takes.
public struct NATSSubscription: Sendable, Hashable {
    /// The id the client gave it (SUB's sid).
    public let id: UInt64
    /// Its subject (wildcards allowed).
    public let subject: String
    /// Its queue group, if any.
    public let queue: String?
}

/// What happens to a ``NATSClient``'s connection.
public enum NATSClientEvent: Sendable, Hashable {
    /// Connected and greeted (after ``NATSClient/connect()`` or a reconnect).
    case connected(NATSServerAddress)
    /// The connection to a server was lost; the client reconnects.
    case disconnected(NATSServerAddress, reason: String)
    /// The cluster named servers the client did not know; they join its list.
    case discovered([NATSServerAddress])
    /// The server is in lame duck mode: it will close the connection soon.
    case lameDuck(NATSServerAddress)
    /// The server sent `-ERR` with this text.
    case serverError(String)
    /// The client gave up reconnecting, or was closed.
    case closed
}

/// What a ``NATSClient`` has done so far.
public struct NATSClientStatistics: Sendable, Hashable {
    /// Messages and payload bytes received for subscriptions.
    public var messagesIn = 0
    /// Payload bytes received.
    public var bytesIn = 0
    /// Messages published.
    public var messagesOut = 0
    /// Payload bytes published.
    public var bytesOut = 0
    /// Connections made after a loss.
    public var reconnects = 0
    /// Messages a subscription's stream dropped because its consumer did not keep up.
    public var droppedMessages = 0
}
