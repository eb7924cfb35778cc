/// A message whose fragments are still arriving: one buffer of the final size, allocated
/// once, that each fragment is copied into at its place.
struct PartialMessage: Sendable {
    /// What every fragment of the message must repeat.
    let typeID: UInt64
    let compression: CompressionInfo?
    let session: UInt32?
    let layout: FragmentLayout
    /// Arrival order among all partial messages, for oldest-first eviction.
    let sequence: UInt64
    /// When the first fragment arrived, for the timeout.
    let started: Duration
    /// Bytes this message counts against the budget.
    let accountedBytes: Int
    /// The body being assembled; bytes of fragments not yet received are unspecified.
    private(set) var buffer: [UInt8]
    /// One bit per fragment index: received or not.
    private var received: [UInt64]
    /// How many distinct fragments have been copied in.
    private(set) var receivedCount = 0

    init(
        typeID: UInt64, compression: CompressionInfo?, session: UInt32?, layout: FragmentLayout, sequence: UInt64,
        started: Duration, accountedBytes: Int
    ) {
        self.typeID = typeID
        self.compression = compression
        self.session = session
        self.layout = layout
        self.sequence = sequence
        self.started = started
        self.accountedBytes = accountedBytes
        // The layout was validated against maxMessageSize and the byte budget before this
        // allocation. Every byte is written by a fragment before the buffer is handed out,
        // so it is not zeroed first.
        buffer = [UInt8](unsafeUninitializedCapacity: layout.totalLength) { _, initialized in
            initialized = layout.totalLength
        }
        received = [UInt64](repeating: 0, count: (layout.count + 63) / 64)
    }

    /// Whether every fragment has arrived.
    var isComplete: Bool { receivedCount == layout.count }

    /// Whether fragment `index` (below the count) has arrived.
    func has(_ index: Int) -> Bool {
        received[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Whether `body` equals the bytes already held for fragment `index`.
    func holds(_ body: UnsafeRawBufferPointer, at index: Int) -> Bool {
        let range = layout.range(ofFragment: index)
        guard range.count == body.count else { return false }
        return buffer.withUnsafeBytes { held in
            UnsafeRawBufferPointer(rebasing: held[range]).elementsEqual(body)
        }
    }

    /// Copies fragment `index` into place and marks it received.
    /// - Precondition: the fragment was validated against ``layout``, so its body has
    ///   exactly `range(ofFragment: index).count` bytes, and it has not arrived before.
    mutating func insert(_ body: UnsafeRawBufferPointer, at index: Int) {
        let range = layout.range(ofFragment: index)
        buffer.withUnsafeMutableBytes { held in
            UnsafeMutableRawBufferPointer(rebasing: held[range]).copyMemory(from: body)
        }
        received[index >> 6] |= 1 << UInt64(index & 63)
        receivedCount += 1
    }
}
