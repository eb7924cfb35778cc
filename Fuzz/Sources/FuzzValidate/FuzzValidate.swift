import GroupWireFuzzChecks

/// libFuzzer entry point: the checks of `validateFuzzViolations` (Fuzz/Harnesses/CaptureFuzzHarness.swift,
/// shared with the corpus replay test) on arbitrary bytes; any broken invariant traps,
/// which libFuzzer reports as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runFuzzCheck(data, size, validateFuzzViolations)
}
