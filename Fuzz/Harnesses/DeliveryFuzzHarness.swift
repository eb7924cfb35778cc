// Shared by the FuzzDelivery target (Fuzz/Sources/FuzzDelivery, where a violation traps)
// and its corpus replay test (Tests/GroupWireSessionTests/Fuzz, where it is an
// expectation): both depend on the GroupWireFuzzChecks product, so they run the same checks.
import GroupWireSession

/// Frames, acknowledgements and events from arbitrary peers through one participant's
/// delivery engine: see `DeliveryFuzzing.violations(_:)` for the input format and the
/// invariants.
public func deliveryFuzzViolations(_ input: [UInt8]) -> [String] {
    DeliveryFuzzing.violations(input)
}
