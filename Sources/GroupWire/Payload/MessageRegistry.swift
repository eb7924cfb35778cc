/// Maps message type ids to the types that decode them.
public struct MessageRegistry: Sendable {
    private var types: [UInt64: any WireMessage.Type] = [:]

    /// Creates a registry holding `types`.
    /// - Throws: ``WireError/Kind/invalidTypeID`` when two types share a type id or one is out of range.
    public init(_ types: [any WireMessage.Type] = []) throws(WireError) {
        for type in types {
            try register(type)
        }
    }

    /// Adds a type.
    /// - Throws: ``WireError/Kind/invalidTypeID`` when its id is taken by another type or out of range.
    public mutating func register(_ type: any WireMessage.Type) throws(WireError) {
        let id = type.wireTypeID
        guard (1...Frame.maxTypeID).contains(id) else {
            throw WireError(.invalidTypeID, "\(type.wireTypeName) has type id \(id), outside 1...\(Frame.maxTypeID)")
        }
        if let existing = types[id], existing != type {
            throw WireError(.invalidTypeID, "type id \(id) is taken by both \(existing.wireTypeName) and \(type.wireTypeName)")
        }
        types[id] = type
    }

    /// The type registered under `id`.
    public func type(for id: UInt64) -> (any WireMessage.Type)? {
        types[id]
    }

    /// Every registered type id, ascending.
    public var typeIDs: [UInt64] { types.keys.sorted() }

    /// Decodes a data frame's (uncompressed) body as the type its type id names.
    /// - Throws: ``WireError/Kind/unknownType`` for an unregistered id, or the decoding error.
    public func decode(_ frame: Frame, limits: Limits = .default) throws(WireError) -> any WireMessage {
        guard let type = types[frame.typeID] else {
            throw WireError(.unknownType, "no message type is registered for type id \(frame.typeID)")
        }
        return try type.init(wirePayload: frame.body, limits: limits)
    }
}
