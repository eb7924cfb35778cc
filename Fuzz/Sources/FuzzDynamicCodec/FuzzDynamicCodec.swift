/// libFuzzer entry point: the checks of `dynamicCodecFuzzViolations` (Fuzz/Harnesses/DynamicCodecFuzzHarness.swift,
/// shared with the corpus replay test) on arbitrary bytes; any broken invariant traps,
/// which libFuzzer reports as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDynamicCodec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let violations = dynamicCodecFuzzViolations(input)
    precondition(violations.isEmpty, violations.joined(separator: "; "))
    return 0
}
