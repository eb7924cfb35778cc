import GroupWire
import GroupWireTesting
import Testing

/// The testing product's clock: timers that wait for virtual time, not real time.
@Suite struct VirtualClockTests {
    @Test("A sleeper wakes only when virtual time passes its deadline, earliest first")
    func sleepersWakeInDeadlineOrder() async throws {
        let clock = VirtualClock()
        let woken = WokenOrder()
        let late = Task {
            try await clock.sleep(for: .seconds(10)); await woken.append("late")
        }
        let early = Task {
            try await clock.sleep(for: .seconds(5)); await woken.append("early")
        }
        // Move time only once both timers are set.
        var polls = 0
        while clock.sleeperCount < 2, polls < 100_000 {
            await Task.yield()
            polls += 1
        }
        try #require(clock.sleeperCount == 2)
        clock.advance(by: .seconds(4))
        for _ in 0..<200 { await Task.yield() }
        #expect(await woken.names == [])
        clock.advance(by: .seconds(1))
        try await early.value
        #expect(await woken.names == ["early"])
        clock.advance(to: .seconds(30))
        try await late.value
        #expect(await woken.names == ["early", "late"])
        #expect(clock.elapsed == .seconds(30))
        #expect(clock.now.duration(to: clock.now.advanced(by: .seconds(2))) == .seconds(2))
    }

    @Test("A cancelled sleep throws CancellationError without time moving")
    func cancelledSleepThrows() async {
        let clock = VirtualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.elapsed == .zero)
    }

    @Test("Time never goes backwards, and a reassembly clock reads it")
    func monotonic() {
        let clock = VirtualClock()
        clock.advance(to: .seconds(3))
        clock.advance(to: .seconds(1))
        #expect(clock.elapsed == .seconds(3))
        #expect(clock.reassemblyClock.now() == .seconds(3))
        let fromClock = ReassemblyClock(clock)
        clock.advance(by: .milliseconds(250))
        #expect(fromClock.now() == .milliseconds(250))
    }
}

/// The order tasks woke in.
private actor WokenOrder {
    var names: [String] = []
    func append(_ name: String) { names.append(name) }
}
