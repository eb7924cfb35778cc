import Foundation
import GroupWire
import GroupWireNegotiation
import GroupWireTestSupport
import Testing

@testable import GroupWireSession

/// Replays Spec/vectors/session (written by Spec/vectors/generate_session.py from FORMAT.md
/// alone): each body decodes to its message and encodes back to the same bytes, or fails
/// with its error kind at its offset.
@Suite struct SessionControlVectorTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        struct Message: Decodable {
            let kind: String
            let session: UInt32
            let clock: UInt64?
            let activator: String?
            let activityIdentifier: String?
            let title: String?
            let subtitle: String?
            let type: String?
            let fallbackURL: String?
            let activity: String?
            let activityClock: UInt64?
            let activitySetBy: String?
        }

        struct Failure: Decodable {
            let kind: String
            let offset: Int
        }

        let name: String
        let controlID: UInt64
        let hex: String
        let message: Message?
        let error: Failure?
        var testDescription: String { name }

        /// The message these fields describe.
        func expected() throws -> SessionControl {
            let fields = try #require(message)
            func uuid(_ hex: String?) throws -> ParticipantID {
                let bytes = try Hex.bytes(try #require(hex))
                try #require(bytes.count == 16)
                return ParticipantID(
                    uuid: UUID(
                        uuid: (
                            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                        )))
            }
            switch fields.kind {
            case "join": return .join(session: fields.session)
            case "leave": return .leave(session: fields.session)
            case "end": return .end(session: fields.session, clock: try #require(fields.clock))
            default:
                let announcement = SessionAnnouncement(
                    session: fields.session,
                    activated: SessionStamp(clock: try #require(fields.clock), participant: try uuid(fields.activator)),
                    activitySet: SessionStamp(
                        clock: try #require(fields.activityClock), participant: try uuid(fields.activitySetBy)),
                    activityIdentifier: try #require(fields.activityIdentifier),
                    metadata: SharedActivityMetadata(
                        title: try #require(fields.title), subtitle: fields.subtitle,
                        type: ActivityType(rawValue: try #require(fields.type)), fallbackURL: fields.fallbackURL),
                    activity: try Hex.bytes(try #require(fields.activity)))
                return fields.kind == "activate" ? .activate(announcement) : .replace(announcement)
            }
        }
    }

    /// Every session control vector; throws at a vector file that does not decode.
    static func vectors() throws -> [Vector] {
        try Vectors.loadAll(Vector.self, under: "Spec/vectors/session")
    }

    @Test func everyControlMessageAndErrorKindHasAVector() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count >= 12)
        #expect(Set(vectors.compactMap(\.message?.kind)) == ["activate", "join", "leave", "replace", "end"])
        #expect(Set(vectors.compactMap(\.error?.kind)) == ["invalidValue", "missingField", "typeMismatch"])
    }

    @Test(arguments: try vectors())
    func aVectorDecodesToItsMessageAndBackOrFailsWithItsKindAtItsOffset(vector: Vector) throws {
        let body = try Hex.bytes(vector.hex)
        guard let failure = vector.error else {
            let expected = try vector.expected()
            #expect(try SessionControl.decode(controlID: vector.controlID, payload: body) == expected)
            #expect(expected.controlID == vector.controlID)
            // Unknown fields are skipped, so only vectors without them re-encode byte for byte.
            if !vector.name.contains("unknown-field") {
                #expect(expected.payload() == body)
            }
            return
        }
        do {
            _ = try SessionControl.decode(controlID: vector.controlID, payload: body)
            Issue.record("\(vector.name) decoded")
        } catch {
            #expect(error.kind.name == failure.kind, "\(error)")
            #expect(error.offset == failure.offset, "\(error)")
        }
    }

    /// Spec/Control.gwspec's `ControlID` is the one registry: the session layer's ids come
    /// from it, and so does the hello.s.
    @Test func theControlIDsComeFromTheControlSpec() {
        #expect(
            [
                SessionControl.activateID, SessionControl.joinID, SessionControl.leaveID, SessionControl.replaceID,
                SessionControl.endID,
            ]
                == [1, 2, 3, 4, 5])
        #expect(DeliveryAck.controlID == 32)
        #expect(Hello.controlID == UInt64(ControlID.hello.rawValue))
    }

    /// A generated body keeps fields it does not know, but a control message is rebuilt from
    /// the fields it knows: an unknown field is skipped, and a session id given twice takes
    /// the last, whose varint is where a bad one is reported.
    @Test func unknownFieldsAreSkippedAndTheLastSessionIDCounts() throws {
        // join: 1 session = 7, 9 unknown = 1, 1 session = 9
        #expect(try SessionControl.decode(controlID: 2, payload: [0x08, 0x07, 0x48, 0x01, 0x08, 0x09]) == .join(session: 9))
        #expect(SessionControl.join(session: 9).payload() == [0x08, 0x09])
        // leave: 1 session = 7, then 1 session = 0 at offset 3
        let error = #expect(throws: WireError.self) {
            try SessionControl.decode(controlID: 3, payload: [0x08, 0x07, 0x08, 0x00])
        }
        #expect(error?.kind == .invalidValue && error?.offset == 3)
    }
}
