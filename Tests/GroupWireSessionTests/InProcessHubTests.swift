import GroupWire
import GroupWireSession
import GroupWireTesting
import Synchronization
import Testing

@Suite struct InProcessHubTests {
    let alice = ParticipantID.numbered(1)
    let bob = ParticipantID.numbered(2)
    let carol = ParticipantID.numbered(3)

    /// Closes the hub and collects what reached `endpoint`.
    private func received(by endpoint: HubEndpoint, closing hub: InProcessHub) async -> [TransportMessage] {
        await hub.close()
        var messages: [TransportMessage] = []
        for await message in endpoint.messages {
            messages.append(message)
        }
        return messages
    }

    @Test func aMessageToAllReachesEveryOtherParticipantButNotTheSender() async throws {
        let hub = InProcessHub(clock: VirtualClock())
        let a = try await hub.join(alice)
        let b = try await hub.join(bob)
        let c = try await hub.join(carol)
        try await a.send([1, 2, 3], to: .all)
        await hub.runUntilIdle()
        await hub.close()
        var toBob: [TransportMessage] = []
        for await message in b.messages { toBob.append(message) }
        var toCarol: [TransportMessage] = []
        for await message in c.messages { toCarol.append(message) }
        var toAlice: [TransportMessage] = []
        for await message in a.messages { toAlice.append(message) }
        #expect(toBob == [TransportMessage(source: alice, bytes: [1, 2, 3], arrival: .zero)])
        #expect(toCarol == toBob)
        #expect(toAlice.isEmpty)
    }

    @Test func aMessageForOneParticipantReachesOnlyThem() async throws {
        let hub = InProcessHub(clock: VirtualClock())
        let a = try await hub.join(alice)
        let b = try await hub.join(bob)
        let c = try await hub.join(carol)
        try await a.send([9], to: .only([carol]))
        await hub.runUntilIdle()
        #expect(await hub.statistics.delivered == 1)
        await hub.close()
        var toBob = 0
        for await _ in b.messages { toBob += 1 }
        var toCarol: [[UInt8]] = []
        for await message in c.messages { toCarol.append(message.bytes) }
        #expect(toBob == 0)
        #expect(toCarol == [[9]])
    }

    @Test func aMessageOverTheTransportLimitIsRefused() async throws {
        let hub = InProcessHub(maxMessageSize: 100, clock: VirtualClock())
        let a = try await hub.join(alice)
        _ = try await hub.join(bob)
        let error = await #expect(throws: WireError.self) { try await a.send([UInt8](repeating: 0, count: 101), to: .all) }
        #expect(error?.kind == .messageTooLarge)
        #expect(await hub.statistics.sent == 0)
    }

    @Test func joiningTwiceAndSendingAfterCloseAreRefused() async throws {
        let hub = InProcessHub(clock: VirtualClock())
        let a = try await hub.join(alice)
        let twice = await #expect(throws: WireError.self) { try await hub.join(alice) }
        #expect(twice?.kind == .alreadyJoined)
        await hub.close()
        let closed = await #expect(throws: WireError.self) { try await a.send([1], to: .all) }
        #expect(closed?.kind == .transportClosed)
    }

    @Test func nothingArrivesBeforeItsDelayHasPassed() async throws {
        let hub = InProcessHub(plan: .reliable(delay: .milliseconds(10) ... .milliseconds(10)), clock: VirtualClock())
        let a = try await hub.join(alice)
        let b = try await hub.join(bob)
        try await a.send([1], to: .all)
        await hub.advance(by: .milliseconds(9))
        #expect(await hub.statistics.delivered == 0)
        #expect(await hub.inFlightCount == 1)
        await hub.advance(by: .milliseconds(1))
        #expect(await hub.statistics.delivered == 1)
        let messages = await received(by: b, closing: hub)
        #expect(messages.map(\.arrival) == [.milliseconds(10)])
    }

    @Test func inRealTimeAMessageArrivesWithoutAnyoneMovingTime() async throws {
        let hub = InProcessHub()
        #expect(hub.clock == nil)
        let a = try await hub.join(alice)
        let b = try await hub.join(bob)
        var messages = b.messages.makeAsyncIterator()
        try await a.send([7, 8], to: .all)
        let got = try #require(await messages.next())
        #expect(got.bytes == [7, 8])
        #expect(got.source == alice)
        #expect(await hub.inFlightCount == 0)
        await hub.close()
    }

    @Test func inRealTimeADelayedCopyArrivesOnlyOnceItsDelayHasPassed() async throws {
        let hub = InProcessHub(plan: .reliable(delay: .milliseconds(30) ... .milliseconds(30)))
        let a = try await hub.join(alice)
        let b = try await hub.join(bob)
        var messages = b.messages.makeAsyncIterator()
        let sent = hub.elapsed
        try await a.send([1], to: .all)
        try await a.send([2], to: .all)
        // Moving time is for a virtual hub; in real time it changes nothing.
        await hub.advance(by: .seconds(10))
        await hub.runUntilIdle()
        let first = try #require(await messages.next())
        let received = hub.elapsed
        let second = try #require(await messages.next())
        #expect([first.bytes, second.bytes] == [[1], [2]])
        #expect(first.arrival >= sent + .milliseconds(30))
        #expect(received >= sent + .milliseconds(30), "delivered before its delay passed")
        await hub.close()
    }

    /// A reader that takes its time with each message (here 20 ms of real time, as an app
    /// busy elsewhere) still handles it at the simulated instant it arrived: built with the
    /// hub's gauge set, the delivery layer's events, the messenger's stream and the reader's
    /// coming back for more are what a step waits for, not only the hub's mailbox.
    @Test func aStepWaitsUntilTheReaderOfAMessengerBuiltWithTheGaugeHandledWhatArrived() async throws {
        let clock = VirtualClock()
        let hub = InProcessHub(plan: .unreliable(seed: 5, drop: 0, delay: .milliseconds(5) ... .milliseconds(5)), clock: clock)
        let (sender, receiver, stream) = try await SettleGauge.$current.withValue(hub.gauge) {
            let sender = Messenger(transport: DeliveryTransport(over: try await hub.join(alice)))
            let receiver = Messenger(transport: DeliveryTransport(over: try await hub.join(bob)))
            return (sender, receiver, try receiver.rawMessages(typeID: 901))
        }
        let handled = Mutex<[Duration]>([])
        let reader = Task {
            for await _ in stream {
                try? await Task.sleep(for: .milliseconds(20))
                handled.withLock { $0.append(clock.elapsed) }
            }
        }
        defer { reader.cancel() }
        try await hub.settle()
        for n in 0..<5 {
            // Each message leaves at n × 10 ms and arrives 5 ms later.
            try await sender.send([UInt8(n)], typeID: 901, to: .only([bob]))
            for _ in 0..<10 { try await hub.step(by: .milliseconds(1)) }
        }
        #expect(handled.withLock { $0 } == [5, 15, 25, 35, 45].map { Duration.milliseconds($0) })
        #expect(receiver.statistics.messagesDelivered == 5)
        await hub.close()
    }

    /// A timer task's work at its instant (here 20 ms of real time, as a busy machine's)
    /// is done at that instant: its `SettleTimers`, made with the hub's gauge set, keep a
    /// step from moving time on once the task returned from its sleep and before its work
    /// is done, which the clock's count of woken sleepers alone does not see.
    @Test func aStepWaitsUntilATimerWatchedWithTheGaugeDidItsInstantsWork() async throws {
        let clock = VirtualClock()
        let hub = InProcessHub(clock: clock)
        let timers = try #require(SettleGauge.$current.withValue(hub.gauge) { SettleTimers.watched(on: hub.timerClock) })
        #expect(SettleTimers.watched(on: hub.timerClock) == nil, "none outside a gauge's scope")
        let worked = Mutex<[Duration]>([])
        let timerClock = hub.timerClock
        // Registered before the task starts, so a task slow to start is waited for too.
        let timer = timers.add(at: .milliseconds(10))
        let task = Task {
            var next = Duration.milliseconds(10)
            defer { timers.done(timer) }
            while next <= .milliseconds(30) {
                timers.move(timer, to: next)
                guard (try? await timerClock.sleep(next)) != nil else { return }
                try? await Task.sleep(for: .milliseconds(20))
                worked.withLock { $0.append(clock.elapsed) }
                next += .milliseconds(10)
            }
        }
        defer { task.cancel() }
        #expect(hub.gauge.unsettled == 0)
        for _ in 0..<35 { try await hub.step(by: .milliseconds(1)) }
        #expect(worked.withLock { $0 } == [10, 20, 30].map { Duration.milliseconds($0) })
        await task.value
        #expect(hub.gauge.unsettled == 0, "a timer done is settled")
        await hub.close()
    }

    @Test func theHubsClockReachesTheLayersAboveItsEndpoints() async throws {
        let clock = VirtualClock()
        let hub = InProcessHub(clock: clock)
        let endpoint = try await hub.join(alice)
        let delivery = DeliveryTransport(over: endpoint)
        let messenger = Messenger(
            transport: delivery,
            configuration: MessengerConfiguration(
                negotiation: NegotiationSettings(schema: nil)))
        await hub.advance(by: .seconds(42))
        #expect(endpoint.clock.now() == .seconds(42))
        #expect(delivery.clock.now() == .seconds(42))
        #expect(messenger.configuration.clock?.now() == .seconds(42))
        #expect(messenger.configuration.negotiation?.clock?.now() == .seconds(42))
        // A clock given explicitly wins over the transport's.
        let own = VirtualClock()
        var configuration = DeliveryConfiguration()
        configuration.clock = TimerClock(own)
        #expect(DeliveryTransport(over: endpoint, configuration: configuration).clock.now() == .zero)
        // In real time the endpoints read the system's clock.
        let realTime = InProcessHub()
        let realEndpoint = try await realTime.join(alice)
        #expect(realEndpoint.clock.now() < .seconds(42))
        await hub.close()
        await realTime.close()
    }

    @Test func aParticipantThatLeavesStopsReceiving() async throws {
        let hub = InProcessHub(plan: .reliable(delay: .milliseconds(5) ... .milliseconds(5)), clock: VirtualClock())
        let a = try await hub.join(alice)
        let b = try await hub.join(bob)
        try await a.send([1], to: .all)
        await hub.leave(bob)
        await hub.runUntilIdle()
        var count = 0
        for await _ in b.messages { count += 1 }
        #expect(count == 0)
        #expect(await hub.participants == [alice])
    }
}
