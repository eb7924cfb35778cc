/// The unkeyed container ``WireEncoder`` hands out: `uvarint(count)`, then each element as
/// its wire type byte and data.
struct WireUnkeyedEncodingContainer: UnkeyedEncodingContainer, WireScalarEncoding {
    let core: WireEncoderCore
    /// The level this container belongs to; -1 for a container that may not be written.
    let serial: Int

    var codingPath: [any CodingKey] { core.codingPath }

    var count: Int {
        guard let top = core.levels.last, top.serial == serial else { return 0 }
        return top.count
    }

    @inline(__always) mutating func encodeScalar<S: WireScalar>(_ value: S) throws {
        try core.checkTop(serial)
        core.writer.write(value.wireType)
        value.write(to: &core.writer)
        core.levels[core.levels.count - 1].count += 1
    }

    mutating func encodeNil() throws {
        try core.checkTop(serial)
        core.writer.write(CodableWireType.null)
        core.levels[core.levels.count - 1].count += 1
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { try encodeScalar(value) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { try encodeScalar(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try core.checkTop(serial)
        let top = core.levels.count - 1
        let index = core.levels[top].count
        core.levels[top].count = index + 1
        let typeOffset = core.writer.count
        core.writer.write(0)
        try core.encodeValue(value, typeOffset: typeOffset, path: .index(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        core.makeChild(serial: serial, key: nil as WireCodingKey?, index: count).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        core.makeChild(serial: serial, key: nil as WireCodingKey?, index: count).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        core.makeChild(serial: serial, key: nil as WireCodingKey?, index: count)
    }
}
