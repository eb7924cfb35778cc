import Dispatch
import Foundation
import GroupWireNetwork
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
    /// thread). Prints `groupwire relay: listening on HOST:PORT` as soon as it listens, and
    /// `groupwire relay: stopped` once every connection has ended.
    package func runBlocking() -> ToolResult {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        if untilStandardInputCloses {
            Thread {
                var byte: UInt8 = 0
                while true {
                    let count = read(0, &byte, 1)
                    guard count > 0 || (count < 0 && errno == EINTR) else { break }
                }
                stop.signal()
            }.start()
        }
        let relay = RelayServer(configuration: configuration)
        let outcome = Outcome()
        let started = DispatchSemaphore(value: 0)
        Task {
            do {
                let bound = try await relay.start(host: host, port: port)
                StandardStreams.standardOutput("groupwire relay: listening on \(host):\(bound)\n")
            } catch {
                outcome.fail("cannot listen on \(host):\(port): \(error)")
            }
            started.signal()
        }
        started.wait()
        if let failure = outcome.failure { return .error(failure, status: .failure) }
        stop.wait()
        let stopped = DispatchSemaphore(value: 0)
        Task {
            await relay.shutdown()
            stopped.signal()
        }
        stopped.wait()
        for source in sources { source.cancel() }
        return ToolResult(output: Array("groupwire relay: stopped\n".utf8))
    }

    private final class Outcome: Sendable {
        private let state = Mutex<String?>(nil)
        func fail(_ text: String) { state.withLock { $0 = text } }
        var failure: String? { state.withLock { $0 } }
    }
}
