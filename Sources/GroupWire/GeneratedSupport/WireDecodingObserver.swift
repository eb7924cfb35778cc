/// Sees what a generated decoder reads, field by field in body order, while it reads it.
///
/// Code generated with observed decoding (`GeneratorOptions.observedDecoding`,
/// `groupwire generate --observed-decoding`) gives every struct and message of the spec a
/// second decoder, `init(decodingWire:observer:)`, that reports to an observer. The
/// observer's methods run in the same pass as the reading, so a check the spec language
/// cannot state (a range, a length, a count, a field that is required) throws where the
/// input breaks it, at the offset it concerns, and before anything later in the body is
/// read: a body with an out-of-range value followed by a truncation reports the value.
/// What the decoder itself finds (truncation, malformed varints, a known field with
/// another wire type) is thrown as without an observer, before any method is called for
/// that field.
///
/// The order of calls, for each field of a struct or message: ``willRead(_:keyOffset:in:reader:)``,
/// then (for a known field) ``didRead(_:key:keyOffset:valueOffset:in:)`` with each value read:
/// one for a scalar, an enum or a nested value, one per element for an array (packed
/// runs: one per element, all with the run's key), one per entry for a map, as a
/// `(key, value)` pair. A nested struct or message reports its own fields between the two
/// calls and ends with ``didDecode(_:start:end:)``. A union value, and any value inside a
/// union or a map entry, is reported whole, not field by field.
///
/// Every method has an empty default, so an observer implements the ones it needs.
public protocol WireDecodingObserver {
    /// Called after a field's key is read and, for a known field, its wire type checked;
    /// `reader` is positioned at the value (a copy: reading from it moves nothing). Called
    /// for unknown fields too, which the decoder then keeps as unknown bytes.
    /// - Parameters:
    ///   - key: the field's number and wire type.
    ///   - keyOffset: the offset of the field's key in the payload.
    ///   - container: the generated type whose field it is.
    ///   - reader: a reader positioned at the field's value.
    mutating func willRead<Container>(_ key: FieldKey, keyOffset: Int, in container: Container.Type, reader: PayloadReader)
        throws(WireError)

    /// Called with each value of a known field once it is read, before it is stored.
    /// - Parameters:
    ///   - value: the value, of the field's Swift type (an array's or a map's: one element,
    ///     or one `(key, value)` entry).
    ///   - key: the field's number and wire type.
    ///   - keyOffset: the offset of the field's key.
    ///   - valueOffset: the offset of this value (a packed element's own offset).
    ///   - container: the generated type whose field it is.
    mutating func didRead<Container, Value>(
        _ value: Value, key: FieldKey, keyOffset: Int, valueOffset: Int, in container: Container.Type
    ) throws(WireError)

    /// Called when a struct or message value has been read whole, the top-level one
    /// included.
    /// - Parameters:
    ///   - value: the value.
    ///   - start: the offset of its first field.
    ///   - end: the offset just past its last byte.
    mutating func didDecode<Value>(_ value: Value, start: Int, end: Int) throws(WireError)
}

extension WireDecodingObserver {
    /// Does nothing.
    public mutating func willRead<Container>(_ key: FieldKey, keyOffset: Int, in container: Container.Type, reader: PayloadReader)
        throws(WireError)
    {}

    /// Does nothing.
    public mutating func didRead<Container, Value>(
        _ value: Value, key: FieldKey, keyOffset: Int, valueOffset: Int, in container: Container.Type
    ) throws(WireError) {}

    /// Does nothing.
    public mutating func didDecode<Value>(_ value: Value, start: Int, end: Int) throws(WireError) {}
}
