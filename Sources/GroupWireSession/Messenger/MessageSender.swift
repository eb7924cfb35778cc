import GroupWire

/// Encodes messages for their recipients and hands the frames to the transport: what the
/// messenger's own sends, its control messages and negotiation's held messages share.
struct MessageSender: Sendable {
    let pipeline: SendPipeline
    let transport: any Transport
    let planner: SendPlanner
    let counters: MessengerCounters

    /// `profile` with its frame size capped at what the transport carries in one message.
    func transportProfile(_ profile: PeerProfile) -> PeerProfile {
        Self.profile(profile, cappedFor: transport)
    }

    /// `profile` with its frame size capped at what `transport` carries in one message.
    static func profile(_ profile: PeerProfile, cappedFor transport: any Transport) -> PeerProfile {
        var profile = profile
        profile.maxFrameSize = min(profile.maxFrameSize, transport.guarantees.maxMessageSize)
        return profile
    }

    /// Encodes once per distinct profile among the recipients and hands the frames over.
    func send(
        kind: FrameKind, typeID: UInt64, payload: [UInt8], messageID: UInt64,
        groups: [(profile: PeerProfile, recipients: Recipients)], session: UInt32?, mode: DeliveryMode
    ) async throws(WireError) {
        var encoded: [(frames: [[UInt8]], recipients: Recipients)] = []
        for group in groups {
            let frames = try pipeline.frames(
                kind: kind, typeID: typeID, payload: payload, messageID: messageID,
                profile: transportProfile(group.profile), session: session)
            encoded.append((frames, group.recipients))
        }
        for (frames, target) in encoded {
            try await transport.send(frames, to: target, mode: mode)
        }
        counters.countSent(frames: encoded.reduce(0) { $0 + $1.frames.count })
    }

    /// Sends a generated message planned for `groups`; the common case (one profile for
    /// everybody and a message that fits one frame) is written straight into its frame, with
    /// no payload buffer and no list of frames.
    func send<Message: MessageCodable>(
        _ message: Message, messageID: UInt64, groups: [(profile: PeerProfile, recipients: Recipients)], session: UInt32?,
        mode: DeliveryMode
    ) async throws(WireError) {
        if groups.count == 1,
            let frame = try pipeline.frame(message: message, profile: transportProfile(groups[0].profile), session: session)
        {
            if mode == .reliable {
                try await transport.send(frame, to: groups[0].recipients)
            } else {
                try await transport.send([frame], to: groups[0].recipients, mode: mode)
            }
            counters.countSent(frames: 1)
            return
        }
        try await send(
            kind: .data, typeID: Message.wireTypeID, payload: try message.messagePayload(), messageID: messageID,
            groups: groups, session: session, mode: mode)
    }

    /// Sends a control message; control always travels reliably (Spec/FORMAT.md, "Delivery").
    func sendControl(_ controlID: UInt64, payload: [UInt8], to recipients: Recipients) async throws(WireError) {
        let (messageID, groups) = planner.plan(recipients)
        try await send(
            kind: .control, typeID: controlID, payload: payload, messageID: messageID, groups: groups,
            session: nil, mode: .reliable)
    }
}
