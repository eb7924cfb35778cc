// Shared by the FuzzAgreement target (Fuzz/Sources/FuzzAgreement, where a violation traps)
// and its corpus replay test (Tests/GroupWireNegotiationTests/Fuzz, where it is an
// expectation): both depend on the GroupWireFuzzChecks product, so they run the same checks.
import GroupWire
import GroupWireNegotiation

/// Two hellos from arbitrary peers, then steps of peer B's life seen by A's engine.
///
/// Input: `u16le n`, n bytes of hello A, `u16le m`, m bytes of hello B (lengths clamped to
/// what is left), then one byte per step: low 2 bits 0 = B joins, 1 = B's hello arrives, 2 =
/// time passes by `(byte >> 2) × 100 ms`, 3 = B leaves.
///
/// Invariants: the agreement of two hellos that decode is the mirror image of the one
/// computed from the other side (status kind, version, both directions, every type's names and
/// verdicts, the dictionary conflicts); a hello agrees with itself on `same` for every type
/// and on its highest version; the version lies in both ranges and each direction's sizes
/// are the reader's. The engine (hello A) never traps, says at most two things per step,
/// and its state for B follows the step: agreed with exactly `Agreement(local: A, remote: B)`
/// or incompatible after B's hello, `invalidHello` for one that does not decode, nothing
/// after B leaves, `noHello` once the timeout passes without a hello.
public func agreementFuzzViolations(_ input: [UInt8]) -> [String] {
    var position = 0
    func take() -> [UInt8] {
        guard position + 2 <= input.count else {
            position = input.count
            return []
        }
        let length = min(Int(input[position]) | Int(input[position + 1]) << 8, input.count - position - 2)
        defer { position += 2 + length }
        return Array(input[(position + 2)..<(position + 2 + length)])
    }
    let bodyA = take()
    let bodyB = take()
    let steps = input[position...]
    let a = try? Hello(payload: bodyA)
    let b = try? Hello(payload: bodyB)
    var violations: [String] = []
    if let a, let b {
        violations += mirrorViolations(a, b)
        violations += selfViolations(a)
    }
    if let a { violations += engineViolations(a, bodyB: bodyB, remote: b, steps: Array(steps)) }
    return violations
}

private func mirrorViolations(_ a: Hello, _ b: Hello) -> [String] {
    var violations: [String] = []
    let here = Agreement(local: a, remote: b)
    let there = Agreement(local: b, remote: a)
    // The reasons are worded from each side ("this peer ..., the other ..."); the kinds agree.
    if statusKind(here.status) != statusKind(there.status) { violations.append("status \(here.status) here, \(there.status) there") }
    if here.envelopeVersion != there.envelopeVersion { violations.append("versions \(String(describing: here.envelopeVersion)) and \(String(describing: there.envelopeVersion))") }
    if here.sending != there.receiving || here.receiving != there.sending { violations.append("the directions are not mirrored") }
    if here.dictionaryConflicts != there.dictionaryConflicts { violations.append("the dictionary conflicts differ") }
    if here.types.map(\.typeID) != there.types.map(\.typeID) {
        violations.append("type ids \(here.types.map(\.typeID)) here, \(there.types.map(\.typeID)) there")
    } else {
        for (mine, theirs) in zip(here.types, there.types) {
            if mine.sending != theirs.receiving || mine.receiving != theirs.sending {
                violations.append("type \(mine.typeID): \(String(describing: mine.sending))/\(String(describing: mine.receiving)) here, \(String(describing: theirs.sending))/\(String(describing: theirs.receiving)) there")
            }
            if mine.localName != theirs.remoteName || mine.remoteName != theirs.localName {
                violations.append("type \(mine.typeID): the names are not mirrored")
            }
        }
    }
    if let version = here.envelopeVersion, !(a.envelopeVersions.contains(version) && b.envelopeVersions.contains(version)) {
        violations.append("version \(version) outside \(a.envelopeVersions) or \(b.envelopeVersions)")
    }
    if here.sending.maxFrameSize != b.maxFrameSize || here.sending.maxMessageSize != b.maxMessageSize {
        violations.append("the sizes sent are not the reader's")
    }
    if let codec = here.sending.codec, !(a.codecs.contains { $0.codec == codec } && b.codecs.contains { $0.codec == codec }) {
        violations.append("codec \(codec) is not in both lists")
    }
    return violations
}

private func selfViolations(_ a: Hello) -> [String] {
    let agreement = Agreement(local: a, remote: a)
    var violations: [String] = []
    if agreement.envelopeVersion != a.envelopeVersions.upperBound { violations.append("a hello does not agree with itself on its highest version") }
    for type in agreement.types where (type.sending ?? .same) != .same || (type.receiving ?? .same) != .same {
        violations.append("type \(type.typeID) is not the same as itself")
    }
    return violations
}

private func engineViolations(_ a: Hello, bodyB: [UInt8], remote b: Hello?, steps: [UInt8]) -> [String] {
    let configuration = NegotiationEngine<Int>.Configuration(retryInterval: .seconds(1), timeout: .seconds(10))
    guard var engine = try? NegotiationEngine<Int>(hello: a, configuration: configuration) else { return [] }
    var violations: [String] = []
    var now = Duration.zero
    var joinedAt: Duration?
    for (index, step) in steps.prefix(256).enumerated() {
        let outputs: [NegotiationEngine<Int>.Output]
        switch step & 3 {
        case 0:
            outputs = engine.joined(1, now: now)
            joinedAt = joinedAt ?? now
        case 1:
            outputs = engine.received(hello: bodyB, from: 1, now: now)
            joinedAt = joinedAt ?? now
            if let b {
                let agreement = Agreement(local: a, remote: b)
                let expected: NegotiationEngine<Int>.PeerState
                switch agreement.status {
                case .agreed: expected = .agreed(agreement)
                case .incompatible(let failure): expected = .incompatible(failure)
                }
                if engine.state(of: 1) != expected { violations.append("step \(index): after B's hello the state is \(String(describing: engine.state(of: 1)))") }
            } else if !isInvalidHello(engine.state(of: 1)) {
                violations.append("step \(index): after a hello that does not decode the state is \(String(describing: engine.state(of: 1)))")
            }
        case 2:
            now += .milliseconds(100 * Int(step >> 2))
            outputs = engine.tick(now: now)
            if let since = joinedAt, now - since >= configuration.timeout, engine.state(of: 1) == .helloSent {
                violations.append("step \(index): still waiting \(now - since) after the join")
            }
        default:
            engine.left(1)
            outputs = []
            joinedAt = nil
            if engine.state(of: 1) != nil { violations.append("step \(index): B is still known after leaving") }
        }
        if outputs.count > 2 { violations.append("step \(index): \(outputs.count) outputs for one peer") }
    }
    return violations
}

private func isInvalidHello(_ state: NegotiationEngine<Int>.PeerState?) -> Bool {
    if case .incompatible(let failure)? = state { return failure.kind == .invalidHello }
    return false
}

private func statusKind(_ status: Agreement.Status) -> String {
    switch status {
    case .agreed: "agreed"
    case .incompatible(let failure): failure.kind.name
    }
}
