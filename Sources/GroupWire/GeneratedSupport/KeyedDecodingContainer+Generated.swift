extension KeyedDecodingContainer {
    /// Reads a non-optional field of a generated type's JSON form: nil when the key is
    /// missing (the field then takes its default), the value when present, and `null`
    /// refused (Spec/FORMAT.md, "JSON form": `null` is allowed only for an optional field).
    ///
    /// - Throws: `DecodingError.valueNotFound` at the key for `null` (on every platform's
    ///   decoder alike), or what decoding the value throws.
    public func _decodeUnlessMissing<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [key], debugDescription: "null is allowed only for an optional field"))
        }
        return try decode(type, forKey: key)
    }
}
