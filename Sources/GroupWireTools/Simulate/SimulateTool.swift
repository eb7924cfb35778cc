import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import GroupWireSession
import GroupWireTesting
import Synchronization

/// `groupwire simulate`: DrawTogether in one process, every participant with the whole
/// pipeline (session coordinator, messenger with zstd, delivery layer) over the in-process
/// hub with seeded faults. Three participants draw, a fourth joins late and catches up
/// from snapshots, one leaves; the report says what each received and what the delivery
/// layer did. The same seed injects the same faults and receives the same strokes; the
/// delivery layer's counts vary with how the participants' tasks interleave.
package enum SimulateTool {
    /// What to simulate.
    package struct Options: Sendable {
        package var seed: UInt64 = 1
        package var drop = 0.1
        package var duplicate = 0.05
        package var reorder = 0.1
        package var modes: [DeliveryMode] = [.reliable, .unreliable]
        package var strokes = 20

        package init() {}
    }

    /// Runs the simulation once per mode and returns the report.
    package static func run(_ options: Options) async -> ToolResult {
        let checked = checkOptions(options)
        guard checked.isEmpty else { return .error(checked, status: .failure) }
        var text = ""
        var ok = true
        for mode in options.modes {
            do {
                let run = try await Simulation(options: options, mode: mode).run()
                text += run.report
                ok = ok && run.holds
            } catch {
                text += "\(mode) mode: the simulation failed: \(error)\n"
                ok = false
            }
        }
        return ToolResult(output: Array(text.utf8), status: ok ? .ok : .failure)
    }

    /// Runs ``run(_:)`` to the end from synchronous code (the command line's main thread,
    /// which is not one of the threads the simulation's tasks run on).
    package static func runBlocking(_ options: Options) -> ToolResult {
        runBlocking { await run(options) }
    }

    /// Runs `body` to the end from synchronous code.
    package static func runBlocking(_ body: @escaping @Sendable () async -> ToolResult) -> ToolResult {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.set(await body())
            done.signal()
        }
        done.wait()
        return box.value
    }

    /// Rejects rates outside 0 ... 1 and stroke counts outside 1 ... 1000.
    static func checkOptions(_ options: Options) -> String {
        for (name, rate) in [("drop", options.drop), ("duplicate", options.duplicate), ("reorder", options.reorder)]
        where !(0...1).contains(rate) {
            return "--\(name) \(rate) is outside 0...1"
        }
        guard options.drop < 1 else { return "--drop 1 loses everything; the session could never form" }
        guard (1...1000).contains(options.strokes) else { return "--strokes \(options.strokes) is outside 1...1000" }
        return ""
    }

    private final class ResultBox: Sendable {
        private let state = Mutex(ToolResult(output: []))
        func set(_ result: ToolResult) { state.withLock { $0 = result } }
        var value: ToolResult { state.withLock { $0 } }
    }
}
