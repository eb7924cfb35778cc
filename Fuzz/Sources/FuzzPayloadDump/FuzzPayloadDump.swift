import GroupWire

/// libFuzzer entry point: `PayloadDump` on arbitrary bytes.
///
/// The first byte picks small limits (nesting depth 0...7, at most 1...32 fields, or the
/// defaults) so limit paths are reached too; the rest is the payload. Invariants:
/// dumping and rendering never trap, and a dump re-encodes to exactly the dumped bytes
/// (fields and the unparsed tail), so nothing is lost or invented.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloadDump(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let selector = input.first else { return 0 }
    let payload = Array(input.dropFirst())
    let limits =
        selector & 0x80 == 0
        ? Limits.default
        : Limits(maxNestingDepth: Int(selector & 0x07), maxCollectionCount: Int(selector >> 3 & 0x0F) * 2 + 1)

    let dump = PayloadDump(payload, limits: limits)
    precondition(dump.encodedBytes() == payload, "a dump does not re-encode to the dumped bytes")
    precondition(dump.isComplete == dump.unparsed.isEmpty, "isComplete disagrees with unparsed")
    _ = dump.renderText()
    _ = dump.renderJSONText()
    return 0
}
