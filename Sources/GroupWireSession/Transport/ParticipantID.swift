import Foundation

/// The stable identity of one participant (one device) in a group session.
public struct ParticipantID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The UUID's 16 bytes as two words, in memory order. Not the `UUID` itself: Foundation's
    /// `UUID` is a resilient type, so every struct, tuple and optional holding one has no
    /// fixed layout, and each copy, comparison and hash of it (one or more per message on
    /// the hub, per frame in the validator) went through the runtime's generic value witnesses.
    @usableFromInline let head: UInt64
    @usableFromInline let tail: UInt64

    /// The participant's UUID, stable for the session.
    public var uuid: UUID {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { bytes in
            bytes.storeBytes(of: head, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: tail, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: raw)
    }

    /// Creates an identity; a new random one by default.
    public init(uuid: UUID = UUID()) {
        (head, tail) = withUnsafeBytes(of: uuid.uuid) { bytes in
            (bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }

    /// The identity whose UUID is the 16 bytes at `offset` of `bytes` (a capture's
    /// pseudo-header), read in place.
    @inlinable package init(_ bytes: [UInt8], at offset: Int) {
        precondition(offset >= 0 && offset + 16 <= bytes.count, "a participant's 16 bytes lie past the buffer")
        (head, tail) = bytes.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            )
        }
    }

    /// The all-zero UUID: what a capture writes for no participant.
    package static let zero = ParticipantID(uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))

    /// Whether the UUID is all zeros.
    @inlinable package var isZero: Bool { head == 0 && tail == 0 }

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
