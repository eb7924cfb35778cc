/// The keyed container ``WireDecoder`` hands out. Keys are looked up (by number or by name,
/// see ``WireKeyForm``) by scanning the container's entries from just after the previous
/// hit, so fields read in the order they were written cost one comparison each; unknown keys
/// are skipped.
struct WireKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let core: WireDecoderCore
    /// The container's entries are at `start..<end` of the input. (Offsets, not a reader: the
    /// box calls copy this struct several times per lookup, and each copy of a reader would
    /// retain the input.)
    let start: Int
    let end: Int
    /// This container's path is `core.path.prefix(pathDepth)` followed by `core.prefixPath(prefix)`.
    let pathDepth: Int
    let prefix: Int
    /// How many values enclose this container's value.
    let depth: Int

    var codingPath: [any CodingKey] { core.codingPath(pathDepth: pathDepth, prefix: prefix) }

    /// Every key in the container that `Key` knows. `allKeys` cannot throw, so a malformed
    /// entry, a key that is not UTF-8 or more entries than `maxCollectionCount` end the list
    /// and are thrown by the top-level decode.
    var allKeys: [Key] {
        var keys: [Key] = []
        var seen = 0
        guard var reader = try? core.reader(from: start, to: end) else { return [] }
        while !reader.isAtEnd {
            let entryOffset = reader.cursor
            let entry: WireDecoderCore.Entry
            do {
                entry = try core.readEntry(&reader)
            } catch {
                core.deferError(core.decorate(error, pathDepth: pathDepth, prefix: prefix))
                break
            }
            seen += 1
            guard seen <= core.limits.maxCollectionCount else {
                core.deferError(
                    core.decorate(
                        WireError(
                            .limitExceeded, offset: entryOffset,
                            "keyed container has more than maxCollectionCount \(core.limits.maxCollectionCount) entries"),
                        pathDepth: pathDepth, prefix: prefix))
                break
            }
            if entry.number >= 0 {
                if let key = Key(intValue: entry.number) {
                    keys.append(key)
                }
                continue
            }
            let bytes = core.input.bytes[entry.keyOffset..<(entry.keyOffset + entry.keyLength)]
            guard let name = String(validating: bytes, as: UTF8.self) else {
                core.deferError(
                    core.decorate(
                        WireError(.invalidUTF8, offset: entry.keyOffset, "key of \(entry.keyLength) bytes is not valid UTF-8"),
                        pathDepth: pathDepth, prefix: prefix))
                break
            }
            if let key = Key(stringValue: name) {
                keys.append(key)
            }
        }
        return keys
    }

    /// The entry for `key`, or ``WireDecoderCore/Entry/notFound``.
    private func find(_ key: Key) throws -> WireDecoderCore.Entry {
        do {
            return try core.lookup(key, start: start, end: end, depth: depth)
        } catch {
            throw core.decorate(error, pathDepth: pathDepth, prefix: prefix)
        }
    }

    private func require(_ key: Key) throws -> WireDecoderCore.Entry {
        let entry = try find(key)
        guard entry.found else {
            throw core.decorate(
                WireError(
                    .missingField, offset: start,
                    "missing key \(WireKeyedDecodingContainer.describe(key))"),
                pathDepth: pathDepth, prefix: prefix)
        }
        return entry
    }

    /// `"name"`, or `"name" (number N)` for a key looked up by number.
    static func describe(_ key: Key) -> String {
        if let number = WireKeyForm.number(of: key) {
            return "\"\(key.stringValue)\" (number \(number))"
        }
        return "\"\(key.stringValue)\""
    }

    func contains(_ key: Key) -> Bool {
        do {
            return try find(key).found
        } catch let error as WireError {
            core.deferError(error)
            return false
        } catch {
            return false
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try require(key).value.type == CodableWireType.null
    }

    @inline(__always) private func scalar<S: WireScalar>(_ type: S.Type, _ key: Key) throws -> S {
        let entry = try require(key)
        return try core.scalar(S.self, entry.value, pathDepth: pathDepth, prefix: prefix, entry: entry.path(Key.self))
    }

    @inline(__always) private func scalarIfPresent<S: WireScalar>(_ type: S.Type, _ key: Key) throws -> S? {
        let entry = try find(key)
        guard entry.found, entry.value.type != CodableWireType.null else { return nil }
        return try core.scalar(S.self, entry.value, pathDepth: pathDepth, prefix: prefix, entry: entry.path(Key.self))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(type, key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try scalar(type, key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try scalar(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let entry = try require(key)
        return try core.decodeValue(
            T.self, entry.value, parentDepth: depth, pathDepth: pathDepth,
            prefix: prefix, entry: entry.path(Key.self))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try scalarIfPresent(type, key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try scalarIfPresent(type, key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try scalarIfPresent(type, key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let entry = try find(key)
        guard entry.found, entry.value.type != CodableWireType.null else { return nil }
        return try core.decodeValue(
            T.self, entry.value, parentDepth: depth, pathDepth: pathDepth,
            prefix: prefix, entry: entry.path(Key.self))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let entry = try require(key)
        try core.checkDepth(depth, at: entry.value.at, pathDepth: pathDepth, prefix: prefix, entry: entry.path(Key.self))
        try core.checkContainer(
            entry.value, "a keyed container", pathDepth: pathDepth, prefix: prefix, entry: entry.path(Key.self))
        return KeyedDecodingContainer(
            WireKeyedDecodingContainer<NestedKey>(
                core: core, start: entry.value.start, end: entry.value.end, pathDepth: pathDepth,
                prefix: core.extendPrefix(prefix, entry.path(Key.self)), depth: depth + 1))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let entry = try require(key)
        try core.checkDepth(depth, at: entry.value.at, pathDepth: pathDepth, prefix: prefix, entry: entry.path(Key.self))
        return try core.makeUnkeyed(
            entry.value, pathDepth: pathDepth, prefix: prefix, depth: depth + 1, entry: entry.path(Key.self))
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(named: WireCodingKey.superKey)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(named: key)
    }

    private func superDecoder<K: CodingKey>(named key: K) throws -> any Decoder {
        let found: WireDecoderCore.Entry
        do {
            found = try core.lookup(key, start: start, end: end, depth: depth)
        } catch {
            throw core.decorate(error, pathDepth: pathDepth, prefix: prefix)
        }
        let value = found.found ? found.value : .null(at: start)
        try core.checkDepth(depth, at: value.at, pathDepth: pathDepth, prefix: prefix, entry: .none)
        return WireDecoderCore(
            input: core.input, limits: core.limits, userInfo: core.userInfoStorage,
            basePath: codingPath + [key], current: value, depth: depth + 1,
            root: core.root ?? core)
    }
}
