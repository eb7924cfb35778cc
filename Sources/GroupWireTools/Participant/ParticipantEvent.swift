import Foundation

/// One line of `groupwire participant`'s output: a JSON object saying what happened, for the
/// program that drives it (`groupwire demo`, tests, scripts).
package struct ParticipantEvent: Codable, Sendable, Equatable {
    /// What happened.
    package enum Kind: String, Codable, Sendable {
        /// Connected: `participant` is this participant's id, `identity` its name, `version` its spec version.
        case welcome
        /// Negotiation agreed with `participant` on envelope `version`; `detail` names the compression.
        case agreed
        /// `participant` cannot talk with this one; `detail` says why.
        case incompatible
        /// In the session: `count` participants are active (this one included).
        case session
        /// `participant` joined the session.
        case joined
        /// `participant` left the session (or its connection ended).
        case left
        /// Stroke number `index` arrived from `participant`.
        case stroke
        /// A snapshot of `points` points from `participant` replaced the canvas, `milliseconds`
        /// after this participant joined the session; `compressed` says how it travelled.
        case snapshot
        /// A draw command finished: `count` strokes sent so far.
        case sent
        /// What this participant sent: `statistics`.
        case statistics
        /// Something failed: `detail`.
        case error
    }

    /// What happened.
    package var event: Kind
    /// The participant it concerns (a UUID).
    package var participant: String?
    /// A participant's identity (in `welcome`).
    package var identity: String?
    /// A stroke number.
    package var index: Int?
    /// A count: participants or strokes.
    package var count: Int?
    /// A snapshot's point count.
    package var points: UInt64?
    /// Whether a message travelled compressed.
    package var compressed: Bool?
    /// A time in milliseconds.
    package var milliseconds: Double?
    /// A spec or envelope version.
    package var version: UInt64?
    /// Free text: an agreement's compression, a failure.
    package var detail: String?
    /// What was sent (in `statistics`).
    package var statistics: ParticipantStatistics?

    /// An event of `kind`; set the fields it uses.
    package init(_ kind: Kind) {
        event = kind
    }

    /// The event as one JSON line.
    package var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A struct of strings and numbers always encodes.
        let data = (try? encoder.encode(self)) ?? Data("{\"event\":\"error\"}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a line that ``line`` wrote, nil for anything else.
    package init?(line: some StringProtocol) {
        guard let value = try? JSONDecoder().decode(ParticipantEvent.self, from: Data(line.utf8)) else { return nil }
        self = value
    }
}

/// What a participant put on the wire, counted frame by frame as it went to the relay.
package struct ParticipantStatistics: Codable, Sendable, Equatable {
    /// App messages sent (strokes and snapshots; one per `send` per distinct recipient profile).
    package var messages = 0
    /// Their frames: one per whole message, one per fragment.
    package var frames = 0
    /// The bytes of those frames.
    package var frameBytes = 0
    /// Frames that are fragments of a larger message.
    package var fragments = 0
    /// Messages sent in fragments.
    package var fragmentedMessages = 0
    /// Compressed messages: their payloads' size before compression.
    package var compressedPayloadBytes = 0
    /// Compressed messages: their bodies' size on the wire.
    package var compressedBodyBytes = 0
    /// Control frames: hellos and session control.
    package var controlFrames = 0
    /// Their bytes.
    package var controlBytes = 0
    /// What the same app messages cost as JSON (Foundation's `JSONEncoder` on the generated
    /// `Codable` types), counted once per send.
    package var jsonBytes = 0
    /// Everything written to the relay: routing headers and frames.
    package var relayBytesSent = 0
    /// Everything the relay sent this participant.
    package var relayBytesReceived = 0

    /// Nothing sent yet.
    package init() {}

    /// The sum of two participants' statistics.
    package static func + (lhs: Self, rhs: Self) -> Self {
        var sum = lhs
        sum.messages += rhs.messages
        sum.frames += rhs.frames
        sum.frameBytes += rhs.frameBytes
        sum.fragments += rhs.fragments
        sum.fragmentedMessages += rhs.fragmentedMessages
        sum.compressedPayloadBytes += rhs.compressedPayloadBytes
        sum.compressedBodyBytes += rhs.compressedBodyBytes
        sum.controlFrames += rhs.controlFrames
        sum.controlBytes += rhs.controlBytes
        sum.jsonBytes += rhs.jsonBytes
        sum.relayBytesSent += rhs.relayBytesSent
        sum.relayBytesReceived += rhs.relayBytesReceived
        return sum
    }
}
