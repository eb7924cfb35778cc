import GroupWirePlayback
import GroupWireSession

/// The watch-together scenario of `CoordinatedPlaybackTests` and `groupwire simulate
/// --watch`: four participants whose device clocks are up to 500 ms off and up to 100 ppm
/// fast or slow (players drifting up to 50 ppm more) watch a ten-minute stretch of a film:
/// participant 1 plays, 3 seeks, 2 pauses, 4 plays, 2's player stalls (the group waits
/// for it), and a fifth joins late. Every 100 ms of simulated time it samples each
/// synchronized, unsuspended participant's distance from the group's timeline.
public enum WatchFilm {
    /// What the film run saw.
    public struct Report: Sendable {
        /// One sample: when (simulated seconds), whose (participant number), how far (seconds).
        public struct Sample: Sendable {
            /// Simulated seconds since the start.
            public var time: Double
            /// The participant's number, from 1.
            public var participant: Int
            /// Its distance from the group's timeline, in seconds.
            public var error: Double
        }
        /// Every sample, in time order.
        public var samples: [Sample] = []
        /// What must hold, and whether it did.
        public var checks: [(String, Bool)] = []
        /// Messages each participant's coordinator sent.
        public var sent: [Int] = []
        /// The simulated minutes the run took.
        public var minutes = 0.0

        /// The error at `fraction` (0.99: p99) over every sample, in seconds.
        public func percentile(_ fraction: Double, from start: Double = 0) -> Double {
            let sorted = samples.filter { $0.time >= start }.map(\.error).sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    /// The participants' device clocks: participant 1's is the group clock.
    public static let devices = [
        DeviceClock(offset: .milliseconds(0), drift: 0),
        DeviceClock(offset: .milliseconds(480), drift: 100e-6),
        DeviceClock(offset: .milliseconds(-500), drift: -100e-6),
        DeviceClock(offset: .milliseconds(230), drift: 60e-6),
        DeviceClock(offset: .milliseconds(-310), drift: -80e-6),
    ]
    /// How much faster each participant's player runs than its device clock.
    public static let playerDrifts = [0, 40e-6, -50e-6, 20e-6, -30e-6]

    /// Runs the film on a hub with `delay` on every copy and `drop` of them lost;
    /// `progress` hears each step as it happens.
    public static func run(
        seed: UInt64, delay: ClosedRange<Duration> = .milliseconds(5) ... .milliseconds(50), drop: Double = 0.05,
        progress: (String) -> Void = { _ in }
    ) async throws -> Report {
        let party = WatchParty(seed: seed, delay: delay, drop: drop)
        try await party.start(devices: Array(devices.prefix(4)), playerDrifts: Array(playerDrifts.prefix(4)))
        let history = TimelineHistory()
        var report = Report()
        func sample(for duration: Duration) async throws {
            let end = party.clock.elapsed + duration
            while party.clock.elapsed < end {
                try await party.advance(by: .milliseconds(100))
                history.record(party)
                let now = party.clock.elapsed
                guard let expected = history.expected(at: party.groupTime(at: now)) else { continue }
                for (index, member) in party.members.enumerated()
                where member.playback.isSynchronized && member.playback.suspendedParticipants[member.id] == nil {
                    report.samples.append(
                        .init(time: now.seconds, participant: index + 1, error: abs(member.player.currentTime - expected)))
                }
            }
        }
        func groupNow() -> Double? { history.expected(at: party.groupTime(at: party.clock.elapsed)) }
        func allWithin(_ bound: Double) -> Bool {
            guard let expected = groupNow() else { return false }
            return party.members.allSatisfy { abs($0.player.currentTime - expected) < bound }
        }
        let members = party.members

        try await party.advance(by: .seconds(5))
        report.checks.append(
            (
                "every participant estimates the group clock after 5 s",
                members.dropFirst().allSatisfy { $0.playback.clockEstimate.isEstimated }
            ))
        progress("0:05 participant 1 loads film-1 and plays")
        try await members[0].playback.load(item: "film-1")
        try await members[0].playback.play()
        try await sample(for: .seconds(115))
        report.checks.append(("everyone plays film-1", members.allSatisfy { $0.player.item == "film-1" && $0.player.rate > 0.9 }))

        progress("2:00 participant 3 seeks to 10:00")
        try await members[2].playback.seek(to: 600)
        try await sample(for: .seconds(1))
        report.checks.append(
            (
                "the seek took effect everywhere at its instant (10:00.75 one second later, within 20 ms)",
                abs((groupNow() ?? 0) - 600.75) < 0.02 && allWithin(0.02)
            ))
        try await sample(for: .seconds(119))

        progress("4:00 participant 2 pauses")
        try await members[1].playback.pause()
        try await sample(for: .seconds(30))
        report.checks.append(
            ("everyone paused at one position (within 20 ms)", allWithin(0.02) && members.allSatisfy { $0.player.rate == 0 }))
        progress("4:30 participant 4 plays")
        try await members[3].playback.play()
        try await sample(for: .seconds(90))

        progress("6:00 participant 2's player stalls for 3 s")
        members[1].player.stall()
        try await sample(for: .seconds(3))
        report.checks.append(
            (
                "the group waited for the stalled participant",
                members[0].playback.suspendedParticipants[members[1].id] == .stallRecovery
                    && members.allSatisfy { $0.playback.timeline?.change == .wait }
                    && members.filter { $0.id != members[1].id }.allSatisfy { $0.player.rate == 0 }
            ))
        members[1].player.recover()
        try await sample(for: .seconds(57))
        report.checks.append(
            (
                "the group went on when it recovered",
                members.allSatisfy { $0.playback.timeline?.change == .resume && $0.player.rate > 0.9 }
                    && members[0].playback.suspendedParticipants.isEmpty
            ))

        progress("7:00 participant 5 joins")
        try await party.add(5, device: devices[4], playerDrift: playerDrifts[4])
        try await sample(for: .seconds(5))
        report.checks.append(("the late joiner started where the group is (within 20 ms)", allWithin(0.02)))
        try await sample(for: .seconds(180))
        progress("10:05 the end")
        report.minutes = party.clock.elapsed.seconds / 60
        report.sent = party.members.map(\.playback.statistics.sent)
        for member in party.members { member.playback.stop() }
        return report
    }
}
