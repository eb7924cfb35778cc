import Foundation

/// The stable identity of one participant (one device) in a group session.
public struct ParticipantID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The participant's UUID, stable for the session.
    public let uuid: UUID

    /// Creates an identity; a new random one by default.
    public init(uuid: UUID = UUID()) {
        self.uuid = uuid
    }

    /// A deterministic identity for tests and simulations: participant number `number`.
    public static func numbered(_ number: UInt64) -> ParticipantID {
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes[6] = 0x40  // version 4 layout, so the value is a well-formed UUID
        bytes[8] = 0x80
        for shift in 0..<8 {
            bytes[15 - shift] = UInt8(truncatingIfNeeded: number >> (8 * UInt64(shift)))
        }
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return ParticipantID(uuid: uuid)
    }

    /// Orders identities by their UUID text, so sets of participants print in a stable order.
    public static func < (lhs: ParticipantID, rhs: ParticipantID) -> Bool {
        lhs.uuid.uuidString < rhs.uuid.uuidString
    }

    /// The UUID, in its usual text form.
    public var description: String { uuid.uuidString }
}
