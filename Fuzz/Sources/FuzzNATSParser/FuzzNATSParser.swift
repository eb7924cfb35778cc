import GroupWireFuzzChecks

/// libFuzzer entry point: the checks of `natsParserFuzzViolations`
/// (Fuzz/Harnesses/NATSFuzzHarness.swift, shared with the corpus replay test) on arbitrary
/// bytes as a NATS server's stream; any broken invariant traps, which libFuzzer reports as
/// a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNATSParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runFuzzCheck(data, size, natsParserFuzzViolations)
}
