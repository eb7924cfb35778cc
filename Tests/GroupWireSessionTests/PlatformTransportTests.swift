import Foundation
import GroupWire
import GroupWireTestSupport
import GroupWireTesting
import Synchronization
import Testing

@testable import GroupWireSession

/// The transport over the platform's group-session messenger, against a fake with its
/// limits (64 KB messages, a reliable and an unreliable mode).
@Suite struct PlatformTransportTests {
    static let ids = (1...3).map { UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8($0))) }

    @Test func participantSetsBecomeJoinsAndLeavesWithoutThisDevice() async throws {
        let group = FakePlatformGroup()
        let transport = PlatformMessengerTransport(platform: group.join(Self.ids[0]))
        let log = EventLog(transport.events)
        _ = group.join(Self.ids[1])
        _ = group.join(Self.ids[2])
        group.leave(Self.ids[1])
        try await eventually("the layers to catch up") { log.events.count == 3 }
        #expect(
            log.events == [
                .joined(ParticipantID(uuid: Self.ids[1])), .joined(ParticipantID(uuid: Self.ids[2])),
                .left(ParticipantID(uuid: Self.ids[1])),
            ])
        #expect(transport.localParticipant == ParticipantID(uuid: Self.ids[0]))
        #expect(transport.guarantees == TransportGuarantees(isReliable: true, isOrdered: false, maxMessageSize: 65_536))
    }

    @Test func aFrameOverSixtyFourKilobytesFailsBeforeAnyFrameOfItsMessageIsSent() async throws {
        let group = FakePlatformGroup()
        let transport = PlatformMessengerTransport(platform: group.join(Self.ids[0]))
        _ = group.join(Self.ids[1])
        var kind: WireError.Kind?
        do {
            try await transport.send(
                [[UInt8](repeating: 1, count: 100), [UInt8](repeating: 1, count: 65_537)], to: .all, mode: .reliable)
        } catch {
            kind = error.kind
        }
        #expect(kind == .messageTooLarge)
        #expect(group.sent.isEmpty)
        try await transport.send([UInt8](repeating: 1, count: 65_536), to: .all)
        #expect(group.sent.map(\.size) == [65_536])
    }

    @Test func aMessengerFragmentsAMessageLargerThanThePlatformLimitAndItArrivesWhole() async throws {
        let group = FakePlatformGroup()
        let alice = Messenger(transport: PlatformMessengerTransport(platform: group.join(Self.ids[0])))
        let bob = Messenger(transport: PlatformMessengerTransport(platform: group.join(Self.ids[1])))
        let received = try bob.rawMessages(typeID: 77)
        try await eventually("the layers to catch up") { alice.reachableParticipants.count == 1 }
        let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try await alice.send(payload, typeID: 77)
        let first = try await firstElement(of: received)
        #expect(first?.message == payload)
        #expect(group.sent.count == 4 && group.sent.allSatisfy { $0.size <= 65_536 && $0.mode == .reliable })
    }

    @Test func overALossyUnreliableModeTheDeliveryLayerKeepsReliableMessagesAndSendsUnreliableOnesUnreliably() async throws {
        let group = FakePlatformGroup(seed: 5, loss: 0.3, reorder: 0.3)
        let alicePlatform = PlatformMessengerTransport(platform: group.join(Self.ids[0]))
        let bobPlatform = PlatformMessengerTransport(platform: group.join(Self.ids[1]))
        // Simulated time that never moves: no timer fires, so every count below is exact
        // however busy the machine is.
        let clock = VirtualClock()
        let alice = DeliveryTransport(over: alicePlatform, configuration: .simulated(clock: clock, seed: 1))
        let bob = DeliveryTransport(over: bobPlatform, configuration: .simulated(clock: clock, seed: 2))
        #expect(!alice.isPassThrough, "the platform does not promise order, so the layer numbers frames")
        let log = EventLog(bob.events)
        let aliceLog = EventLog(alice.events)
        try await eventually("the layers to catch up") {
            log.joined(ParticipantID(uuid: Self.ids[0])) && aliceLog.joined(ParticipantID(uuid: Self.ids[1]))
        }
        for index in 0..<100 {
            try await alice.send([numberedFrame(index)], to: .all, mode: .unreliable)
        }
        let unreliable = group.sent.filter { $0.source == Self.ids[0] }
        #expect(unreliable.count == 100 && unreliable.allSatisfy { $0.mode == .unreliable })
        for index in 100..<150 {
            try await alice.send(numberedFrame(index), to: .all)
        }
        // The platform's reliable mode loses nothing here; the layer still orders.
        try await eventually("the layers to catch up") { log.bodies.map(frameNumber).filter { $0 >= 100 }.count == 50 }
        let numbers = log.bodies.map(frameNumber)
        #expect(numbers.filter { $0 >= 100 } == Array(100..<150))
        let early = numbers.filter { $0 < 100 }
        #expect(Set(early).count == early.count && early.count < 100 && early.count > 30, "a subset of the unreliable ones")
        #expect(group.sent.filter { $0.source == Self.ids[0] && $0.mode == .reliable }.count == 50)
    }
}
