/// A frame's delivery header (flag ``FrameFlags/delivery``): which stream of its sender the
/// frame belongs to and its number in it, so a delivery layer can order, deduplicate and
/// acknowledge frames over a transport that does not (Spec/FORMAT.md, "Delivery").
public struct DeliveryHeader: Sendable, Hashable {
    /// The smallest valid stream value: incarnation 1 of an unreliable stream.
    public static let minStream: UInt64 = 2
    /// The most bytes a delivery header takes: a 5-byte stream and a 10-byte sequence.
    public static let maxEncodedSize = 15

    /// The stream: bit 0 is the mode (1 reliable), bits 1–31 the incarnation; 2 ... 2^32-1.
    public var stream: UInt32
    /// The frame's number in its stream, from 1.
    public var sequence: UInt64

    /// Creates a header from its wire values.
    public init(stream: UInt32, sequence: UInt64) {
        self.stream = stream
        self.sequence = sequence
    }

    /// Creates a header for incarnation `incarnation` (1 ... 2^31-1) of the reliable or
    /// unreliable stream.
    public init(incarnation: UInt32, isReliable: Bool, sequence: UInt64) {
        self.stream = incarnation << 1 | (isReliable ? 1 : 0)
        self.sequence = sequence
    }

    /// Whether the stream is reliable (bit 0 set).
    public var isReliable: Bool { stream & 1 == 1 }

    /// The stream's incarnation (bits 1–31).
    public var incarnation: UInt32 { stream >> 1 }

    /// The bytes the header takes on the wire.
    public var encodedSize: Int {
        Varint.encodedLength(UInt64(stream)) + Varint.encodedLength(sequence)
    }

    /// Checks the ranges of Spec/FORMAT.md ("Delivery header").
    static func validate(stream: UInt64, sequence: UInt64, streamOffset: Int?, sequenceOffset: Int?) throws(WireError) {
        try validate(stream: stream, at: streamOffset)
        try validate(sequence: sequence, at: sequenceOffset)
    }

    /// Checks a stream value, which a reader does before it reads the sequence.
    static func validate(stream: UInt64, at offset: Int?) throws(WireError) {
        guard (minStream...UInt64(UInt32.max)).contains(stream) else {
            throw WireError(.invalidValue, offset: offset, "delivery stream \(stream) is outside \(minStream)...\(UInt32.max)")
        }
    }

    /// Checks a sequence number.
    static func validate(sequence: UInt64, at offset: Int?) throws(WireError) {
        guard sequence >= 1 else {
            throw WireError(.invalidValue, offset: offset, "delivery sequence 0 is reserved; sequences start at 1")
        }
    }

    /// Reads and checks a header at `reader`'s position: the stream, then the sequence.
    static func read(from reader: inout ByteReader) throws(WireError) -> DeliveryHeader {
        let streamOffset = reader.position
        let stream = try reader.readUVarint()
        try validate(stream: stream, at: streamOffset)
        let sequenceOffset = reader.position
        let sequence = try reader.readUVarint()
        try validate(sequence: sequence, at: sequenceOffset)
        // safe because: validate checked stream <= UInt32.max.
        return DeliveryHeader(stream: UInt32(stream), sequence: sequence)
    }
}
