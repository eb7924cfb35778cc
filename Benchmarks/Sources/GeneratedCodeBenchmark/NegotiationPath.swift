import Foundation
import GroupWire
import GroupWireNegotiation
import GroupWireSpec

/// What negotiation costs per message once agreed (`--negotiation`): the hub pipeline of
/// MessengerPath with 8 participants, without negotiation, negotiated on one spec version,
/// and negotiated on DrawTogether v1, v2 and v3 at once; rounds interleaved, medians shown.
enum NegotiationPath {
    /// The example specs, read from the repository (the benchmark runs in Benchmarks/).
    static func schema(_ relative: String) throws -> HelloSchema {
        let path = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("..").appendingPathComponent(relative).standardizedFileURL.path
        return try HelloSchema(spec: try SpecCompiler().compile(entry: path, loader: FileSpecLoader()).checkedSpec())
    }

    static func report(value: UpsertStroke, messages: Int, rounds: Int) async throws {
        let v1 = try schema("Spec/Examples/DrawTogether.gwspec")
        let v2 = try schema("Spec/Examples/Versions/DrawTogether-v2.gwspec")
        let v3 = try schema("Spec/Examples/Versions/DrawTogether-v3.gwspec")
        let cases: [(name: String, schemas: [HelloSchema]?)] = [
            ("no negotiation", nil),
            ("negotiated, one version (v1 ×8)", [v1]),
            ("negotiated, mixed versions (v1, v2, v3)", [v1, v2, v3]),
        ]
        var sent: [[Double]] = cases.map { _ in [] }
        var delivered: [[Double]] = cases.map { _ in [] }
        // A warm-up of each, then the rounds, interleaved so drift hits every case alike.
        for item in cases {
            _ = try await MessengerPath.hubRun(
                participants: 8, messages: min(messages, 2_000), value: value, closedLoop: false,
                schemas: item.schemas)
        }
        for _ in 0..<rounds {
            for (index, item) in cases.enumerated() {
                let run = try await MessengerPath.hubRun(
                    participants: 8, messages: messages, value: value, closedLoop: false,
                    schemas: item.schemas)
                sent[index].append(run.sentPerSecond)
                delivered[index].append(run.deliveredPerSecond)
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let reference = median(sent[1])
        print("| 8 participants over the hub, UpsertStroke | sent/s (median of \(rounds)) | delivered/s | vs one version |")
        print("|---|---|---|---|")
        for (index, item) in cases.enumerated() {
            let ratio = median(sent[index]) / reference
            print(
                "| \(item.name) | \(Int(median(sent[index]))) | \(Int(median(delivered[index]))) | \(String(format: "%.2f", ratio)) |"
            )
        }
    }
}
