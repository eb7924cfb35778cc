import Dispatch
import Foundation
import GroupWire
import GroupWireNegotiation
import GroupWireNetwork
import GroupWireSpec
import Synchronization

/// `groupwire participant`: one DrawTogether participant in its own process, over a relay.
///
/// It connects with a token, negotiates with its spec, starts the session (`activate`) or
/// joins the one it is offered, offers newcomers a canvas snapshot, and then follows
/// commands, one per line on standard input:
/// - `draw N MS`: send N strokes, numbered on from the last, MS milliseconds apart;
/// - `statistics`: print what it has sent;
/// - `quit`, or the end of standard input: leave, print the statistics, close.
///
/// Everything it sees is one ``ParticipantEvent`` JSON line on standard output.
package struct ParticipantTool: Sendable {
    /// The environment variable that holds the token when no option gives it.
    package static let tokenVariable = "GROUPWIRE_TOKEN"

    /// The relay's address.
    package var host = "127.0.0.1"
    /// The relay's port.
    package var port: Int
    /// Other nodes of the relay's cluster on the same host (`--also-port`): when given, the
    /// participant reconnects (to the next node when its own dies) and sends through the
    /// delivery layer, so nothing is lost across a move.
    package var alternatives: [Int] = []
    /// The access token.
    package var token: String
    /// The spec to negotiate with: DrawTogether version 1 or 3.
    package var specPath: String
    /// Whether to offer zstd.
    package var zstd = true
    /// Whether to start the session (one participant does) rather than wait to be offered one.
    package var activate = false
    /// Strokes in the canvas this participant offers newcomers (200 points each).
    package var canvasStrokes = 200
    /// How long to wait for the relay, the session and the others.
    package var timeout: Duration = .seconds(20)
    /// TLS to the relay (`--tls`, `--tls-ca`, `--tls-server-name`); nil connects plain.
    package var tls: RelayClientTLS?

    /// Creates the tool.
    package init(port: Int, token: String, specPath: String) {
        self.port = port
        self.token = token
        self.specPath = specPath
    }

    /// Runs until `quit` or the end of standard input, from synchronous code.
    /// - Returns: status 0 after a clean quit; 1 when the relay refuses, the session never
    ///   comes or the connection fails (also written as an `error` event); 2 for a spec it
    ///   cannot read or has no types for.
    package func runBlocking() -> ToolResult {
        let schema: HelloSchema
        let version: UInt64
        do throws(ToolFailure) {
            (schema, version) = try Self.schema(specPath)
        } catch {
            return error.result
        }
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        Task {
            do {
                switch version {
                case CanvasVersion1.version:
                    try await ParticipantRun<CanvasVersion1>(tool: self, schema: schema).run()
                default:
                    try await ParticipantRun<CanvasVersion3>(tool: self, schema: schema).run()
                }
            } catch {
                let text = "\(error)"
                failure.withLock { $0 = text }
                var event = ParticipantEvent(.error)
                event.detail = text
                StandardStreams.standardOutput(event.line)
            }
            done.signal()
        }
        done.wait()
        if let text = failure.withLock({ $0 }) { return .error(text, status: .invalidInput) }
        return ToolResult(output: [])
    }

    /// The hello schema of the spec at `path`, and its version: DrawTogether 1 or 3, the
    /// versions this program has generated types for.
    static func schema(_ path: String) throws(ToolFailure) -> (HelloSchema, UInt64) {
        let spec = try SpecLoading.load(path).spec
        let schema: HelloSchema
        do throws(WireError) {
            schema = try HelloSchema(spec: spec)
        } catch {
            throw ToolFailure("\(path): cannot be announced in a hello: \(error)")
        }
        let versions = [CanvasVersion1.version, CanvasVersion3.version]
        guard schema.package == "draw.together", versions.contains(schema.version) else {
            throw ToolFailure(
                "\(path): \(schema.package) version \(schema.version): the participant has generated types for draw.together versions 1 and 3 only"
            )
        }
        return (schema, schema.version)
    }
}
