/// The unkeyed container ``WireDecoder`` hands out: reads the elements in order, each a
/// wire type byte and data, up to the count written in front of them.
struct WireUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let core: WireDecoderCore
    /// Positioned at the next element.
    var reader: ByteReader
    /// The element count from the wire (checked against the limits and the bytes left).
    let total: Int
    /// This container's path is `core.path.prefix(pathDepth)` followed by `core.prefixPath(prefix)`.
    let pathDepth: Int
    let prefix: Int
    /// How many values enclose this container's value.
    let depth: Int

    private(set) var currentIndex = 0

    init(core: WireDecoderCore, reader: ByteReader, total: Int, pathDepth: Int, prefix: Int, depth: Int) {
        self.core = core
        self.reader = reader
        self.total = total
        self.pathDepth = pathDepth
        self.prefix = prefix
        self.depth = depth
    }

    var codingPath: [any CodingKey] { core.codingPath(pathDepth: pathDepth, prefix: prefix) }
    var count: Int? { total }
    var isAtEnd: Bool { currentIndex >= total }

    /// Reads the next element's extent and moves past it.
    private mutating func next() throws -> WireValue {
        guard currentIndex < total else {
            throw core.decorate(
                WireError(
                    .missingField, offset: reader.cursor,
                    "no element at index \(currentIndex): the unkeyed container holds \(total)"),
                pathDepth: pathDepth, prefix: prefix)
        }
        do {
            let typeOffset = reader.cursor
            let type = try reader.readByte()
            let value = try WireValue.read(type: type, typeOffset: typeOffset, from: &reader)
            currentIndex += 1
            return value
        } catch {
            throw core.decorate(error, pathDepth: pathDepth, prefix: prefix, entry: .index(currentIndex))
        }
    }

    @inline(__always) private mutating func scalar<S: WireScalar>(_ type: S.Type) throws -> S {
        let index = currentIndex
        let value = try next()
        return try core.scalar(S.self, value, pathDepth: pathDepth, prefix: prefix, entry: .index(index))
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < total, let type = reader.peekByte() else {
            _ = try next()  // throws the right error
            return false
        }
        guard type == CodableWireType.null else { return false }
        reader.cursor += 1  // safe because: peekByte proved a byte is there.
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try scalar(type) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try scalar(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = currentIndex
        let value = try next()
        return try core.decodeValue(
            T.self, value, parentDepth: depth, pathDepth: pathDepth,
            prefix: prefix, entry: .index(index))
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if try decodeNil() { return nil }
        return try decode(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let index = currentIndex
        let value = try next()
        try core.checkDepth(depth, at: value.at, pathDepth: pathDepth, prefix: prefix, entry: .index(index))
        try core.checkContainer(value, "a keyed container", pathDepth: pathDepth, prefix: prefix, entry: .index(index))
        return KeyedDecodingContainer(
            WireKeyedDecodingContainer<NestedKey>(
                core: core, start: value.start, end: value.end, pathDepth: pathDepth,
                prefix: core.extendPrefix(prefix, .index(index)), depth: depth + 1))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = currentIndex
        let value = try next()
        try core.checkDepth(depth, at: value.at, pathDepth: pathDepth, prefix: prefix, entry: .index(index))
        return try core.makeUnkeyed(value, pathDepth: pathDepth, prefix: prefix, depth: depth + 1, entry: .index(index))
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = currentIndex
        let value = try next()
        try core.checkDepth(depth, at: value.at, pathDepth: pathDepth, prefix: prefix, entry: .index(index))
        return WireDecoderCore(
            input: core.input, limits: core.limits, userInfo: core.userInfoStorage,
            basePath: core.codingPath(pathDepth: pathDepth, prefix: prefix, entry: .index(index)),
            current: value, depth: depth + 1, root: core.root ?? core)
    }
}
