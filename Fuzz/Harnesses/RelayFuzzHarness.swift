// Shared by the FuzzRelayMessage and FuzzAccessToken targets (Fuzz/Sources/, where a
// violation traps) and their corpus replay tests (Tests/GroupWireRelayTests/Fuzz, where it
// is an expectation): both depend on the GroupWireFuzzChecks product.
import GroupWire
import GroupWireRelay

/// One relay message from an arbitrary peer, whole input (Spec/RELAY.md, "Messages").
/// Invariants: decoding never traps and fails only with an offset inside the message (or at
/// its end); a message that decodes encodes to exactly the input (every field has one
/// encoding); a send's header, read alone, names the same recipients and ends where the
/// frame starts; and read from the message's first bytes only, as the relay reads it, it
/// is the same header or the same error at the same offset.
///
/// The same bytes are also read as a message between cluster nodes (RELAY.md,
/// "Clustering"), with the same invariants: never a trap, an offset inside, and what
/// decodes encodes to exactly the input.
public func relayMessageFuzzViolations(_ input: [UInt8]) -> [String] {
    let limits = RelayLimits(maxFrameSize: 4_096, maxRecipients: 64, maxMembers: 64)
    var violations = sendHeaderPrefixViolations(input, limits: limits) + clusterMessageViolations(input, limits: limits)
    let message: RelayMessage
    do {
        message = try RelayMessage(decoding: input, limits: limits)
    } catch {
        if let offset = error.offset, offset < 0 || offset > input.count {
            violations.append("\(error.kind) at offset \(offset), outside the \(input.count)-byte message")
        }
        return violations
    }
    if message.encoded() != input { violations.append("\(message) encodes to other bytes") }
    if case .send(let recipients, let frame) = message {
        do {
            let header = try RelaySendHeader(decoding: input, limits: limits)
            if header.recipients != recipients || header.length + frame.count != input.count {
                violations.append("the send header alone reads \(String(describing: header.recipients)) up to \(header.length)")
            }
        } catch {
            violations.append("the send decodes but its header alone does not: \(error)")
        }
    }
    return violations
}

/// What breaks the invariants when `input` is read as a cluster message.
private func clusterMessageViolations(_ input: [UInt8], limits: RelayLimits) -> [String] {
    do {
        let message = try RelayClusterMessage(decoding: input, limits: limits)
        return message.encoded() == input ? [] : ["the cluster message \(message) encodes to other bytes"]
    } catch {
        if let offset = error.offset, offset < 0 || offset > input.count {
            return ["cluster message: \(error.kind) at offset \(offset), outside the \(input.count) bytes"]
        }
        return []
    }
}

/// Where a send header read from `input`'s first bytes differs from one read from all of it.
private func sendHeaderPrefixViolations(_ input: [UInt8], limits: RelayLimits) -> [String] {
    guard let type = input.first else { return [] }
    let prefix = Array(input.prefix(RelaySendHeader.prefixLength(type: type, messageLength: input.count, limits: limits)))
    let whole = Result { () throws(WireError) in try RelaySendHeader(decoding: input, limits: limits) }
    let fromPrefix = Result { () throws(WireError) in
        try RelaySendHeader(decodingPrefix: prefix, messageLength: input.count, limits: limits)
    }
    switch (whole, fromPrefix) {
    case (.success(let a), .success(let b)) where a == b:
        return []
    case (.failure(let a), .failure(let b)) where a.kind == b.kind && a.offset == b.offset:
        return []
    default:
        return ["the send header reads \(whole) from the message and \(fromPrefix) from its first \(prefix.count) bytes"]
    }
}

/// An access token from an arbitrary client: byte 0 picks the secret (even: the shared one,
/// odd: empty), the rest is the token's text. Invariants: checking never traps; a token
/// that is accepted has claims that sign to a token accepted with the same claims; no token
/// is accepted under an empty secret.
public func accessTokenFuzzViolations(_ input: [UInt8]) -> [String] {
    guard let selector = input.first else { return [] }
    let secret: [UInt8] = selector & 1 == 0 ? Array("correct horse battery staple".utf8) : []
    let token = String(decoding: input.dropFirst(), as: UTF8.self)
    let claims: AccessToken
    do {
        claims = try AccessToken(verifying: token, secret: secret, now: 1_800_000_000, leeway: Int64(selector >> 1))
    } catch {
        return []
    }
    if secret.isEmpty { return ["a token was accepted under an empty secret"] }
    do {
        let again = try claims.signed(secret: secret)
        let reread = try AccessToken(verifying: again, secret: secret, now: 1_800_000_000, leeway: Int64(selector >> 1))
        return reread == claims ? [] : ["the re-signed claims read back as \(reread)"]
    } catch {
        return ["accepted claims do not sign and verify again: \(error)"]
    }
}
