import Foundation
import GroupWireTesting
import Synchronization

/// `groupwire simulate --watch`: the watch-together film (GroupWireTesting's `WatchFilm`)
/// over the seeded hub on simulated time, printed as a user sees it: the participants'
/// clocks, the steps, each minute's position error per participant, the checks, and the
/// messages each sent.
package enum WatchSimulationTool {
    /// The run's parameters.
    package struct Options: Sendable {
        package var seed: UInt64 = 1
        /// Milliseconds of delay on top of the 5 ms every copy takes (0 ... 1,000).
        package var jitter = 45
        package var drop = 0.05

        package init() {}
    }

    /// Runs the film and returns the report (status failure when a check does not hold
    /// or the p99 error is 20 ms or more).
    package static func run(_ options: Options) async -> ToolResult {
        guard (0...1_000).contains(options.jitter) else {
            return .error("--jitter \(options.jitter) is outside 0...1000 (milliseconds)", status: .failure)
        }
        guard (0..<1).contains(options.drop) else { return .error("--drop \(options.drop) is outside 0..<1", status: .failure) }
        var text = """
            Watch together: 4 participants (a fifth joins at 7:00) over a simulated network: every copy delayed \
            5–\(5 + options.jitter) ms, \(percent(options.drop)) lost, reliable delivery; seed \(options.seed); \
            ten simulated minutes

            device clocks (against participant 1's, the group clock):

            """
        for (index, device) in WatchFilm.devices.enumerated() {
            let offset = Int((device.offset.seconds * 1_000).rounded())
            text += "  participant \(index + 1): \(offset >= 0 ? "+" : "")\(offset) ms, "
            text += "\(device.drift >= 0 ? "+" : "")\(Int((device.drift * 1e6).rounded())) ppm; its player "
            text +=
                "\(WatchFilm.playerDrifts[index] >= 0 ? "+" : "")\(Int((WatchFilm.playerDrifts[index] * 1e6).rounded())) ppm more\n"
        }
        text += "\nwhat happens:\n"
        let steps = Mutex<[String]>([])
        let report: WatchFilm.Report
        do {
            report = try await WatchFilm.run(
                seed: options.seed, delay: .milliseconds(5) ... .milliseconds(5 + options.jitter), drop: options.drop
            ) { step in steps.withLock { $0.append(step) } }
        } catch {
            return .error("the simulation failed: \(error)", status: .failure)
        }
        for step in steps.withLock({ $0 }) { text += "  \(step)\n" }
        text += "\nposition error: distance from the group's timeline, sampled every 100 ms (ms, p99 per participant):\n"
        text += "| minute | 1 | 2 | 3 | 4 | 5 | all p50 | all p99 |\n|---|---|---|---|---|---|---|---|\n"
        for minute in 0..<Int(report.minutes.rounded(.up)) {
            let window = report.samples.filter { Int($0.time / 60) == minute }
            guard !window.isEmpty else { continue }
            var row = "| \(minute) "
            for participant in 1...5 {
                let errors = window.filter { $0.participant == participant }.map(\.error)
                row += "| \(errors.isEmpty ? "–" : milliseconds(quantile(errors, 0.99))) "
            }
            let all = window.map(\.error)
            text += row + "| \(milliseconds(quantile(all, 0.5))) | \(milliseconds(quantile(all, 0.99))) |\n"
        }
        let p50 = report.percentile(0.5)
        let p99 = report.percentile(0.99)
        text += "whole run: p50 \(milliseconds(p50)) ms, p99 \(milliseconds(p99)) ms over \(report.samples.count) samples\n"
        text += "\nmessages sent per minute (participant 1 keeps the group clock and answers the others' clock requests):\n  "
        text +=
            report.sent.enumerated().map { "\($0.offset + 1): \(String(format: "%.1f", Double($0.element) / report.minutes))" }
            .joined(separator: ", ") + "\n"
        text += "\nchecks:\n"
        var holds = true
        for (check, held) in report.checks + [("p99 under 20 ms", p99 < 0.020)] {
            text += "  \(held ? "holds " : "BROKEN") \(check)\n"
            holds = holds && held
        }
        return ToolResult(output: Array(text.utf8), status: holds ? .ok : .failure)
    }

    private static func quantile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    private static func milliseconds(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1_000) }

    private static func percent(_ fraction: Double) -> String { "\(String(format: "%g", fraction * 100))%" }
}
