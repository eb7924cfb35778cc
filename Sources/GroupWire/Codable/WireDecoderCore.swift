#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `Decoder` behind ``WireDecoder``: one instance per top-level `decode` call (plus one
/// per `superDecoder`), shared by every value and container it decodes.
///
/// The core points at the value being decoded (``current``); containers remember the byte
/// range they cover, so they stay valid while nested values move ``current`` around. Every
/// nested value is one level deeper, checked against ``Limits/maxNestingDepth`` before it
/// is decoded. Coding paths are kept as offsets into the input and rendered only for errors.
final class WireDecoderCore: Decoder {
    /// The whole input; readers over parts of it share its storage.
    let input: ByteReader
    let limits: Limits
    let userInfoStorage: [CodingUserInfoKey: any Sendable]
    /// The coding path above this core (for `superDecoder` cores).
    let basePath: [any CodingKey]
    // Dynamic exclusivity checks on the mutable state below cost about a sixth of the
    // decoding time (callgrind, benchmark shapes). Safe because: only this module touches
    // it, through short accesses that never overlap.
    /// The value `container(keyedBy:)`, `unkeyedContainer()` and `singleValueContainer()` read.
    @exclusivity(unchecked) var current: WireValue
    /// How many values enclose ``current``.
    @exclusivity(unchecked) var currentDepth: Int
    /// The path from the root to ``current``.
    @exclusivity(unchecked) var path: [WirePathEntry] = []
    /// Extra path components of containers made by `nestedContainer`, which add a level
    /// without a value of their own. Containers hold an index here (0: none) rather than an
    /// array, so copying one retains nothing but the core.
    @exclusivity(unchecked) var prefixes: [[WirePathEntry]] = []
    /// Per container depth: the content start of the last keyed container searched there and
    /// the entry after the last key found, where the next search starts. Fields are usually
    /// read in the order they were written, so most lookups succeed on the first entry.
    @exclusivity(unchecked) var hints: [Hint] = []
    /// The hints for container depths 0 to 3, kept inline so small values need no array.
    @exclusivity(unchecked) var hint0 = Hint.none
    @exclusivity(unchecked) var hint1 = Hint.none
    @exclusivity(unchecked) var hint2 = Hint.none
    @exclusivity(unchecked) var hint3 = Hint.none

    /// Where the next key search in a keyed container starts.
    struct Hint {
        /// The content start of the container the hint belongs to.
        var start: Int
        /// The entry after the last key found.
        var next: Int

        static let none = Hint(start: -1, next: 0)
    }

    /// The hint for keyed containers at `depth`.
    @inline(__always) func hint(at depth: Int) -> Hint {
        switch depth {
        case 0: return hint0
        case 1: return hint1
        case 2: return hint2
        case 3: return hint3
        default: return depth - 4 < hints.count ? hints[depth - 4] : .none
        }
    }

    @inline(__always) func setHint(_ hint: Hint, at depth: Int) {
        switch depth {
        case 0: hint0 = hint
        case 1: hint1 = hint
        case 2: hint2 = hint
        case 3: hint3 = hint
        default:
            // Deeper containers are rare; their hints grow an array up to the depth limit.
            let index = depth - 4
            guard index < 128 else { return }
            while hints.count <= index {
                hints.append(.none)
            }
            hints[index] = hint
        }
    }

    /// The core of the top-level decode, for cores made by `superDecoder`.
    let root: WireDecoderCore?
    /// The first problem found where the protocol gives no way to throw (`allKeys`,
    /// `contains`); the top-level decode throws it once the value is decoded.
    @exclusivity(unchecked) var deferredError: WireError?
    /// Containers and their elements decoded so far by the top-level decode (kept on the
    /// root core); bounded by ``Limits/maxDecodedValues``.
    @exclusivity(unchecked) var decodedValues = 0

    init(
        input: ByteReader, limits: Limits, userInfo: [CodingUserInfoKey: any Sendable],
        basePath: [any CodingKey] = [], current: WireValue, depth: Int, root: WireDecoderCore? = nil
    ) {
        self.root = root
        self.input = input
        self.limits = limits
        self.userInfoStorage = userInfo
        self.basePath = basePath
        self.current = current
        self.currentDepth = depth
        path.reserveCapacity(8)
    }

    // MARK: Decoder

    var userInfo: [CodingUserInfoKey: Any] { userInfoStorage }

    var codingPath: [any CodingKey] { codingPath(pathDepth: path.count, prefix: 0) }

    /// The path components of prefix `id`.
    func prefixPath(_ id: Int) -> [WirePathEntry] {
        id > 0 && id <= prefixes.count ? prefixes[id - 1] : []
    }

    /// A prefix one component longer than `id`. The table is capped (inputs full of nested
    /// containers must not grow it without bound); past the cap, paths leave that part out.
    func extendPrefix(_ id: Int, _ entry: WirePathEntry) -> Int {
        guard prefixes.count < 1_024 else { return id }
        var extended = prefixPath(id)
        if case .none = entry {} else { extended.append(entry) }
        prefixes.append(extended)
        return prefixes.count
    }

    /// The coding path of a container: the first `pathDepth` entries of ``path``, then `prefix`.
    func codingPath(pathDepth: Int, prefix: Int, entry: WirePathEntry = .none) -> [any CodingKey] {
        var result = basePath
        for component in path.prefix(pathDepth) {
            if let key = component.codingKey(in: input.bytes) { result.append(key) }
        }
        for component in prefixPath(prefix) {
            if let key = component.codingKey(in: input.bytes) { result.append(key) }
        }
        if let key = entry.codingKey(in: input.bytes) { result.append(key) }
        return result
    }

    /// `error` with the coding path appended to its context.
    func decorate(_ error: WireError, pathDepth: Int, prefix: Int, entry: WirePathEntry = .none) -> WireError {
        let rendered = WireCodingPath.render(codingPath(pathDepth: pathDepth, prefix: prefix, entry: entry))
        return WireError(error.kind, offset: error.offset, "\(error.context) (coding path: \(rendered))")
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try checkContainer(current, "a keyed container", pathDepth: path.count, prefix: 0)
        return KeyedDecodingContainer(
            WireKeyedDecodingContainer<Key>(
                core: self, start: current.start, end: current.end, pathDepth: path.count, prefix: 0, depth: currentDepth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try makeUnkeyed(current, pathDepth: path.count, prefix: 0, depth: currentDepth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        WireSingleValueDecodingContainer(core: self, value: current, pathDepth: path.count, depth: currentDepth)
    }

    /// Records `error` to be thrown at the end of the top-level decode.
    func deferError(_ error: WireError) {
        let target = root ?? self
        if target.deferredError == nil {
            target.deferredError = error
        }
    }

    // MARK: Containers

    /// Throws `typeMismatch` unless `value` is `len`, as containers are, and counts the
    /// container against ``Limits/maxDecodedValues``.
    func checkContainer(
        _ value: WireValue, _ what: String, pathDepth: Int, prefix: Int,
        entry: WirePathEntry = .none
    ) throws {
        guard value.type == CodableWireType.len else {
            throw decorate(
                WireError(
                    .typeMismatch, offset: value.at,
                    "expected \(what) (wire type len), found \(CodableWireType.name(value.type))"),
                pathDepth: pathDepth, prefix: prefix, entry: entry)
        }
        try countValues(1, at: value.at, pathDepth: pathDepth, prefix: prefix, entry: entry)
    }

    /// Counts `count` decoded values (a container, or an unkeyed container's elements)
    /// against ``Limits/maxDecodedValues``, over the whole top-level decode.
    func countValues(_ count: Int, at offset: Int, pathDepth: Int, prefix: Int, entry: WirePathEntry = .none) throws {
        let counter = root ?? self
        // safe because: count is at most maxCollectionCount and the total never passes the limit.
        counter.decodedValues += count
        guard counter.decodedValues <= limits.maxDecodedValues else {
            throw decorate(
                WireError(
                    .limitExceeded, offset: offset,
                    "the value decodes to more than maxDecodedValues \(limits.maxDecodedValues) values"),
                pathDepth: pathDepth, prefix: prefix, entry: entry)
        }
    }

    /// A reader over `start..<end` of the input (a range already checked against it).
    func reader(from start: Int, to end: Int) throws(WireError) -> ByteReader {
        try ByteReader(input.bytes, range: start..<end)
    }

    /// An unkeyed container over `value`: reads and checks its element count.
    func makeUnkeyed(
        _ value: WireValue, pathDepth: Int, prefix: Int, depth: Int,
        entry: WirePathEntry = .none
    ) throws -> WireUnkeyedDecodingContainer {
        try checkContainer(value, "an unkeyed container", pathDepth: pathDepth, prefix: prefix, entry: entry)
        var content = try reader(from: value.start, to: value.end)
        var count = 0
        if !content.isAtEnd {
            let countOffset = content.cursor
            do {
                let raw = try content.readUVarint()
                guard raw <= UInt64(max(limits.maxCollectionCount, 0)) else {
                    throw WireError(
                        .limitExceeded, offset: countOffset,
                        "unkeyed container of \(raw) elements is over maxCollectionCount \(limits.maxCollectionCount)")
                }
                // Every element takes at least its wire type byte.
                guard raw <= UInt64(content.remaining) else {
                    throw WireError(
                        .truncated, offset: countOffset,
                        "unkeyed container claims \(raw) elements but only \(content.remaining) bytes follow")
                }
                count = Int(raw)
            } catch let error as WireError {
                throw decorate(error, pathDepth: pathDepth, prefix: prefix, entry: entry)
            }
            try countValues(count, at: countOffset, pathDepth: pathDepth, prefix: prefix, entry: entry)
        }
        let nestedPrefix: Int
        if case .none = entry { nestedPrefix = prefix } else { nestedPrefix = extendPrefix(prefix, entry) }
        return WireUnkeyedDecodingContainer(
            core: self, reader: content, total: count,
            pathDepth: pathDepth, prefix: nestedPrefix, depth: depth)
    }

    /// Throws `depthExceeded` unless a value one level below `parentDepth` is allowed.
    @inline(__always) func checkDepth(
        _ parentDepth: Int, at offset: Int, pathDepth: Int,
        prefix: Int, entry: WirePathEntry
    ) throws {
        guard parentDepth < limits.maxNestingDepth else {
            throw decorate(
                WireError(
                    .depthExceeded, offset: offset,
                    "nesting deeper than maxNestingDepth \(limits.maxNestingDepth)"),
                pathDepth: pathDepth, prefix: prefix, entry: entry)
        }
    }

    /// Decodes a nested `T` from `value`, one level below `parentDepth`.
    func decodeValue<T: Decodable>(
        _ type: T.Type, _ value: WireValue, parentDepth: Int,
        pathDepth: Int, prefix: Int, entry: WirePathEntry
    ) throws -> T {
        try checkDepth(parentDepth, at: value.at, pathDepth: pathDepth, prefix: prefix, entry: entry)
        if WireDecoderCore.isFoundationType(T.self), isCompactForm(T.self, value) {
            return try decodeFoundation(T.self, value, pathDepth: pathDepth, prefix: prefix, entry: entry)
        }
        let savedValue = current
        let savedDepth = currentDepth
        let savedCount = path.count
        if prefix != 0 {
            path.append(contentsOf: prefixPath(prefix))
        }
        if case .none = entry {} else { path.append(entry) }
        current = value
        currentDepth = parentDepth + 1
        defer {
            current = savedValue
            currentDepth = savedDepth
            if path.count > savedCount {
                path.removeSubrange(savedCount...)
            }
        }
        return try T(from: self)
    }

    /// Decodes the top-level value.
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        if WireDecoderCore.isFoundationType(T.self), isCompactForm(T.self, current) {
            return try decodeFoundation(T.self, current, pathDepth: 0, prefix: 0, entry: .none)
        }
        return try T(from: self)
    }

    /// Scalars with the coding path added to their errors.
    @inline(__always)
    func scalar<S: WireScalar>(
        _ type: S.Type, _ value: WireValue, pathDepth: Int,
        prefix: Int, entry: WirePathEntry
    ) throws -> S {
        do {
            return try S.read(value, from: input, limits: limits)
        } catch {
            throw decorate(error, pathDepth: pathDepth, prefix: prefix, entry: entry)
        }
    }

    // MARK: Keyed lookup

    /// A keyed entry: its value and its key (a number, or where its name's bytes are).
    struct Entry {
        var value: WireValue
        /// Named: the offset of the key bytes. Numbered: the offset of the header.
        var keyOffset: Int
        var keyLength: Int
        /// The key's number, or -1 for a named entry.
        var number: Int
        /// The entry's coding path component; numbered keys are rebuilt as `Key`s.
        @inline(__always) func path<Key: CodingKey>(_ type: Key.Type) -> WirePathEntry {
            number >= 0 ? .number(number, Key.self) : .key(offset: keyOffset, length: keyLength)
        }
        /// Whether a lookup found the key (``notFound`` otherwise).
        var found: Bool { keyOffset >= 0 }
        /// The result of a lookup that found nothing. (A sentinel rather than an Optional:
        /// Optional's metadata lookups in the generic containers cost more than the search.)
        static let notFound = Entry(value: .null(at: 0), keyOffset: -1, keyLength: 0, number: -1)
    }

    /// Finds the entry for `key` in a keyed container's content `start..<end`: by number when
    /// ``WireKeyForm/number(of:)`` numbers the key, else by name; ``Entry/notFound`` if absent.
    /// (No fallback between the forms: a type whose keys change form reads old data as missing.)
    @inline(__always)
    func lookup<Key: CodingKey>(_ key: Key, start: Int, end: Int, depth: Int) throws(WireError) -> Entry {
        let content = try reader(from: start, to: end)
        if let number = WireKeyForm.number(of: key) {
            return try findEntry(
                UnsafeBufferPointer(start: nil, count: 0), number: number,
                in: content, depth: depth) ?? .notFound
        }
        var name = key.stringValue
        let result: Result<Entry, WireError> = name.withUTF8 { utf8 in
            do throws(WireError) {
                return .success(try findEntry(utf8, number: -1, in: content, depth: depth) ?? .notFound)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Finds the entry with key `key` (a name's UTF-8 bytes, with `number` -1) or number
    /// `number` in a keyed container's `content`, starting after the previous hit at this
    /// depth and wrapping around once.
    func findEntry(
        _ key: UnsafeBufferPointer<UInt8>, number: Int, in content: ByteReader,
        depth: Int
    ) throws(WireError) -> Entry? {
        let start = content.cursor
        let end = content.end
        var resume = start
        let useHint = depth >= 0
        if useHint {
            let hint = hint(at: depth)
            if hint.start == start {
                resume = hint.next
            }
        }
        var reader = content
        reader.cursor = resume
        var stop = end
        for pass in 0..<2 {
            if pass == 1 {
                if resume == start { break }
                reader.cursor = start
                stop = resume
            }
            while reader.cursor < stop {
                let entry = try readEntry(&reader)
                guard entry.number == number else { continue }
                if number >= 0 || (entry.keyLength == key.count && keyMatches(key, at: entry.keyOffset)) {
                    if useHint { setHint(Hint(start: start, next: reader.cursor), at: depth) }
                    return entry
                }
            }
        }
        return nil
    }

    /// Reads one keyed entry (header, key, value) and moves past it. The header is
    /// `uvarint(keyLength << 3 | wireType)`; key length 0 is followed by `uvarint(tag)`:
    /// 0 for the empty name, `number + 1` for a numbered key.
    @inline(__always) func readEntry(_ reader: inout ByteReader) throws(WireError) -> Entry {
        let headerOffset = reader.cursor
        let header = try reader.readUVarint()
        let keyLength = header >> 3
        let type = UInt8(truncatingIfNeeded: header & 7)
        if keyLength == 0 {
            let tagOffset = reader.cursor
            let tag = try reader.readUVarint()
            if tag != 0 {
                // safe because: tag >= 1, so tag - 1 cannot underflow.
                guard tag - 1 <= UInt64(Int.max) else {
                    throw WireError(
                        .invalidValue, offset: tagOffset,
                        "key number \(tag - 1) is over Int.max")
                }
                let value = try WireValue.read(type: type, typeOffset: headerOffset, from: &reader)
                return Entry(value: value, keyOffset: headerOffset, keyLength: 0, number: Int(tag - 1))
            }
        }
        guard keyLength <= UInt64(reader.remaining) else {
            throw WireError(
                .truncated, offset: headerOffset,
                "key of \(keyLength) bytes runs past the end of its container (\(reader.remaining) bytes left)")
        }
        let keyOffset = reader.cursor
        reader.cursor += Int(keyLength)  // safe because: keyLength <= remaining was just checked.
        let value = try WireValue.read(type: type, typeOffset: headerOffset, from: &reader)
        return Entry(value: value, keyOffset: keyOffset, keyLength: Int(keyLength), number: -1)
    }

    @inline(__always) func keyMatches(_ key: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        input.bytes.withUnsafeBufferPointer { bytes in
            // safe because: readEntry proved offset + key.count <= the container end <= bytes.count.
            guard offset >= 0, offset + key.count <= bytes.count else { return false }
            var index = 0
            while index < key.count {
                if bytes[offset + index] != key[index] { return false }
                index += 1
            }
            return true
        }
    }

    // MARK: Foundation types

    /// Whether `T` is one of the Foundation types with a compact form of their own.
    /// (Metatype comparisons, not casts or Optionals: cheap in unspecialised generic code.)
    @inline(__always)
    static func isFoundationType<T>(_ type: T.Type) -> Bool {
        T.self == UUID.self || T.self == Date.self || T.self == Data.self || T.self == URL.self
            || T.self == Decimal.self
    }

    /// Whether `value` holds a Foundation type's compact form (`T` is one of them).
    ///
    /// Anything else is decoded through `T`'s own `Codable` conformance, as written by a type
    /// that forwards `encode(to:)` to a wrapped UUID, Date, Data, URL or Decimal: a UUID
    /// string, a Date's Double (fixed32 when exact as a Float), Data's unkeyed bytes, URL's
    /// and Decimal's keyed containers. JSON reads those back too (or throws for Data);
    /// since the compact forms of Data, URL and Decimal are `opaque`, never `len`, neither
    /// form can be taken for the other.
    @inline(__always)
    func isCompactForm<T>(_ type: T.Type, _ value: WireValue) -> Bool {
        if T.self == UUID.self { return value.type == CodableWireType.fixed128 }
        if T.self == Date.self { return value.type == CodableWireType.fixed64 }
        return value.type == CodableWireType.opaque
    }

    /// Reads a UUID, Date, Data, URL or Decimal (`T` is one of them) in its compact form
    /// with the coding path added to errors.
    func decodeFoundation<T>(
        _ type: T.Type, _ value: WireValue, pathDepth: Int,
        prefix: Int, entry: WirePathEntry
    ) throws -> T {
        do {
            return try decodeFoundation(T.self, value)
        } catch {
            throw decorate(error, pathDepth: pathDepth, prefix: prefix, entry: entry)
        }
    }

    private func decodeFoundation<T>(_ type: T.Type, _ value: WireValue) throws(WireError) -> T {
        var reader = input
        reader.cursor = value.start
        let length = value.end - value.start
        if T.self == UUID.self {
            guard value.type == CodableWireType.fixed128 else { throw mismatch("UUID", value) }
            let uuid = try reader.withBytes(count: 16) { raw in
                UUID(
                    uuid: (
                        raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                        raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                    ))
            }
            return sameType(uuid, as: T.self)
        }
        if T.self == Date.self {
            guard value.type == CodableWireType.fixed64 else { throw mismatch("Date", value) }
            let seconds = Double(bitPattern: try reader.readFixed64LE())
            return sameType(Date(timeIntervalSinceReferenceDate: seconds), as: T.self)
        }
        guard value.type == CodableWireType.opaque else {
            throw mismatch("Data, URL or Decimal (wire type opaque)", value)
        }
        if T.self == Data.self {
            guard length <= limits.maxBytesLength else {
                throw WireError(
                    .limitExceeded, offset: value.at,
                    "Data of \(length) bytes is over maxBytesLength \(limits.maxBytesLength)")
            }
            let data = try reader.withBytes(count: length) { raw in Data(raw) }
            return sameType(data, as: T.self)
        }
        let text = try String.read(
            WireValue(type: CodableWireType.len, at: value.at, start: value.start, end: value.end),
            from: input, limits: limits)
        if T.self == URL.self {
            guard let url = URL(string: text) else {
                throw WireError(.invalidValue, offset: value.at, "\"\(text.prefix(80))\" is not a URL")
            }
            return sameType(url, as: T.self)
        }
        guard T.self == Decimal.self else {
            throw WireError(.typeMismatch, offset: value.at, "\(T.self) has no compact Foundation form")
        }
        guard let decimal = WireDecimal.parse(text) else {
            throw WireError(.invalidValue, offset: value.at, "\"\(text.prefix(80))\" is not a Decimal")
        }
        return sameType(decimal, as: T.self)
    }

    private func mismatch(_ what: String, _ value: WireValue) -> WireError {
        WireError(.typeMismatch, offset: value.at, "expected \(what), found wire type \(CodableWireType.name(value.type))")
    }
}
