// Shared by the FuzzHello target (Fuzz/Sources/FuzzHello, where a violation traps) and its
// corpus replay test (Tests/GroupWireNegotiationTests/Fuzz, where it is an expectation):
// both depend on the GroupWireFuzzChecks product, so they run the same checks.
import GroupWire
import GroupWireNegotiation
import GroupWireSpec

/// A hello body from an arbitrary peer, whole input. Invariants: decoding never traps and
/// throws only `WireError`s with an offset inside the body (or at its end); a hello that
/// decodes encodes again, that body decodes to an equal hello and encodes to the same
/// bytes; its schema model gives every message the fingerprint the table carries, and the
/// compatibility API reads the model against itself as `same` for every message.
public func helloFuzzViolations(_ input: [UInt8]) -> [String] {
    let hello: Hello
    do {
        hello = try Hello(payload: input)
    } catch {
        if let offset = error.offset, offset < 0 || offset > input.count {
            return ["\(error.kind) at offset \(offset), outside the \(input.count)-byte body"]
        }
        return []
    }
    var violations: [String] = []
    do {
        let body = try hello.payload()
        let again = try Hello(payload: body)
        if again != hello { violations.append("the re-encoded hello decodes to another hello") }
        if try again.payload() != body { violations.append("re-encoding is not stable") }
    } catch {
        violations.append("a decoded hello does not survive re-encoding: \(error)")
    }
    if let schema = hello.schema {
        for entry in schema.messages where schema.spec.fingerprint(ofMessage: entry.name) != entry.fingerprint {
            violations.append("message \(entry.name): the model's fingerprint differs from the table's")
        }
        let verdicts = ReaderWriterCompatibility(reader: schema.spec, writer: schema.spec)
        for message in verdicts.messages where message.verdict != .same {
            violations.append("message \(message.writerName) is not the same as itself: \(message.verdict)")
        }
    }
    return violations
}
