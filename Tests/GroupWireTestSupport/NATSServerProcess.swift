import Foundation

/// A nats-server (Debian's `nats-server` package, Homebrew's `nats-server`) that a test
/// starts on loopback, on ports the server picks itself (`-p -1`), and stops by its process
/// id when the handle is released or ``stop()`` is called, also when the test fails.
///
/// ```swift
/// let server = try await NATSServerProcess.start()
/// defer { server.stop() }
/// // connect to server.port
/// ```
package final class NATSServerProcess: Sendable {
    /// The process.
    package let process: RunningProcess
    /// The port clients connect to.
    package let port: Int
    /// The port other servers route to, for a server started with a cluster.
    package let routePort: Int?

    /// The installed nats-server, if any (`make setup` installs it).
    package static let executable: URL? = {
        for directory in ["/usr/sbin", "/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let url = URL(fileURLWithPath: directory).appendingPathComponent("nats-server")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    private init(process: RunningProcess, port: Int, routePort: Int?) {
        self.process = process
        self.port = port
        self.routePort = routePort
    }

    deinit { process.stop() }

    /// Starts a server on 127.0.0.1 and waits until it listens. With `cluster`, it joins the
    /// cluster of that name, listening for routes on a port of its own and routing to
    /// `routes` (other servers' route ports).
    /// - Throws: when nats-server is not installed, or exits or stays silent instead of listening.
    /// `arguments` come last (a fixed `-p PORT` there overrides the free one).
    package static func start(cluster: String? = nil, routes: [Int] = [], name: String? = nil, arguments extra: [String] = [])
        async throws -> NATSServerProcess
    {
        guard let executable else { throw WaitTimedOut(description: "nats-server is not installed (make setup installs it)") }
        var arguments = ["-a", "127.0.0.1", "-p", "-1"]
        if let name { arguments += ["-n", name] }
        if let cluster {
            arguments += ["--cluster_name", cluster, "--cluster", "nats://127.0.0.1:-1"]
            if !routes.isEmpty { arguments += ["--routes", routes.map { "nats://127.0.0.1:\($0)" }.joined(separator: ",")] }
        }
        let process = try RunningProcess(executable, arguments + extra)
        try await process.waitForErrors(containing: "Server is ready", within: .seconds(60))
        if cluster != nil {
            try await process.waitForErrors(containing: "Listening for route connections on", within: .seconds(60))
        }
        let log = process.errors.value
        guard let port = Self.port(after: "Listening for client connections on ", in: log) else {
            process.stop()
            throw WaitTimedOut(description: "nats-server did not say its client port: \(log)")
        }
        return NATSServerProcess(
            process: process, port: port,
            routePort: cluster == nil ? nil : Self.port(after: "Listening for route connections on ", in: log))
    }

    /// The port at the end of the `host:port` that follows `marker` in `log`.
    private static func port(after marker: String, in log: String) -> Int? {
        guard let range = log.range(of: marker) else { return nil }
        let address = log[range.upperBound...].prefix { !$0.isWhitespace }
        return address.split(separator: ":").last.flatMap { Int($0) }
    }

    /// Kills the server by its process id (SIGKILL).
    package func stop() { process.stop() }
}
