import GroupWire

/// The example activities' messages, generated at build time by `GroupWireGeneratorPlugin`
/// from the spec files linked into this folder (`../../Spec/Examples/*.gwspec`).
public enum GroupWireExamples {
    /// Every message type of the examples, for a ``MessageRegistry``.
    public static let messageTypes: [any WireMessage.Type] = [
        UpsertStroke.self, CanvasSnapshot.self, PlaybackState.self, ReadyState.self,
    ]
}
