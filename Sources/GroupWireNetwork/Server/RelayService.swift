import ServiceLifecycle

/// The relay as a swift-service-lifecycle `Service`, for a `ServiceGroup` beside an app's
/// other services: `run()` listens, and on graceful shutdown (the group's SIGTERM, say)
/// the relay stops accepting, tells every client it is shutting down, drains within
/// ``RelayServerConfiguration/drainTimeout`` and returns.
///
/// ```swift
/// let service = RelayService(relay: RelayServer(configuration: configuration), host: "0.0.0.0", port: 8787)
/// try await ServiceGroup(services: [service], gracefulShutdownSignals: [.sigterm], logger: logger).run()
/// ```
public struct RelayService: Service {
    /// The relay this service runs.
    public let relay: RelayServer
    /// The address to listen on.
    public let host: String
    /// The port; 0 picks a free one, which `listening` gets.
    public let port: Int
    private let listening: @Sendable (Int) -> Void

    /// Creates the service; `listening` is called with the bound port once the relay listens.
    public init(relay: RelayServer, host: String, port: Int, listening: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.relay = relay
        self.host = host
        self.port = port
        self.listening = listening
    }

    /// Serves until graceful shutdown or cancellation, then shuts the relay down.
    public func run() async throws {
        listening(try await relay.start(host: host, port: port))
        // Returns on graceful shutdown; throws when the task is cancelled: either way, stop.
        try? await gracefulShutdown()
        await relay.shutdown()
    }
}
