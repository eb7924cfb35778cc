// Coordinated playback (Spec/PLAYBACK.md), in release:
//   swift run -c release PlaybackBenchmark [--seeds N]
// 1. Accuracy and chatter: GroupWireTesting's WatchFilm (four participants with clocks up
//    to 500 ms off and 100 ppm fast or slow, a late fifth; ten simulated minutes with
//    play, seek, pause, a stall the group waits out) over the seeded hub with 5% loss and
//    5 ms plus 5, 20 or 50 ms of jitter on every copy: position error p50/p99 over every
//    seed's samples, and messages each participant sent per minute.
// 2. The clock exchange's cost: CPU per exchange taken by GroupClockEstimate with a full
//    window of 48 (the fit runs on every exchange).
import Dispatch
import GroupWirePlayback
import GroupWireSession
import GroupWireTesting

let arguments = CommandLine.arguments
let seeds = arguments.firstIndex(of: "--seeds").flatMap { Int(arguments[$0 + 1]) } ?? 5

func quantile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

print("Coordinated playback: WatchFilm over the seeded hub (5% loss), \(seeds) seeds per row, ten simulated minutes each")
print(
    "| delay on every copy | position error p50 ms | p99 ms | worst seed's p99 ms | messages/min, a participant (median) | the timekeeper's (median) |"
)
print("|---|---|---|---|---|---|")
for jitter in [5, 20, 50] {
    var errors: [Double] = []
    var worst = 0.0
    var others: [Double] = []
    var keeper: [Double] = []
    for seed in 1...seeds {
        let report = try await WatchFilm.run(
            seed: UInt64(seed), delay: .milliseconds(5) ... .milliseconds(5 + jitter), drop: 0.05)
        errors += report.samples.map(\.error)
        worst = max(worst, report.percentile(0.99))
        keeper.append(Double(report.sent[0]) / report.minutes)
        // The late joiner (5) was there for three minutes of the ten: left out.
        others += report.sent[1..<4].map { Double($0) / report.minutes }
    }
    errors.sort()
    print(
        "| 5–\(5 + jitter) ms | \(String(format: "%.1f", quantile(errors, 0.5) * 1_000)) | "
            + "\(String(format: "%.1f", quantile(errors, 0.99) * 1_000)) | \(String(format: "%.1f", worst * 1_000)) | "
            + "\(String(format: "%.1f", quantile(others.sorted(), 0.5))) | \(String(format: "%.1f", quantile(keeper.sorted(), 0.5))) |"
    )
}

// The estimate's cost per exchange, with its window full.
func estimateCost(exchanges count: Int) -> Double {
    var estimate = GroupClockEstimate()
    var random = SeededRandom(seed: 1)
    var local = Duration.seconds(1)
    func exchange() {
        let out = Duration.microseconds(Int64.random(in: 5_000...50_000, using: &random))
        let back = Duration.microseconds(Int64.random(in: 5_000...50_000, using: &random))
        let offset = Duration.milliseconds(500) + .nanoseconds(Int64(Double(local.components.seconds) * 100e3))
        let t1 = local
        let t2 = t1 + out + offset
        let t3 = t2 + .microseconds(100)
        let t4 = t3 - offset + back
        estimate.add(t1: t1, t2: t2, t3: t3, t4: t4)
        local += .seconds(5)
    }
    for _ in 0..<48 { exchange() }
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { exchange() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
}
let perExchange = estimateCost(exchanges: 200_000)
print("")
print(
    "Clock exchange: \(String(format: "%.2f", perExchange / 1_000)) µs of CPU per exchange taken (window of 48, the fit on every one)"
)
