// Shared by the FuzzSessionControl target (Fuzz/Sources/FuzzSessionControl, where a
// violation traps) and its corpus replay test (Tests/GroupWireSessionTests/Fuzz, where it
// is an expectation): both depend on the GroupWireFuzzChecks product, so they run the same checks.
import GroupWireSession

/// The session control messages of arbitrary peers: see
/// `SessionControlFuzzing.violations(_:)` for the input format and the invariants.
public func sessionControlFuzzViolations(_ input: [UInt8]) -> [String] {
    SessionControlFuzzing.violations(input)
}
