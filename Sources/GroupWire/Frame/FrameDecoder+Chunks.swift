extension FrameDecoder {
    /// Decodes back-to-back frames delivered in `chunks`, the way a ``FrameStreamReader``
    /// sees a stream that arrives in pieces: the events are the same whatever the chunking
    /// (the fuzz tests check this against ``decodeAll(_:)``).
    /// - Returns: one result per frame or invalid run, in stream order, with its offset.
    public func decodeAll<Chunk: Sequence<UInt8>>(chunks: some Sequence<Chunk>) -> [FrameStreamEvent] {
        var reader = FrameStreamReader(limits: limits)
        var events: [FrameStreamEvent] = []
        for chunk in chunks {
            reader.append(chunk)
            while let event = reader.nextEvent() {
                events.append(event)
            }
        }
        reader.finish()
        while let event = reader.nextEvent() {
            events.append(event)
        }
        return events
    }
}
