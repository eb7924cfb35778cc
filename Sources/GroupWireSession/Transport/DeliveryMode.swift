/// What a transport promises about delivery (Spec/FORMAT.md, "Fragment frames", "Delivery modes").
public struct DeliveryMode: Sendable, Hashable, CustomStringConvertible {
    /// The stable name of the mode.
    public let name: String

    private init(name: String) {
        self.name = name
    }

    /// Every message reaches every recipient exactly once, in the order each sender sent them.
    public static let reliable = DeliveryMode(name: "reliable")
    /// Messages may be lost, duplicated, delayed and reordered.
    public static let unreliable = DeliveryMode(name: "unreliable")

    /// The stable name of the mode.
    public var description: String { name }
}
