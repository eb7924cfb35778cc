import Foundation
import GroupWire
import GroupWireRelay
import GroupWireTestSupport
import Testing

/// Replays Spec/vectors/relay (written by Spec/vectors/generate_relay.py from RELAY.md
/// alone): messages decode to their fields and encode back to the same bytes, or fail with
/// their error kind at their offset; tokens verify to their claims or fail with their kind;
/// participant ids are derived as the document says.
@Suite struct RelayVectorTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        struct Member: Decodable {
            let id: String
            let identity: String
        }
        struct Message: Decodable {
            let type: String
            let recipients: [String]?
            let frame: String?
            let source: String?
            let you: Member?
            let room: String?
            let maxFrameSize: Int?
            let members: [Member]?
            let member: Member?
            let id: String?
            let reason: String?
            let code: UInt64?
            let text: String?
        }
        struct Failure: Decodable {
            let kind: String
            let offset: Int?
        }
        struct Claims: Decodable {
            let room: String
            let identity: String
            let expiresAt: Int64
            let notBefore: Int64?
            let issuedAt: Int64?
        }
        let name: String
        let kind: String
        let hex: String?
        let message: Message?
        let error: Failure?
        let secret: String?
        let now: Int64?
        let leeway: Int64?
        let token: String?
        let claims: Claims?
        let room: String?
        let identity: String?
        let id: String?

        var testDescription: String { name }
    }

    /// Every relay vector; throws at a vector file that does not decode.
    static func vectors() throws -> [Vector] {
        try Vectors.loadAll(Vector.self, under: "Spec/vectors/relay")
    }

    static func uuid(_ text: String) throws -> UUID { try #require(UUID(uuidString: text)) }

    static func member(_ member: Vector.Member) throws -> RelayMember {
        RelayMember(id: try uuid(member.id), identity: member.identity)
    }

    /// The message a vector's fields describe.
    static func expected(_ fields: Vector.Message) throws -> RelayMessage {
        switch fields.type {
        case "send":
            return .send(to: try fields.recipients.map { try $0.map(uuid) }, frame: try Hex.bytes(try #require(fields.frame)))
        case "deliver":
            return .deliver(from: try uuid(try #require(fields.source)), frame: try Hex.bytes(try #require(fields.frame)))
        case "welcome":
            return .welcome(
                RelayWelcome(
                    you: try member(try #require(fields.you)), room: try #require(fields.room),
                    maxFrameSize: try #require(fields.maxFrameSize), members: try (fields.members ?? []).map(member)))
        case "joined": return .joined(try member(try #require(fields.member)))
        case "left":
            let reason = try #require(fields.reason)
            let all: [RelayLeaveReason] = [.closed, .lost, .tooSlow, .violation, .replaced, .shutdown]
            return .left(try uuid(try #require(fields.id)), reason: try #require(all.first { $0.description == reason }))
        case "error": return .error(RelayError(RelayErrorCode(rawValue: try #require(fields.code)), try #require(fields.text)))
        default: throw RelayVectorError(description: "unknown message type \(fields.type)")
        }
    }

    struct RelayVectorError: Error, CustomStringConvertible {
        let description: String
    }

    @Test func theVectorsAreThere() throws {
        let vectors = try Self.vectors()
        #expect(vectors.filter { $0.kind == "message" }.count >= 25)
        #expect(vectors.filter { $0.kind == "token" }.count >= 15)
        #expect(vectors.filter { $0.kind == "participant" }.count == 4)
    }

    @Test(arguments: try vectors().filter { $0.kind == "message" })
    func eachMessageDecodesToItsFieldsAndEncodesToItsBytesOrFailsWhereItSays(_ vector: Vector) throws {
        let data = try Hex.bytes(try #require(vector.hex))
        if let failure = vector.error {
            do {
                _ = try RelayMessage(decoding: data)
                Issue.record("\(vector.name) decoded")
            } catch {
                #expect(error.kind.name == failure.kind && error.offset == failure.offset, "\(error)")
            }
            return
        }
        let expected = try Self.expected(try #require(vector.message))
        #expect(try RelayMessage(decoding: data) == expected)
        #expect(expected.encoded() == data)
        if case .send(let recipients, _) = expected {
            let header = try RelaySendHeader(decoding: data)
            #expect(header.recipients == recipients && header.length == RelaySendHeader(recipients: recipients).length)
        }
    }

    @Test(arguments: try vectors().filter { $0.kind == "token" })
    func eachTokenVerifiesToItsClaimsOrIsRefusedWithItsKind(_ vector: Vector) throws {
        let secret = try Hex.bytes(try #require(vector.secret))
        let token = try #require(vector.token)
        let now = try #require(vector.now)
        let leeway = vector.leeway ?? 0
        if let failure = vector.error {
            do {
                _ = try AccessToken(verifying: token, secret: secret, now: now, leeway: leeway)
                Issue.record("\(vector.name) was accepted")
            } catch {
                #expect(error.kind.name == failure.kind, "\(error)")
            }
            return
        }
        let claims = try #require(vector.claims)
        let verified = try AccessToken(verifying: token, secret: secret, now: now, leeway: leeway)
        #expect(
            verified
                == AccessToken(
                    room: claims.room, identity: claims.identity, expiresAt: claims.expiresAt,
                    notBefore: claims.notBefore, issuedAt: claims.issuedAt))
    }

    @Test(arguments: try vectors().filter { $0.kind == "participant" })
    func eachParticipantIDIsDerivedFromRoomAndIdentity(_ vector: Vector) throws {
        let id = RelayIdentity.participantID(room: try #require(vector.room), identity: try #require(vector.identity))
        #expect(id.uuidString == vector.id)
    }
}
