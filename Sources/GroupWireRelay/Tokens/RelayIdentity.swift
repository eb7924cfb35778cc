import Foundation
import GroupWire

/// How the relay names participants (Spec/RELAY.md, "Participants"): the id of identity
/// `identity` in room `room` is the first 16 bytes of
/// `SHA-256("groupwire.participant" 0x00 room 0x00 identity)`, marked as an RFC 9562
/// version 8 UUID. The same identity always has the same id in a room, so a client that
/// reconnects takes its old place; another room gives it another id.
public enum RelayIdentity {
    /// The participant id of `identity` in `room`.
    public static func participantID(room: String, identity: String) -> UUID {
        var digest = SHA256.digest(Array("groupwire.participant".utf8) + [0] + Array(room.utf8) + [0] + Array(identity.utf8))
        digest[6] = digest[6] & 0x0F | 0x80  // version 8
        digest[8] = digest[8] & 0x3F | 0x80  // variant 10
        let b = digest
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
