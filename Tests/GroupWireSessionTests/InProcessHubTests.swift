import Testing
import GroupWire
import GroupWireSession
import GroupWireTesting

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
        let hub = InProcessHub()
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
        let hub = InProcessHub()
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
        let hub = InProcessHub(maxMessageSize: 100)
        let a = try await hub.join(alice)
        _ = try await hub.join(bob)
        let error = await #expect(throws: WireError.self) { try await a.send([UInt8](repeating: 0, count: 101), to: .all) }
        #expect(error?.kind == .messageTooLarge)
        #expect(await hub.statistics.sent == 0)
    }

    @Test func joiningTwiceAndSendingAfterCloseAreRefused() async throws {
        let hub = InProcessHub()
        let a = try await hub.join(alice)
        let twice = await #expect(throws: WireError.self) { try await hub.join(alice) }
        #expect(twice?.kind == .alreadyJoined)
        await hub.close()
        let closed = await #expect(throws: WireError.self) { try await a.send([1], to: .all) }
        #expect(closed?.kind == .transportClosed)
    }

    @Test func nothingArrivesBeforeItsDelayHasPassed() async throws {
        let hub = InProcessHub(plan: .reliable(delay: .milliseconds(10) ... .milliseconds(10)))
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

    @Test func aParticipantThatLeavesStopsReceiving() async throws {
        let hub = InProcessHub(plan: .reliable(delay: .milliseconds(5) ... .milliseconds(5)))
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
