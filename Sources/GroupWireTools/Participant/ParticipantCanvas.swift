import GroupWire

/// The generated DrawTogether types of one app version, as a participant draws with them:
/// ``CanvasVersion1`` (GroupWireExamples) or ``CanvasVersion3`` (GroupWireExamplesV3).
protocol ParticipantCanvas: Sendable {
    associatedtype StrokeMessage: MessageCodable & Encodable
    associatedtype SnapshotMessage: MessageCodable & Encodable

    /// The spec version the types were generated from.
    static var version: UInt64 { get }
    /// Stroke number `index` of painter `painter`: its point's x is the number, so
    /// receivers can check order and gaps.
    static func stroke(_ index: Int, by painter: UInt8) -> StrokeMessage
    /// The number ``stroke(_:by:)`` put in `stroke`.
    static func index(of stroke: StrokeMessage) -> Int
    /// A canvas of `strokes` strokes of 200 points at a quarter point's precision, the same for the same seed.
    static func canvas(strokes: Int, seed: UInt64) -> SnapshotMessage
    /// The snapshot's point count.
    static func points(in snapshot: SnapshotMessage) -> UInt64
}
