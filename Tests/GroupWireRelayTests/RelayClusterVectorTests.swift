import Foundation
import GroupWire
import GroupWireJSON
import GroupWireRelay
import GroupWireTestSupport
import Testing

/// Replays Spec/vectors/cluster (written by Spec/vectors/generate_cluster.py from RELAY.md
/// "Clustering" alone): every message nodes exchange through NATS decodes to its fields
/// and encodes back to the same bytes, or fails with its error kind at its offset.
@Suite struct RelayClusterVectorTests {
    struct VectorError: Error, CustomStringConvertible {
        let description: String
    }

    /// Every cluster vector: its file name and its JSON.
    static func vectors() throws -> [URL] {
        try Vectors.files(under: "Spec/vectors/cluster")
    }

    static func field(_ object: JSONValue, _ key: String) throws -> JSONValue {
        guard let value = object[key] else { throw VectorError(description: "no \(key) in \(object)") }
        return value
    }

    static func string(_ object: JSONValue, _ key: String) throws -> String {
        guard let text = try field(object, key).stringValue else { throw VectorError(description: "\(key) is not text") }
        return text
    }

    static func integer(_ object: JSONValue, _ key: String) throws -> UInt64 {
        switch try field(object, key) {
        case .number(let number): if let value = number.uint64 { return value }
        case .string(let text): if let value = UInt64(text) { return value }
        default: break
        }
        throw VectorError(description: "\(key) is not a whole number")
    }

    static func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw VectorError(description: "\(text) is not an id") }
        return id
    }

    static func member(_ value: JSONValue) throws -> RelayMember {
        RelayMember(id: try uuid(try string(value, "id")), identity: try string(value, "identity"))
    }

    static func holder(_ value: JSONValue) throws -> RelayClusterHolder {
        RelayClusterHolder(node: try string(value, "node"), connection: try integer(value, "connection"))
    }

    static func recipients(_ value: JSONValue) throws -> [UUID]? {
        guard let list = try field(value, "recipients").arrayValue else { return nil }
        return try list.map { try uuid($0.stringValue ?? "") }
    }

    static func reason(_ name: String) throws -> RelayLeaveReason {
        let all: [RelayLeaveReason] = [.closed, .lost, .tooSlow, .violation, .replaced, .shutdown]
        guard let reason = all.first(where: { $0.description == name }) else { throw VectorError(description: "reason \(name)") }
        return reason
    }

    static func entry(_ name: String) throws -> RelayClusterEntry {
        guard let entry = [RelayClusterEntry.joined, .resumed, .replaced].first(where: { $0.description == name }) else {
            throw VectorError(description: "entry \(name)")
        }
        return entry
    }

    /// The message a vector's fields describe.
    static func expected(_ fields: JSONValue) throws -> RelayClusterMessage {
        switch try string(fields, "type") {
        case "heartbeat":
            return .heartbeat(node: try string(fields, "node"), incarnation: try integer(fields, "incarnation"))
        case "forward":
            return .forward(
                room: try string(fields, "room"), source: try uuid(try string(fields, "source")),
                recipients: try recipients(fields), frame: try Hex.bytes(try string(fields, "frame")))
        case "join":
            return .join(
                room: try string(fields, "room"), member: try member(try field(fields, "member")),
                holder: try holder(try field(fields, "holder")))
        case "leave":
            return .leave(
                room: try string(fields, "room"), member: try uuid(try string(fields, "member")),
                holder: try holder(try field(fields, "holder")), reason: try reason(try string(fields, "reason")))
        case "holdings":
            let members = try (try field(fields, "members").arrayValue ?? []).map {
                RelayClusterHolding(member: try member($0), connection: try integer($0, "connection"))
            }
            return .holdings(
                room: try string(fields, "room"), node: try string(fields, "node"), members: members,
                known: try (try field(fields, "known").arrayValue ?? []).map(member))
        case "event":
            let stamp = RelayClusterStamp(
                owner: try string(fields, "owner"), incarnation: try integer(fields, "incarnation"),
                sequence: try integer(fields, "sequence"))
            let event = try field(fields, "event")
            let body: RelayClusterEvent
            switch try string(event, "kind") {
            case "deliver":
                body = .deliver(recipients: try recipients(event), deliver: try Hex.bytes(try string(event, "deliver")))
            case "entered":
                body = .entered(
                    member: try member(try field(event, "member")), holder: try holder(try field(event, "holder")),
                    entry: try entry(try string(event, "entry")),
                    members: try (try field(event, "members").arrayValue ?? []).map(member))
            case "replaced":
                body = .replaced(member: try uuid(try string(event, "member")), holder: try holder(try field(event, "holder")))
            case "left":
                body = .left(member: try uuid(try string(event, "member")), reason: try reason(try string(event, "reason")))
            case let kind:
                throw VectorError(description: "event kind \(kind)")
            }
            return .event(room: try string(fields, "room"), stamp: stamp, body)
        case let type:
            throw VectorError(description: "message type \(type)")
        }
    }

    @Test func theVectorsAreThere() throws {
        #expect(try Self.vectors().count >= 30)
    }

    @Test(arguments: try vectors())
    func eachClusterMessageDecodesToItsFieldsAndEncodesToItsBytesOrFailsWhereItSays(_ url: URL) throws {
        let vector = try JSONParser().parse(Array(try Data(contentsOf: url)))
        let bytes = try Hex.bytes(try Self.string(vector, "hex"))
        if let failure = vector["error"] {
            let (kind, offset) = (try Self.string(failure, "kind"), try Self.integer(failure, "offset"))
            do {
                let decoded = try RelayClusterMessage(decoding: bytes)
                Issue.record("\(url.lastPathComponent) decoded as \(decoded)")
            } catch {
                #expect(error.kind.name == kind && error.offset.map(UInt64.init) == offset, "\(url.lastPathComponent): \(error)")
            }
            return
        }
        let expected = try Self.expected(try Self.field(vector, "message"))
        #expect(try RelayClusterMessage(decoding: bytes) == expected, "\(url.lastPathComponent)")
        #expect(expected.encoded() == bytes, "\(url.lastPathComponent)")
    }
}
