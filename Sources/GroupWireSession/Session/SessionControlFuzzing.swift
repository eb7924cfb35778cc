import GroupWire

/// For the `FuzzSessionControl` fuzz target and its corpus replay test (GroupWireFuzzChecks):
/// not API for apps.
package enum SessionControlFuzzing {
    /// Runs arbitrary control messages through the decoder and one participant's session
    /// engine, and returns every invariant broken (empty: none).
    ///
    /// Input: records of `length u8, selector u8, body (length bytes)`; the selector's low
    /// three bits pick the control id (0 and 6–7 are another layer's ids, which decode to
    /// nothing), the next two bits the sender (participant 1–4). Invariants: decoding never
    /// traps; a decoded message encodes to a body that decodes to the same message; the
    /// engine's held joins and retired ids stay within their bounds whatever arrives.
    package static func violations(_ input: [UInt8]) -> [String] {
        var violations: [String] = []
        var engine = Engine()
        let local = ParticipantID.numbered(100)
        var index = 0
        while index + 2 <= input.count {
            let length = Int(input[index])
            let selector = input[index + 1]
            let body = Array(input[(index + 2)..<min(input.count, index + 2 + length)])
            index += 2 + length
            let controlID = UInt64(selector & 0x07)
            let source = ParticipantID.numbered(UInt64((selector >> 3) & 0x03) + 1)
            engine.reachable.insert(source)
            guard let message = try? SessionControl.decode(controlID: controlID, payload: body) else { continue }
            let again = try? SessionControl.decode(controlID: message.controlID, payload: message.payload())
            if again != message {
                violations.append(
                    "control \(controlID) did not survive re-encoding: \(message) became \(String(describing: again))")
            }
            _ = engine.apply(message, from: source, local: local)
            if engine.pendingJoins.count > Engine.maxPendingSessions {
                violations.append("\(engine.pendingJoins.count) sessions of held joins, over \(Engine.maxPendingSessions)")
            }
            if engine.retired.count > Engine.maxRetired || engine.finalStates.count > Engine.maxRetired {
                violations.append("\(engine.retired.count) retired ids, over \(Engine.maxRetired)")
            }
            if let current = engine.current, current.joined.contains(local) {
                violations.append("a peer's message made this participant join session \(current.announcement.session)")
            }
        }
        return violations
    }
}
