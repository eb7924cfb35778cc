import Dispatch
import Foundation
import GroupWireNetwork
import Logging
import ServiceLifecycle
import Synchronization

/// `groupwire relay`: the relay server (Spec/RELAY.md) until SIGINT or SIGTERM.
package struct RelayTool: Sendable {
    /// The address to listen on.
    package var host: String
    /// The port; 0 picks a free one, which the first line of output names.
    package var port: Int
    /// The token secret and limits.
    package var configuration: RelayServerConfiguration
    /// Whether the end of standard input stops the relay too (`--until-stdin-closes`).
    package var untilStandardInputCloses = false

    /// Creates the tool.
    package init(host: String, port: Int, configuration: RelayServerConfiguration) {
        self.host = host
        self.port = port
        self.configuration = configuration
    }

    /// The shared secret from an option, a file or ``TokenTool/secretVariable``, as
    /// `groupwire token` reads it.
    package static func secret(_ text: String?, file: String?, environment: [String: String]) throws(ToolFailure) -> [UInt8] {
        try TokenTool(room: "-", identity: "-", secret: text, secretFile: file, environment: environment).secretBytes()
    }

    /// Serves until SIGINT or SIGTERM (or the end of standard input, when
    /// ``untilStandardInputCloses``), from synchronous code (the command line's main
    /// thread), as a swift-service-lifecycle service whose graceful shutdown stops the
    /// relay (``RelayServer/shutdown()``: within the drain timeout and a second). Prints
    /// `groupwire relay: listening on HOST:PORT` as soon as it listens, and
    /// `groupwire relay: stopped` once every connection has ended.
    package func runBlocking(logger: Logger = Logger(label: "groupwire.relay")) -> ToolResult {
        let relay = RelayServer(configuration: configuration, logger: logger)
        let service = RelayService(relay: relay, host: host, port: port) { bound in
            StandardStreams.standardOutput("groupwire relay: listening on \(host):\(bound)\n")
        }
        let group = ServiceGroup(services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        if untilStandardInputCloses {
            Thread {
                var byte: UInt8 = 0
                while true {
                    let count = read(0, &byte, 1)
                    guard count > 0 || (count < 0 && errno == EINTR) else { break }
                }
                Task { await group.triggerGracefulShutdown() }
            }.start()
        }
        let outcome = Outcome()
        let stopped = DispatchSemaphore(value: 0)
        Task {
            do {
                try await group.run()
            } catch {
                outcome.fail("cannot listen on \(host):\(port): \(error)")
            }
            stopped.signal()
        }
        stopped.wait()
        if let failure = outcome.failure { return .error(failure, status: .failure) }
        return ToolResult(output: Array("groupwire relay: stopped\n".utf8))
    }

    private final class Outcome: Sendable {
        private let state = Mutex<String?>(nil)
        func fail(_ text: String) { state.withLock { $0 = text } }
        var failure: String? { state.withLock { $0 } }
    }
}
