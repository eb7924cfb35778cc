import GroupWireFuzzChecks

/// libFuzzer entry point: arbitrary frames from three peers through the messenger's
/// receiving path. The checks live in Harnesses/ReceivePipelineFuzzHarness.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceivePipeline(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    runFuzzCheck(data, size, receivePipelineFuzzViolations)
}
