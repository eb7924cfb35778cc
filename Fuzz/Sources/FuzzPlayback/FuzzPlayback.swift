import GroupWireFuzzChecks

/// libFuzzer entry point: the checks of `playbackFuzzViolations`
/// (Fuzz/Harnesses/PlaybackFuzzHarness.swift, shared with the corpus replay test) on
/// arbitrary bytes; any broken invariant traps, which libFuzzer reports as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlayback(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runFuzzCheck(data, size, playbackFuzzViolations)
}
