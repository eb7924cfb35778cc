// Shared by the FuzzGeneratedTypes target (Fuzz/Sources/FuzzGeneratedTypes, where a
// violation traps) and its corpus replay test (Tests/GroupWireExamplesTests/Fuzz, where it
// is an expectation), through the GroupWireFuzzChecks product, so both run the same checks.
import GroupWire
// The example types: the plugin's output, or in the fuzz build (which cannot run plugins)
// the committed generator output, which the golden test keeps identical to it.
#if GROUPWIRE_FUZZ_BUILD
import DrawTogetherV1Golden
import WatchTogetherGolden
#else
import GroupWireExamples
#endif

// The types are the golden generated code (Spec/Examples/Generated), which GoldenFileTests
// keeps byte for byte equal to what the build plugin generates for Spec/Examples: the
// plugin's tool cannot be built with the fuzzer flags (libFuzzer brings its own `main`).

/// Decodes a fuzz input with one of the generated example types and returns every
/// invariant it breaks (empty: none).
///
/// Input: `selector u8, payload`; `selector % 3` picks UpsertStroke, CanvasSnapshot or
/// PlaybackState. Invariants: decoding never traps; a value that decodes re-encodes
/// (`wirePayload()`), the re-encoding decodes to an equal value (or, for a value holding
/// NaN, which is not equal to itself, to one that encodes to the same bytes).
public func generatedTypesFuzzViolations(_ input: [UInt8]) -> [String] {
    guard let selector = input.first else { return [] }
    let payload = Array(input.dropFirst())
    switch selector % 3 {
    case 0: return roundTripViolations(UpsertStroke.self, payload)
    case 1: return roundTripViolations(CanvasSnapshot.self, payload)
    default: return roundTripViolations(PlaybackState.self, payload)
    }
}

private func roundTripViolations<Message: WireMessage & Equatable>(_ type: Message.Type, _ payload: [UInt8]) -> [String] {
    guard let value = try? Message(wirePayload: payload) else { return [] }
    let encoded = value.wirePayload()
    let again: Message
    do {
        again = try Message(wirePayload: encoded)
    } catch {
        return ["a decoded \(Message.wireTypeName) re-encodes to bytes that do not decode: \(error)"]
    }
    // A value holding NaN is not equal to itself, but `value == value` can still be true:
    // arrays compare equal at once when they share storage. Two separate decodes share
    // nothing, so they differ exactly when there is a NaN (decoding is deterministic).
    if let twin = try? Message(wirePayload: payload), twin == value {
        return again == value ? [] : ["a decoded \(Message.wireTypeName) re-encodes and decodes to a different value"]
    }
    // NaN somewhere: compare what the two values write instead.
    return again.wirePayload() == encoded ? [] : ["a decoded \(Message.wireTypeName) holding NaN does not re-encode stably"]
}
