/// The single-value container ``WireEncoder`` hands out: the value's wire type goes into the
/// slot its parent prepared (entry header, element byte or top-level byte), then its data.
struct WireSingleValueEncodingContainer: SingleValueEncodingContainer, WireScalarEncoding {
    let core: WireEncoderCore
    /// The level this container belongs to; -1 for a container that may not be written.
    let serial: Int

    var codingPath: [any CodingKey] { core.codingPath }

    /// Marks the level as holding one value of wire type `type` and returns its type offset.
    @inline(__always) private func claim(_ type: UInt8) throws -> Int {
        try core.checkTop(serial)
        let top = core.levels.count - 1
        guard core.levels[top].state == .pending else {
            throw core.misuse(
                "a single value container can encode one value, and this value is already encoded as \(core.levels[top].state)")
        }
        core.levels[top].state = .single
        let typeOffset = core.levels[top].typeOffset
        core.setType(type, at: typeOffset)
        return typeOffset
    }

    @inline(__always) mutating func encodeScalar<S: WireScalar>(_ value: S) throws {
        _ = try claim(value.wireType)
        value.write(to: &core.writer)
    }

    mutating func encodeNil() throws { _ = try claim(CodableWireType.null) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { try encodeScalar(value) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { try encodeScalar(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // The wrapped value takes over the slot: it decides the wire type itself.
        let typeOffset = try claim(0)
        try core.encodeValue(value, typeOffset: typeOffset, path: .none)
    }
}
