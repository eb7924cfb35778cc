/// The keyed container ``WireEncoder`` hands out: entries of a header (a numbered key, or a
/// named key's length and its bytes, see ``WireEncoderCore/writeHeader(_:type:)``) and the
/// value data, appended to the owning value's region.
struct WireKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let core: WireEncoderCore
    /// The level this container belongs to; -1 for a container that may not be written.
    let serial: Int

    var codingPath: [any CodingKey] { core.codingPath }

    @inline(__always) private func scalar<S: WireScalar>(_ value: S, _ key: Key) throws {
        try core.checkTop(serial)
        core.writeHeader(key, type: value.wireType)
        value.write(to: &core.writer)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try core.checkTop(serial)
        core.writeHeader(key, type: CodableWireType.null)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try scalar(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try scalar(value, key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { try scalar(value, key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try scalar(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try core.checkTop(serial)
        let header = core.writeHeader(key, type: 0)
        try core.encodeValue(value, typeOffset: header.header, path: header.path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        core.makeChild(serial: serial, key: key, index: nil).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        core.makeChild(serial: serial, key: key, index: nil).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        core.makeChild(serial: serial, key: WireCodingKey.superKey, index: nil)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        core.makeChild(serial: serial, key: key, index: nil)
    }
}
