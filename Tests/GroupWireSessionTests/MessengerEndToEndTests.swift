import Foundation
import GroupWire
import GroupWireCompression
import GroupWireExamples
import GroupWireSession
import GroupWireTestSupport
import GroupWireTesting
import Testing

/// The messenger end to end, through the public API only: values in on one participant,
/// typed streams out on the others, over the in-process hub.
@Suite struct MessengerEndToEndTests {
    private let stroke = UpsertStroke(
        id: UUID(uuid: (1, 2, 3, 4, 5, 6, 0x40, 8, 0x80, 10, 11, 12, 13, 14, 15, 16)),
        color: .green, point: Point(x: 12.5, y: -3.25))
    private let playback = PlaybackState(
        stateID: UUID(uuid: (0x5E, 0x1F, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0x0A)), title: "Movie night",
        contentID: UUID(uuid: (0xC0, 0xFF, 0xEE, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)), position: 42.5, rate: 1,
        isPlaying: true, event: .play,
        changedBy: ParticipantRef(
            id: UUID(uuid: (0xAD, 0xA0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)), displayName: "Ada"),
        changedAt: Date(timeIntervalSince1970: 1_800_000_000),
        source: .catalog(CatalogItem(contentID: UUID(uuid: (0xC0, 0xFF, 0xEE, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)))),
        metadata: ["room": "living room"])

    @Test("The three example messages reach every other participant, with the sender as source")
    func examplesToAll() async throws {
        let group = try await Group.make(count: 3)
        let snapshot = largeSnapshot()
        let receivers = try group.messengers[1...].map { messenger in
            (
                try messenger.messages(of: UpsertStroke.self), try messenger.messages(of: PlaybackState.self),
                try messenger.messages(of: CanvasSnapshot.self)
            )
        }
        let alice = group.messengers[0]
        try await alice.send(stroke)
        try await alice.send(playback)
        try await alice.send(snapshot)
        #expect(alice.statistics.messagesSent == 3)
        #expect(alice.statistics.framesSent > 3, "the snapshot goes out as several fragments")
        await group.settle()
        for (strokes, states, snapshots) in receivers {
            let gotStrokes = await collect(strokes)
            let gotStates = await collect(states)
            let gotSnapshots = await collect(snapshots)
            #expect(gotStrokes.map(\.message) == [stroke])
            #expect(gotStates.map(\.message) == [playback])
            #expect(gotSnapshots.map(\.message) == [snapshot])
            #expect(
                (gotStrokes.map(\.context) + gotStates.map(\.context) + gotSnapshots.map(\.context)).allSatisfy {
                    $0.source == group.ids[0]
                })
            #expect(gotSnapshots.first?.context.wasCompressed == true)
            #expect(gotStrokes.first?.context.wasCompressed == false, "42 bytes are under the compression threshold")
        }
    }

    @Test("The large snapshot is compressed and still needs several frames")
    func snapshotIsCompressedAndFragmented() throws {
        let snapshot = largeSnapshot()
        let payload = snapshot.wirePayload()
        let frames = try SendPipeline(codec: try PayloadCompressor())
            .frames(
                typeID: CanvasSnapshot.wireTypeID, payload: payload, messageID: 9,
                profile: .default(codec: try PayloadCompressor()))
        let decoded = try frames.map { try FrameDecoder().decode($0) }
        #expect(decoded.count >= 2)
        #expect(decoded.allSatisfy { $0.kind == .fragment && $0.compression?.contentSize == UInt64(payload.count) })
        #expect(decoded.reduce(0) { $0 + $1.body.count } < payload.count)
    }

    @Test("A message to some participants reaches only them")
    func toSome() async throws {
        let group = try await Group.make(count: 3)
        let bob = try group.messengers[1].messages(of: UpsertStroke.self)
        let carol = try group.messengers[2].messages(of: UpsertStroke.self)
        try await group.messengers[0].send(stroke, to: .only([group.ids[1]]))
        await group.settle()
        #expect(await collect(bob).map(\.message) == [stroke])
        #expect(await collect(carol).isEmpty)
    }

    @Test("A custom Codable type and raw bytes travel like generated messages")
    func codableAndRaw() async throws {
        let group = try await Group.make(count: 2)
        let cursors = try group.messengers[1].messages(of: Cursor.self)
        let raw = try group.messengers[1].rawMessages(typeID: 901)
        let cursor = Cursor(x: 0.5, y: 1e9, label: String(repeating: "ab", count: 2_000))
        try await group.messengers[0].send(cursor)
        try await group.messengers[0].send([0xDE, 0xAD, 0xBE, 0xEF], typeID: 901)
        await group.settle()
        let gotCursors = await collect(cursors)
        #expect(gotCursors.map(\.message) == [cursor])
        #expect(gotCursors.first?.context.wasCompressed == true, "4 KB of repeated text compresses")
        #expect(gotCursors.first?.context.typeID == 900)
        #expect(await collect(raw).map(\.message) == [[0xDE, 0xAD, 0xBE, 0xEF]])
    }

    @Test("Two types with one type id are refused with duplicateTypeID, by the registry and the messenger")
    func duplicateTypeIDs() async throws {
        #expect { _ = try MessageRegistry([UpsertStroke.self, Impostor.self]) } throws: { error in
            (error as? WireError)?.kind == .duplicateTypeID
        }
        let group = try await Group.make(count: 2)
        _ = try group.messengers[0].messages(of: UpsertStroke.self)
        #expect { _ = try group.messengers[0].messages(of: Impostor.self) } throws: { error in
            (error as? WireError)?.kind == .duplicateTypeID
        }
        await #expect { try await group.messengers[0].send(Impostor(note: "x")) } throws: { error in
            (error as? WireError)?.kind == .duplicateTypeID
        }
        await #expect { try await group.messengers[0].send([1], typeID: 1) } throws: { error in
            (error as? WireError)?.kind == .duplicateTypeID
        }
        #expect { _ = try group.messengers[1].rawMessages(typeID: 0) } throws: { error in
            (error as? WireError)?.kind == .invalidTypeID
        }
        await group.settle()
    }

    @Test("Without a codec everything still works, uncompressed, and compressed messages are rejected")
    func withoutCodec() async throws {
        let plain = try await Group.make(count: 2, codec: false)
        let snapshot = largeSnapshot(strokes: 30)
        let received = try plain.messengers[1].messages(of: CanvasSnapshot.self)
        try await plain.messengers[0].send(snapshot)
        #expect(plain.messengers[0].defaultProfile.compression == nil)
        await plain.settle()
        let got = await collect(received)
        #expect(got.map(\.message) == [snapshot])
        #expect(got.first?.context.wasCompressed == false)

        // A zstd sender and a receiver without a codec.
        let hub = InProcessHub(clock: VirtualClock())
        let sender = Messenger(transport: try await hub.join(.numbered(1)), configuration: .init(codec: try PayloadCompressor()))
        let receiver = Messenger(transport: try await hub.join(.numbered(2)))
        let snapshots = try receiver.messages(of: CanvasSnapshot.self)
        try await sender.send(snapshot)
        await hub.runUntilIdle()
        await hub.close()
        #expect(await collect(snapshots).isEmpty)
        #expect(receiver.statistics.rejected == 1)
        #expect(receiver.statistics.lastRejection?.kind == .unknownCodec)
    }

    @Test("A group send encodes once per distinct recipient profile")
    func oncePerProfile() async throws {
        let bob = ParticipantID.numbered(2), carol = ParticipantID.numbered(3), dave = ParticipantID.numbered(4)
        let transport = RecordingTransport(local: .numbered(1), reachable: [bob, carol, dave])
        let messenger = Messenger(transport: transport, configuration: .init(codec: try PayloadCompressor()))
        try await eventually("the messenger to see the change") { messenger.reachableParticipants == [bob, carol, dave] }
        let cursor = Cursor(x: 1, y: 2, label: String(repeating: "stroke ", count: 400))

        try await messenger.send(cursor)
        #expect(transport.sent.count == 1, "one profile: one encoding, fanned out by the transport")
        #expect(transport.sent.first?.recipients == .all)

        var plainProfile = messenger.defaultProfile
        plainProfile.compression = nil
        try messenger.setProfile(plainProfile, for: carol)
        try await messenger.send(cursor)
        let second = Array(transport.sent.dropFirst())
        #expect(second.count == 2)
        let byRecipients = Dictionary(uniqueKeysWithValues: second.map { ($0.recipients, try? FrameDecoder().decode($0.bytes)) })
        #expect(byRecipients[.only([bob, dave])]??.compression != nil)
        #expect(byRecipients[.only([carol])]??.compression == nil)
        transport.close()
    }

    @Test func aNegotiatingMessengerLeavesProfilesToNegotiation() async throws {
        let bob = ParticipantID.numbered(2)
        let transport = RecordingTransport(local: .numbered(1), reachable: [bob])
        let messenger = Messenger(
            transport: transport,
            configuration: .init(codec: try PayloadCompressor(), negotiation: NegotiationSettings(schema: nil)))
        var plainProfile = messenger.defaultProfile
        plainProfile.compression = nil
        let error = #expect(throws: WireError.self) { try messenger.setProfile(plainProfile, for: bob) }
        #expect(error?.kind == .invalidValue)
        #expect(error?.context.contains("negotiates") == true)
        transport.close()
    }

    @Test("A message over the recipient's size limit fails before anything is sent")
    func tooLarge() async throws {
        let bob = ParticipantID.numbered(2)
        let transport = RecordingTransport(local: .numbered(1), reachable: [bob])
        let messenger = Messenger(transport: transport, configuration: .init(limits: Limits(maxMessageSize: 1_000)))
        try await eventually("the messenger to see the change") { messenger.reachableParticipants == [bob] }
        await #expect { try await messenger.send(Cursor(x: 0, y: 0, label: String(repeating: "x", count: 2_000))) } throws: {
            error in
            (error as? WireError)?.kind == .messageTooLarge
        }
        #expect(transport.sent.isEmpty)
        transport.close()
    }

    @Test("Garbage from a peer is rejected and counted; good messages still arrive")
    func garbageFromAPeer() async throws {
        let hub = InProcessHub(clock: VirtualClock())
        let alice = Messenger(transport: try await hub.join(.numbered(1)))
        let mallory = try await hub.join(.numbered(66))
        let bob = Messenger(transport: try await hub.join(.numbered(2)))
        let strokes = try bob.messages(of: UpsertStroke.self)
        var corrupted = try stroke.wireFrame()
        corrupted[corrupted.count - 1] ^= 0xFF
        try await mallory.send([0x00, 0x01, 0x02], to: .all)
        try await mallory.send(corrupted, to: .all)
        try await mallory.send(Array(try stroke.wireFrame().dropLast(3)), to: .all)
        // A valid frame whose payload is not an UpsertStroke.
        try await mallory.send(try FrameEncoder().encode(Frame(typeID: 1, body: [0x0F])), to: .all)
        try await alice.send(stroke)
        await hub.runUntilIdle()
        await hub.close()
        let got = await collect(strokes)
        #expect(got.map(\.message) == [stroke])
        #expect(got.map(\.context.source) == [.numbered(1)])
        #expect(bob.statistics.rejected == 4)
        #expect(bob.statistics.framesReceived == 5)
        #expect(bob.statistics.messagesDelivered == 1)
    }

    @Test("Membership follows the transport: joins and leaves")
    func membership() async throws {
        let hub = InProcessHub(clock: VirtualClock())
        let alice = Messenger(transport: try await hub.join(.numbered(1)))
        _ = try await hub.join(.numbered(2))
        _ = try await hub.join(.numbered(3))
        try await eventually("the messenger to see the change") { alice.reachableParticipants == [.numbered(2), .numbered(3)] }
        await hub.leave(.numbered(2))
        try await eventually("the messenger to see the change") { alice.reachableParticipants == [.numbered(3)] }
        #expect(alice.reachableParticipants == [.numbered(3)])
        await hub.close()
    }

    @Test("The generated message set lets one loop switch over every message of a spec")
    func messageSet() async throws {
        let group = try await Group.make(count: 2)
        let all = try group.messengers[1].messages(of: DrawTogetherMessage.self)
        try await group.messengers[0].send(stroke)
        try await group.messengers[0].send(CanvasSnapshot(strokes: [], pointCount: 0))
        await group.settle()
        var seen: [String] = []
        for (message, _) in await collect(all) {
            switch message {
            case .upsertStroke(let value): seen.append("stroke \(value.point.x)")
            case .canvasSnapshot(let value): seen.append("snapshot \(value.pointCount)")
            }
        }
        #expect(seen == ["stroke 12.5", "snapshot 0"])
    }
}
