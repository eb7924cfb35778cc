import GroupWire

/// What the hand-written checks of control bodies share. The bodies themselves are
/// generated from Spec/Control.gwspec (GroupWireNegotiation/Generated/Control.gwspec.swift); the language
/// cannot say which fields are required or what range a value must be in, so SessionControl
/// and DeliveryAck check that after decoding, and report a bad value at the offset a reader
/// of Spec/FORMAT.md expects: where the value begins.
enum ControlBody {
    /// The offset of the value of the last field `number` in `payload`, a body that has
    /// already decoded under `limits`: a varint's first byte, a length-delimited value's
    /// length. The last, because a field given twice takes its last value. The end of the
    /// body when the field is absent.
    static func valueOffset(ofField number: UInt64, in payload: [UInt8], limits: Limits) -> Int {
        var reader = PayloadReader(payload, limits: limits)
        var offset = payload.count
        do {
            while let key = try reader.nextKey() {
                if key.number == number { offset = reader.reader.position }
                try reader.skip(key)
            }
        } catch {
            // Unreachable for a body that decoded; the end of the body is the answer then.
        }
        return offset
    }

    /// A session id: present (else `missingField` at the end of the body) and valid (see
    /// ``checkSession(_:in:limits:)``).
    static func session(_ value: UInt32?, in payload: [UInt8], limits: Limits, _ what: String) throws(WireError) -> UInt32 {
        guard let value else {
            throw WireError(.missingField, offset: payload.count, "\(what) names no session (field 1)")
        }
        try checkSession(value, in: payload, limits: limits)
        return value
    }

    /// A session id, when there is one, is not 0 (`invalidValue` at its varint); above
    /// 2^32-1 the generated decoder has already refused it the same way.
    static func checkSession(_ value: UInt32?, in payload: [UInt8], limits: Limits) throws(WireError) {
        guard value != 0 else {
            throw WireError(
                .invalidValue, offset: valueOffset(ofField: 1, in: payload, limits: limits),
                "session id 0 is outside 1...\(UInt32.max)")
        }
    }
}
