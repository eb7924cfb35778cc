/// Maps message type ids to the types that decode them: generated ``WireMessage`` types and
/// any ``CodableMessage``.
///
/// One id names one type: registering a second type under a taken id is a
/// ``WireError/Kind/duplicateTypeID`` error naming both, so two message types can never be
/// confused on the wire. Registering the same type again is allowed and changes nothing.
public struct MessageRegistry: Sendable {
    private var types: [UInt64: any MessageCodable.Type] = [:]

    /// Creates an empty registry.
    public init() {}

    /// Creates a registry holding `types`.
    /// - Throws: ``WireError/Kind/duplicateTypeID`` when two types share a type id,
    ///   ``WireError/Kind/invalidTypeID`` when one is out of range.
    public init(_ types: [any MessageCodable.Type]) throws(WireError) {
        for type in types {
            try register(type)
        }
    }

    /// Adds a type.
    /// - Throws: ``WireError/Kind/duplicateTypeID`` when another type has its id,
    ///   ``WireError/Kind/invalidTypeID`` when its id is out of range.
    public mutating func register(_ type: any MessageCodable.Type) throws(WireError) {
        let id = type.wireTypeID
        try Self.checkRange(id, name: type.wireTypeName)
        if let existing = types[id] {
            guard existing == type else {
                throw WireError(
                    .duplicateTypeID, "type id \(id) is taken by both \(existing.wireTypeName) and \(type.wireTypeName)")
            }
            return
        }
        types[id] = type
    }

    /// Checks that `id` is a valid message type id, 1 ... ``Frame/maxTypeID``.
    /// - Throws: ``WireError/Kind/invalidTypeID`` otherwise, naming `name`.
    public static func checkRange(_ id: UInt64, name: String) throws(WireError) {
        guard (1...Frame.maxTypeID).contains(id) else {
            throw WireError(.invalidTypeID, "\(name) has type id \(id), outside 1...\(Frame.maxTypeID)")
        }
    }

    /// The type registered under `id`.
    public func type(for id: UInt64) -> (any MessageCodable.Type)? {
        types[id]
    }

    /// Every registered type id, ascending.
    public var typeIDs: [UInt64] { types.keys.sorted() }

    /// Decodes `payload` as the type registered under `typeID`.
    /// - Throws: ``WireError/Kind/unknownType`` for an unregistered id, or the decoding error.
    public func decode(typeID: UInt64, payload: [UInt8], limits: Limits = .default) throws(WireError) -> any MessageCodable {
        guard let type = types[typeID] else {
            throw WireError(.unknownType, "no message type is registered for type id \(typeID)")
        }
        return try type.init(messagePayload: payload, limits: limits)
    }

    /// Decodes a data frame's (uncompressed, whole) body as the type its type id names.
    /// - Throws: ``WireError/Kind/unknownType`` for an unregistered id, or the decoding error.
    public func decode(_ frame: Frame, limits: Limits = .default) throws(WireError) -> any MessageCodable {
        try decode(typeID: frame.typeID, payload: frame.body, limits: limits)
    }
}
