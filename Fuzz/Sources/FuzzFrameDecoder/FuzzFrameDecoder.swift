import GroupWire

/// libFuzzer entry point: frame decoding and stream reading on arbitrary bytes.
///
/// Invariants (a violation traps, which libFuzzer reports as a crash):
/// 1. `FrameDecoder.decode` never traps; a frame it returns re-encodes with
///    `FrameEncoder` to exactly the input and decodes again to an equal frame.
/// 2. `FrameStreamReader` reports events that tile the input (each starts where the one
///    before ended, the last ends at the end), every frame event's bytes decode alone to
///    the same frame and re-encode to the same bytes, and feeding the input in two chunks
///    gives the same events as feeding it at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let limits = Limits.default
    let decoder = FrameDecoder(limits: limits)
    let encoder = FrameEncoder(limits: limits)

    if let frame = try? decoder.decode(bytes) {
        check(frame, roundTripsTo: bytes, decoder, encoder)
    }

    let whole = decoder.decodeAll(bytes)
    var end = 0
    for event in whole {
        precondition(event.offset == end, "event at \(event.offset) does not start where the last ended (\(end))")
        precondition(event.length > 0, "empty event at \(event.offset)")
        end = event.offset + event.length
        if let frame = event.frame {
            check(frame, roundTripsTo: Array(bytes[event.offset..<end]), decoder, encoder)
        }
    }
    precondition(end == bytes.count, "events end at \(end), input at \(bytes.count)")

    if !bytes.isEmpty {
        let split = Int(bytes[0]) % (bytes.count + 1)
        let chunked = decoder.decodeAll(chunks: [bytes[..<split], bytes[split...]])
        precondition(chunked == whole, "chunking at \(split) changed the events")
    }
    return 0
}

private func check(_ frame: Frame, roundTripsTo bytes: [UInt8], _ decoder: FrameDecoder, _ encoder: FrameEncoder) {
    guard let encoded = try? encoder.encode(frame) else {
        preconditionFailure("a decoded frame does not re-encode: \(frame)")
    }
    precondition(encoded == bytes, "re-encoding a decoded frame changed its bytes")
    guard let again = try? decoder.decode(encoded) else {
        preconditionFailure("a re-encoded frame does not decode")
    }
    precondition(again == frame, "a re-encoded frame decodes to a different frame")
}
