import GroupWire
import GroupWirePlayback
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import Testing

/// Coordinated playback over the seeded hub (5–50 ms of delay, 5% of copies lost, every
/// participant behind a reliable delivery layer), on simulated time: four participants
/// whose device clocks are up to 500 ms off and up to 100 ppm fast or slow, each player
/// drifting by up to 50 ppm more.
@Suite struct CoordinatedPlaybackTests {
    static let devices = [
        DeviceClock(offset: .milliseconds(0), drift: 0),
        DeviceClock(offset: .milliseconds(480), drift: 100e-6),
        DeviceClock(offset: .milliseconds(-500), drift: -100e-6),
        DeviceClock(offset: .milliseconds(230), drift: 60e-6),
        DeviceClock(offset: .milliseconds(-310), drift: -80e-6),
    ]
    static let playerDrifts = [0, 40e-6, -50e-6, 20e-6, -30e-6]

    /// The errors of every participant synchronized and not suspended, sampled every 100 ms of simulated time
    /// for `duration`, in seconds.
    static func sample(_ party: WatchParty, _ history: TimelineHistory, for duration: Duration) async throws -> [Double] {
        var errors: [Double] = []
        let end = party.clock.elapsed + duration
        while party.clock.elapsed < end {
            try await party.advance(by: .milliseconds(100))
            history.record(party)
            let now = party.clock.elapsed
            guard let expected = history.expected(at: party.groupTime(at: now)) else { continue }
            for member in party.members
            where member.playback.isSynchronized && member.playback.suspendedParticipants[member.id] == nil {
                errors.append(abs(member.player.currentTime - expected))
            }
        }
        return errors
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    /// Ten simulated minutes of a film: play, a seek, a pause and a play from different
    /// participants, a stall that the group waits out, and a late joiner; every
    /// participant's position within 20 ms of the group's timeline at p99 once the clocks
    /// have settled, every change in effect everywhere at its instant.
    @Test func fourParticipantsStayWithinTwentyMillisecondsOverATenMinuteFilm() async throws {
        let party = WatchParty(seed: 35)
        try await party.start(devices: Array(Self.devices.prefix(4)), playerDrifts: Array(Self.playerDrifts.prefix(4)))
        let history = TimelineHistory()
        // The clocks settle before anyone plays.
        try await party.advance(by: .seconds(5))
        #expect(party.members.dropFirst().allSatisfy { $0.playback.clockEstimate.isEstimated })
        try await party.members[0].playback.load(item: "film-1")
        try await party.members[0].playback.play()
        var errors = try await Self.sample(party, history, for: .seconds(115))
        #expect(party.members.allSatisfy { $0.player.item == "film-1" && $0.player.rate > 0.9 })

        // A seek from participant 3: everyone is at 600 s right after its instant.
        try await party.members[2].playback.seek(to: 600)
        errors += try await Self.sample(party, history, for: .seconds(1))
        let afterSeek = try #require(history.expected(at: party.groupTime(at: party.clock.elapsed)))
        #expect(abs(afterSeek - 600.75) < 0.02 && history.timelines.last?.mediaTime == 600)
        #expect(
            party.members.allSatisfy { abs($0.player.currentTime - afterSeek) < 0.02 },
            "\(party.members.map(\.player.currentTime)) against \(afterSeek)")
        errors += try await Self.sample(party, history, for: .seconds(119))

        // A pause from participant 2, a play from participant 4.
        try await party.members[1].playback.pause()
        errors += try await Self.sample(party, history, for: .seconds(30))
        let paused = party.members.map(\.player.currentTime)
        #expect(paused.allSatisfy { abs($0 - paused[0]) < 0.02 } && party.members.allSatisfy { $0.player.rate == 0 }, "\(paused)")
        try await party.members[3].playback.play()
        errors += try await Self.sample(party, history, for: .seconds(90))

        // Participant 2's player stalls: by the default policy the group waits for it.
        party.members[1].player.stall()
        errors += try await Self.sample(party, history, for: .seconds(3))
        #expect(party.members[0].playback.suspendedParticipants[party.members[1].id] == .stallRecovery)
        #expect(party.members.allSatisfy { $0.playback.timeline?.change == .wait })
        #expect(party.members.filter { $0.id != party.members[1].id }.allSatisfy { $0.player.rate == 0 })
        party.members[1].player.recover()
        errors += try await Self.sample(party, history, for: .seconds(57))
        #expect(party.members.allSatisfy { $0.playback.timeline?.change == .resume && $0.player.rate > 0.9 })
        #expect(party.members[0].playback.suspendedParticipants.isEmpty)

        // A fifth participant joins late and starts where the group is.
        try await party.add(5, device: Self.devices[4], playerDrift: Self.playerDrifts[4])
        errors += try await Self.sample(party, history, for: .seconds(5))
        let late = try #require(party.members.last)
        let groupAt = try #require(history.expected(at: party.groupTime(at: party.clock.elapsed)))
        #expect(abs(late.player.currentTime - groupAt) < 0.02, "late joiner at \(late.player.currentTime), group at \(groupAt)")
        errors += try await Self.sample(party, history, for: .seconds(180))

        let p99 = Self.percentile(errors, 0.99)
        #expect(p99 < 0.020, "p99 \(p99 * 1_000) ms, p50 \(Self.percentile(errors, 0.5) * 1_000) ms over \(errors.count) samples")
        #expect(party.clock.elapsed >= .seconds(600))
        // No chatter: at steady playback a participant sends about twelve clock requests a minute.
        let minutes = Double(party.clock.elapsed.components.seconds) / 60
        for member in party.members.dropFirst() {
            #expect(Double(member.playback.statistics.sent) / minutes < 20, "\(member.playback.statistics)")
        }
    }

    /// Four participants playing, clocks settled.
    static func playing(seed: UInt64, configuration: PlaybackConfiguration = PlaybackConfiguration()) async throws
        -> WatchParty
    {
        let party = WatchParty(seed: seed, configuration: configuration)
        try await party.start(devices: Array(devices.prefix(4)), playerDrifts: Array(playerDrifts.prefix(4)))
        try await party.advance(by: .seconds(5))
        try await party.members[0].playback.load(item: "film-1")
        try await party.members[0].playback.play()
        try await party.advance(by: .seconds(30))
        return party
    }

    /// Two seeks issued at the same instant by two participants: both carry the same
    /// Lamport clock, the greater author wins, and every participant ends on its timeline.
    @Test func conflictingSeeksAtTheSameInstantEndOnOneTimelineEverywhere() async throws {
        let party = try await Self.playing(seed: 7)
        async let first: Void = party.members[1].playback.seek(to: 100)
        async let second: Void = party.members[3].playback.seek(to: 200)
        _ = try await (first, second)
        try await party.advance(by: .seconds(2))
        let timelines = party.members.compactMap(\.playback.timeline)
        #expect(timelines.count == 4 && Set(timelines.map(\.stamp)).count == 1)
        let winner = try #require(timelines.first)
        // Both seeks were made from the same group state: the same clock, the larger id wins.
        #expect(winner.stamp.author == max(party.members[1].id, party.members[3].id) && winner.mediaTime == 200)
        let expected = winner.expectedTime(at: party.groupTime(at: party.clock.elapsed))
        #expect(
            party.members.allSatisfy { abs($0.player.currentTime - expected) < 0.02 },
            "\(party.members.map(\.player.currentTime)) against \(expected)")
    }

    /// A suspension whose reason does not make the group wait: the others play on, the
    /// suspended one stays where it stalled, and once it recovers it is back with the group.
    @Test func aSuspensionThatDoesNotMakeTheGroupWaitLetsItPlayOn() async throws {
        var configuration = PlaybackConfiguration()
        configuration.suspensionReasonsThatTriggerWaiting = []
        let party = try await Self.playing(seed: 11, configuration: configuration)
        let stalled = party.members[2]
        stalled.player.stall()
        try await party.advance(by: .seconds(3))
        #expect(party.members[0].playback.suspendedParticipants == [stalled.id: .stallRecovery])
        #expect(party.members.allSatisfy { $0.playback.timeline?.change == .play })
        let groupNow = try #require(party.members[0].playback.timeline).expectedTime(at: party.groupTime(at: party.clock.elapsed))
        #expect(party.members.filter { $0.id != stalled.id }.allSatisfy { abs($0.player.currentTime - groupNow) < 0.02 })
        #expect(groupNow - stalled.player.currentTime > 2.9)
        stalled.player.recover()
        try await party.advance(by: .milliseconds(500))
        let after = try #require(party.members[0].playback.timeline).expectedTime(at: party.groupTime(at: party.clock.elapsed))
        #expect(abs(stalled.player.currentTime - after) < 0.02, "\(stalled.player.currentTime) against \(after)")
        #expect(party.members[0].playback.suspendedParticipants.isEmpty)
    }
}
