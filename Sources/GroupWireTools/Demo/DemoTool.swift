import Dispatch
import Foundation
import GroupWire
import GroupWireCapture
import Synchronization

/// `groupwire demo --output FILE`: writes the ``DemoMessages`` frames to a frame file.
package enum DemoTool {
    /// Runs `groupwire demo`.
    /// - Parameters:
    ///   - outputPath: the file to write (replaced).
    ///   - fileFormat: `FrameFileFormat.raw` or `FrameFileFormat.hex`.
    /// - Returns: a one-line summary with status ``ToolStatus/ok``; or
    ///   ``ToolStatus/failure`` with a diagnostic when the file cannot be written.
    package static func run(outputPath: String, fileFormat: FrameFileFormat) -> ToolResult {
        let frames: [(frame: Frame, comment: String)]
        let bytes: [UInt8]
        do {
            frames = try DemoMessages.frames()
            bytes = try FrameFileWriter(format: fileFormat).contents(of: frames)
        } catch {
            return .error("cannot encode the demo frames: \(error)", status: .failure)
        }
        do throws(FrameFileError) {
            try FrameFileWriter.write(bytes, toPath: outputPath)
        } catch {
            return ToolResult(messages: InspectTool.diagnostic(error), status: .failure)
        }
        return ToolResult(
            output: Array("wrote \(frames.count) frames (\(bytes.count) bytes, \(fileFormat)) to \(outputPath)\n".utf8))
    }

    /// Runs ``RelayDemo`` from synchronous code and prints its summary. SIGINT or SIGTERM
    /// kills every process it started before it exits (130).
    /// - Returns: the summary with status ``ToolStatus/ok`` when every check holds, ``ToolStatus/invalidInput``
    ///   when one does not; ``ToolStatus/failure`` when a step did not happen in time.
    package static func runRelayDemo(_ original: RelayDemo) -> ToolResult {
        var demo = original
        demo.started = { name, pid in StandardStreams.standardOutput("  started \(name) (pid \(pid))\n") }
        let children = RelayDemo.Children()
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                children.killAll()
                StandardStreams.standardError("groupwire demo: interrupted; stopped the relay and the participants\n")
                exit(130)
            }
            source.resume()
            return source
        }
        defer { for source in sources { source.cancel() } }
        let outcome = Mutex<Result<RelayDemo.Report, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        StandardStreams.standardOutput(
            "starting a relay and participant processes on 127.0.0.1 (one step at a time, each within \(demo.stepTimeout))\n")
        Task {
            do {
                let report = try await demo.run(children: children)
                outcome.withLock { $0 = .success(report) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let report):
            return ToolResult(output: Array(report.summary.utf8), status: report.holds ? .ok : .invalidInput)
        case .failure(let error):
            return .error("the demo stopped: \(error)", status: .failure)
        case nil:
            return .error("the demo stopped without a result", status: .failure)
        }
    }
}
