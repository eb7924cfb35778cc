// Shared by the FuzzNATSParser target (Fuzz/Sources/, where a violation traps) and its
// corpus replay test (Tests/GroupWireNATSTests/NATSFuzzReplayTests.swift, where it is an
// expectation): both depend on the GroupWireFuzzChecks product.
import GroupWireNATSProtocol

/// What a NATS server sends, from an arbitrary server (docs.nats.io, "Client Protocol").
/// Invariants: parsing never traps and fails only at an offset inside what was given (or
/// at its end); the input fed whole, in two parts and seven bytes at a time yields the same
/// operations and the same error (kind and offset; the context may show fewer bytes); every operation read encodes (as a
/// server sends it) to bytes that read back as the same operation and payload.
public func natsParserFuzzViolations(_ input: [UInt8]) -> [String] {
    let limits = NATSLimits(maxControlLine: 512, maxInfoLine: 2_048, maxPayload: 2_048, maxHeaderFields: 16)
    let whole = natsFeed(input, chunk: input.count, limits: limits)
    var violations: [String] = []
    if let error = whole.error, let offset = error.offset, offset < 0 || offset > input.count {
        violations.append("\(error) is outside the \(input.count) bytes given")
    }
    for chunk in [max(1, input.count / 2 + 1), 7] {
        let fed = natsFeed(input, chunk: chunk, limits: limits)
        if fed.operations.count != whole.operations.count || !zip(fed.operations, whole.operations).allSatisfy({ $0 == $1 })
            || fed.error?.kind != whole.error?.kind || fed.error?.offset != whole.error?.offset
        {
            violations.append("fed \(chunk) bytes at a time: \(fed.operations.count) operations and \(String(describing: fed.error)), whole: \(whole.operations.count) and \(String(describing: whole.error))")
        }
    }
    for (operation, payload) in whole.operations.map({ ($0.operation, $0.payload) }) {
        let bytes: [UInt8]
        do {
            bytes = try operation.encoded(payload: payload)
        } catch {
            // A subject or header the server may send but a well-formed one would not.
            continue
        }
        // Read back with the default limits: encoding may lengthen a line (the quotes of an
        // -ERR, the replacement characters of text that was not UTF-8, INFO's JSON).
        var parser = NATSParser()
        let again = parser.operations(in: bytes)
        if let error = again.error {
            violations.append("\(operation) encodes to bytes that do not read back: \(error)")
        } else if again.consumed != bytes.count || again.operations.count != 1 || again.operations[0].0 != operation
            || again.operations[0].payload != payload
        {
            violations.append("\(operation) encodes to bytes that read back as \(again.operations.map(\.0))")
        }
    }
    return violations
}

/// The operations (with payloads) and the error, if any, of `input` fed `chunk` bytes at
/// a time, as a connection's reads would deliver it.
private func natsFeed(_ input: [UInt8], chunk: Int, limits: NATSLimits) -> (
    operations: [NATSFuzzOperation], error: NATSProtocolError?
) {
    var parser = NATSParser(limits: limits)
    var held: [UInt8] = []
    var operations: [NATSFuzzOperation] = []
    var start = 0
    while start < input.count {
        held += input[start..<min(input.count, start + chunk)]
        start += chunk
        let found = parser.operations(in: held)
        operations += found.operations.map { NATSFuzzOperation(operation: $0.0, payload: $0.payload) }
        if let error = found.error { return (operations, error) }
        held.removeFirst(found.consumed)
    }
    return (operations, nil)
}

/// An operation and its payload, compared as one.
private struct NATSFuzzOperation: Equatable {
    let operation: NATSServerOperation
    let payload: [UInt8]
}
