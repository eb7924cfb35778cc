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

    /// The relay reads a send's header from the message's first bytes only (the frame is
    /// never copied out): for every send vector, that read agrees with the whole message's,
    /// header or error, kind and offset.
    @Test(arguments: try vectors().filter { $0.kind == "message" })
    func aSendsHeaderReadFromItsFirstBytesAgreesWithTheWholeMessage(_ vector: Vector) throws {
        let data = try Hex.bytes(try #require(vector.hex))
        guard let type = data.first, type == 0x01 || type == 0x03 else { return }
        let prefix = Array(data.prefix(RelaySendHeader.prefixLength(type: type, messageLength: data.count)))
        let whole = Result { () throws(WireError) in try RelaySendHeader(decoding: data) }
        let fromPrefix = Result { () throws(WireError) in
            try RelaySendHeader(decodingPrefix: prefix, messageLength: data.count)
        }
        switch (whole, fromPrefix) {
        case (.success(let a), .success(let b)):
            #expect(a == b)
        case (.failure(let a), .failure(let b)):
            #expect(a.kind == b.kind && a.offset == b.offset, "\(a) / \(b)")
        default:
            Issue.record("\(vector.name): \(whole) from the message, \(fromPrefix) from its first \(prefix.count) bytes")
        }
    }

    /// A send to a list reads no further than its longest header; a send to everyone, one byte.
    @Test func aSendsPrefixIsItsLongestHeaderAtMost() throws {
        let limits = RelayLimits(maxFrameSize: 1_000, maxRecipients: 3)
        #expect(RelaySendHeader.prefixLength(type: 0x01, messageLength: 900, limits: limits) == 1)
        #expect(RelaySendHeader.prefixLength(type: 0x03, messageLength: 900, limits: limits) == 1 + 1 + 48)
        #expect(RelaySendHeader.prefixLength(type: 0x03, messageLength: 20, limits: limits) == 20)
        var message: [UInt8] = [0x03, 2]
        for byte: UInt8 in [0xAA, 0xBB] { message += [UInt8](repeating: byte, count: 16) }
        message += [UInt8](repeating: 7, count: 900)
        let header = try RelaySendHeader(
            decodingPrefix: Array(message.prefix(50)), messageLength: message.count, limits: limits)
        #expect(header.length == 34 && header.recipients?.count == 2)
        #expect(throws: WireError.self) {
            try RelaySendHeader(
                decodingPrefix: Array(message.prefix(50)), messageLength: 34 + 1_001, limits: limits)
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
