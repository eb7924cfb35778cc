import GroupWire

/// DrawTogether as its version 3 (Spec/Examples/Versions/DrawTogether-v3.gwspec), generated
/// at build time by `GroupWireGeneratorPlugin` beside the version 1 types of
/// `GroupWireExamples`: the two app versions the demo's mixed group runs.
public enum DrawTogetherVersion3 {
    /// The message types of version 3.
    public static let messageTypes: [any WireMessage.Type] = [UpsertStroke.self, CanvasSnapshot.self]
}
