import GroupWire

/// One playback message as the coordinator reads it (its payload under its type id), for
/// the fuzz harness and the vector tests: what a peer can make a coordinator read.
package enum PlaybackInput: Equatable, Sendable {
    /// A timeline, nil when its values fail PLAYBACK.md's checks.
    case timeline(PlaybackTimeline?)
    case suspension(reason: String, active: Bool, sequence: UInt64)
    case clockRequest(sequence: UInt64, sentAt: Int64)
    case clockReply(sequence: UInt64, requestSentAt: Int64, receivedAt: Int64, sentAt: Int64)
    case stateRequest

    /// The type ids of the playback messages, in the order of Spec/Playback.gwspec.
    package static let typeIDs: [UInt64] = [
        PlaybackTimelineMessage.wireTypeID, PlaybackSuspensionMessage.wireTypeID, PlaybackClockRequest.wireTypeID,
        PlaybackClockReply.wireTypeID, PlaybackStateRequest.wireTypeID,
    ]

    /// Reads `payload` as the playback message with type id `typeID`.
    /// - Throws: the payload decoder's error; `unknownType` for a type id not in ``typeIDs``.
    package init(typeID: UInt64, payload: [UInt8]) throws(WireError) {
        switch typeID {
        case PlaybackTimelineMessage.wireTypeID:
            self = .timeline(PlaybackTimeline(try PlaybackTimelineMessage(wirePayload: payload)))
        case PlaybackSuspensionMessage.wireTypeID:
            let message = try PlaybackSuspensionMessage(wirePayload: payload)
            self = .suspension(reason: message.reason, active: message.active, sequence: message.sequence)
        case PlaybackClockRequest.wireTypeID:
            let message = try PlaybackClockRequest(wirePayload: payload)
            self = .clockRequest(sequence: message.sequence, sentAt: message.sentAt)
        case PlaybackClockReply.wireTypeID:
            let message = try PlaybackClockReply(wirePayload: payload)
            self = .clockReply(
                sequence: message.sequence, requestSentAt: message.requestSentAt, receivedAt: message.receivedAt,
                sentAt: message.sentAt)
        case PlaybackStateRequest.wireTypeID:
            _ = try PlaybackStateRequest(wirePayload: payload)
            self = .stateRequest
        default:
            throw WireError(.unknownType, "\(typeID) is not a playback message")
        }
    }

    /// The payload a writer sends for this input (a rejected timeline has none).
    package var payload: [UInt8]? {
        switch self {
        case .timeline(let timeline): timeline.map { PlaybackTimelineMessage($0).wirePayload() }
        case .suspension(let reason, let active, let sequence):
            PlaybackSuspensionMessage(reason: reason, active: active, sequence: sequence).wirePayload()
        case .clockRequest(let sequence, let sentAt): PlaybackClockRequest(sequence: sequence, sentAt: sentAt).wirePayload()
        case .clockReply(let sequence, let requestSentAt, let receivedAt, let sentAt):
            PlaybackClockReply(sequence: sequence, requestSentAt: requestSentAt, receivedAt: receivedAt, sentAt: sentAt)
                .wirePayload()
        case .stateRequest: PlaybackStateRequest().wirePayload()
        }
    }
}
