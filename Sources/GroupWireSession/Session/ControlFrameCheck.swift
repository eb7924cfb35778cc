import GroupWire

/// What `groupwire validate` needs from the session and delivery layers: whether a control
/// body of theirs is well formed, and what it says, without running the layers.
package enum ControlFrameCheck {
    /// Reads the body of a session control message (control ids 1–5) or an
    /// acknowledgement (32).
    /// - Returns: a short description (`join session 7`, `ack of stream 11 through 300`),
    ///   nil for a control id neither layer defines.
    /// - Throws: `WireError` for a malformed body, as the layers would reject it.
    package static func describe(controlID: UInt64, payload: [UInt8], limits: Limits = .default) throws(WireError) -> String? {
        if controlID == DeliveryAck.controlID {
            let ack = try DeliveryAck(payload, limits: limits)
            return "ack of stream \(ack.stream) through \(ack.through)"
        }
        guard let control = try SessionControl.decode(controlID: controlID, payload: payload, limits: limits) else { return nil }
        switch control {
        case .activate(let announcement): return "activate session \(announcement.session)"
        case .join(let session): return "join session \(session)"
        case .leave(let session): return "leave session \(session)"
        case .replace(let announcement): return "replace the activity of session \(announcement.session)"
        case .end(let session, _): return "end session \(session)"
        }
    }
}
