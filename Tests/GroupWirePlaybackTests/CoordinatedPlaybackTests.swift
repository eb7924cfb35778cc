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
    static let devices = WatchFilm.devices
    static let playerDrifts = WatchFilm.playerDrifts

    /// Ten simulated minutes of a film (``WatchFilm``): play, a seek, a pause and a play
    /// from different participants, a stall that the group waits out, and a late joiner;
    /// every participant's position within 20 ms of the group's timeline at p99 once the
    /// clocks have settled, every change in effect everywhere at its instant.
    @Test func fourParticipantsStayWithinTwentyMillisecondsOverATenMinuteFilm() async throws {
        let report = try await WatchFilm.run(seed: 35)
        for (check, holds) in report.checks { #expect(holds, "\(check)") }
        #expect(report.checks.count == 7)
        let p99 = report.percentile(0.99)
        #expect(
            p99 < 0.020, "p99 \(p99 * 1_000) ms, p50 \(report.percentile(0.5) * 1_000) ms over \(report.samples.count) samples")
        #expect(report.minutes >= 10 && report.samples.count > 20_000)
        // No chatter: a participant sends 12 clock requests a minute once its estimate has
        // settled, 60 while it settles; the timekeeper (participant 1) answers everyone's.
        for sent in report.sent.dropFirst() { #expect(Double(sent) / report.minutes < 60, "\(report.sent)") }
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

    /// A change every receiver would refuse is refused where it is made: the group's
    /// timeline stays, nothing is sent.
    @Test func aChangeOutsideWhatReceiversTakeThrowsAndSendsNothing() async throws {
        let party = try await Self.playing(seed: 17)
        let member = party.members[1]
        let before = member.playback.timeline
        let sent = member.playback.statistics.timelinesSent
        let attempts: [(String, () async throws(SharedSessionError) -> Void)] = [
            ("seek past 1e9 s", { () async throws(SharedSessionError) in try await member.playback.seek(to: 2e9) }),
            ("seek to NaN", { () async throws(SharedSessionError) in try await member.playback.seek(to: .nan) }),
            ("rate 17", { () async throws(SharedSessionError) in try await member.playback.setRate(17) }),
            ("rate infinite", { () async throws(SharedSessionError) in try await member.playback.setRate(.infinity) }),
            ("rate NaN", { () async throws(SharedSessionError) in try await member.playback.setRate(.nan) }),
            (
                "an item of 1,025 bytes",
                { () async throws(SharedSessionError) in
                    try await member.playback.load(item: String(repeating: "x", count: 1_025))
                }
            ),
        ]
        for (name, attempt) in attempts {
            do {
                try await attempt()
                Issue.record("\(name) was taken")
            } catch {
                #expect(error.kind == .outOfRange, "\(name): \(error)")
            }
        }
        #expect(member.playback.timeline == before && member.playback.statistics.timelinesSent == sent)
        // The limits themselves are taken.
        try await member.playback.setRate(16)
        try await member.playback.seek(to: 1e9)
        try await party.advance(by: .seconds(1))
        #expect(party.members.allSatisfy { $0.playback.timeline?.rate == 16 && $0.playback.timeline?.mediaTime == 1e9 })
    }

    /// Before a participant has the group clock, its change has no instant the others
    /// share: it is refused rather than stamped with the device's own clock.
    @Test func aChangeBeforeTheGroupClockIsRefused() async throws {
        let party = WatchParty(seed: 19)
        try await party.start(devices: Array(Self.devices.prefix(2)), playerDrifts: Array(Self.playerDrifts.prefix(2)))
        for member in party.members {
            do {
                try await member.playback.play()
                Issue.record("\(member.id) played without a group clock")
            } catch {
                #expect(error.kind == .noGroupClock)
            }
            #expect(member.playback.timeline == nil && member.playback.statistics.timelinesSent == 0)
        }
        try await party.advance(by: .seconds(5))
        try await party.members[1].playback.play()
    }

    /// A participant's coordinator made anew (an app that rebuilt its player) counts its
    /// suspensions from 1 again: the others forget the old count when it asks for the state.
    @Test func aCoordinatorStartedAgainIsHeardFromItsFirstSuspension() async throws {
        var configuration = PlaybackConfiguration()
        configuration.suspensionReasonsThatTriggerWaiting = []
        let party = try await Self.playing(seed: 23, configuration: configuration)
        let member = party.members[2]
        try await member.playback.beginSuspension(.interrupted)
        try await member.playback.endSuspension()
        try await member.playback.beginSuspension(.interrupted)
        try await member.playback.endSuspension()
        try await party.advance(by: .seconds(1))
        #expect(party.members[0].playback.suspendedParticipants.isEmpty)
        let clock = party.clock
        let device = member.device
        let again = try PlaybackCoordinator(
            session: member.session, player: member.player, configuration: configuration, clock: party.hub.timerClock,
            localClock: { device.read(clock.elapsed) })
        try await party.advance(by: .seconds(1))
        try await again.beginSuspension(.stallRecovery)
        try await party.advance(by: .seconds(1))
        for other in party.members where other.id != member.id {
            #expect(other.playback.suspendedParticipants == [member.id: .stallRecovery], "\(other.id)")
        }
    }

    /// The timekeeper leaves: participant 2 keeps the clock it estimated (continuity), and
    /// participant 3, whose reference is gone, takes 2 as its reference and estimates from
    /// 2's answers alone: none of the samples it took from 1 stays in its estimate.
    @Test func aNewReferenceAfterTheOldOneLeftStartsTheEstimateAgain() async throws {
        let party = WatchParty(seed: 29)
        try await party.start(devices: Array(Self.devices.prefix(3)), playerDrifts: Array(Self.playerDrifts.prefix(3)))
        try await party.advance(by: .seconds(20))
        let (first, second, third) = (party.members[0], party.members[1], party.members[2])
        #expect(third.playback.clockReference == first.id && third.playback.clockEstimate.samples.count > 8)
        first.playback.stop()
        try first.session.leave()
        let clock = party.clock
        let left = third.device.read(clock.elapsed)
        try await party.run(until: "participant 3 to follow participant 2") { third.playback.clockReference == second.id }
        try await party.advance(by: .seconds(2))
        let samples = third.playback.clockEstimate.samples
        #expect(!samples.isEmpty && samples.allSatisfy { $0.localTime > left }, "\(samples.map(\.localTime)) against \(left)")
        #expect(third.playback.clockReference == second.id)
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

    /// A user who scrubs begins a `userChangingCurrentTime` suspension (the group does not
    /// wait for it by default) and ends it proposing the time scrubbed to: the whole group
    /// moves there.
    @Test func endingASuspensionWithATimeMovesTheGroupThere() async throws {
        let party = try await Self.playing(seed: 13)
        let scrubber = party.members[3]
        try await scrubber.playback.beginSuspension(.userChangingCurrentTime)
        try await party.advance(by: .seconds(1))
        #expect(party.members[0].playback.suspendedParticipants == [scrubber.id: .userChangingCurrentTime])
        #expect(party.members.allSatisfy { $0.playback.timeline?.change == .play })
        try await scrubber.playback.endSuspension(proposing: 300)
        try await party.advance(by: .seconds(1))
        let timeline = try #require(party.members[0].playback.timeline)
        #expect(timeline.change == .seek && timeline.mediaTime == 300 && timeline.stamp.author == scrubber.id)
        let expected = timeline.expectedTime(at: party.groupTime(at: party.clock.elapsed))
        #expect(abs(expected - 300.75) < 0.02)
        #expect(
            party.members.allSatisfy { abs($0.player.currentTime - expected) < 0.02 },
            "\(party.members.map(\.player.currentTime))")
        #expect(party.members[0].playback.suspendedParticipants.isEmpty)
    }

    /// The user pauses and scrubs with the player's own controls (not the app's): the
    /// player tells its coordinator, and the whole group follows.
    @Test func whatTheUserDoesOnThePlayerReachesTheGroup() async throws {
        let party = try await Self.playing(seed: 17)
        let user = party.members[2]
        user.player.userSetRate(0)
        try await party.advance(by: .seconds(1))
        #expect(party.members.allSatisfy { $0.playback.timeline?.change == .pause && $0.player.rate == 0 })
        #expect(party.members[0].playback.timeline?.stamp.author == user.id)
        user.player.userSeek(to: 42)
        try await party.advance(by: .seconds(1))
        let timeline = try #require(party.members[0].playback.timeline)
        #expect(timeline.change == .seek && timeline.mediaTime == 42 && timeline.rate == 0)
        #expect(
            party.members.allSatisfy { abs($0.player.currentTime - 42) < 0.001 }, "\(party.members.map(\.player.currentTime))")
    }
}
