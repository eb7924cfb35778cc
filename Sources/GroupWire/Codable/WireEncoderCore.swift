#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `Encoder` behind ``WireEncoder``: one instance per top-level `encode` call (plus one
/// per `nestedContainer` / `superEncoder`), shared by every value and container it encodes.
///
/// Values are written straight into one buffer in the order they arrive. Each value being
/// encoded has a ``WireEncodingLevel`` on a stack: the offset of the byte whose low three
/// bits receive its wire type once the value decides what it is (a scalar, a keyed or an
/// unkeyed container), and for containers the one byte reserved for the length (and the
/// element count), patched when the value finishes (growing the prefix if it needs more than
/// one byte). Containers that may be filled after their siblings (`nestedContainer`,
/// `superEncoder`) get their own core and buffer, spliced into this one when the value that
/// owns them finishes: all of a value's children in one pass that copies its tail once, so
/// a container handing out n nested containers costs O(n), not O(n^2).
final class WireEncoderCore: Encoder {
    /// What one value being encoded has become so far.
    struct Level {
        enum State: UInt8 { case pending, keyed, unkeyed, single }
        /// Unique per level, so containers can tell whether their level is still the top.
        var serial: Int
        /// The byte whose low three bits receive the value's wire type.
        var typeOffset: Int
        var state: State
        /// Keyed/unkeyed: the reserved length byte (the count byte follows for unkeyed).
        var lengthOffset: Int
        /// Unkeyed: elements written so far.
        var count: Int
        /// Where this level's entries in ``WireEncoderCore/children`` begin.
        var childrenStart: Int
        /// How this value hangs off its parent, for coding paths.
        var path: WirePathEntry
    }

    /// A container handed out by `nestedContainer` or `superEncoder`, to be spliced in later.
    struct PendingChild {
        /// Where the child's bytes go.
        let offset: Int
        /// For keyed parents: the entry header whose wire type bits the child decides.
        let headerOffset: Int?
        let node: WireEncoderCore
    }

    // Dynamic exclusivity checks on these three cost about a sixth of the encoding time
    // (measured with callgrind on the benchmark shapes). Safe because: only this module
    // touches them, always through short accesses that never overlap (no inout access to
    // one of them is held across a call that could reach the same property).
    @exclusivity(unchecked) var writer: ByteWriter
    @exclusivity(unchecked) var levels: [Level] = []
    @exclusivity(unchecked) var children: [PendingChild] = []
    var nextSerial = 0
    /// The first error raised where the protocol gives no way to throw (or that user code
    /// swallowed); the top-level `encode` rethrows it.
    var failure: (any Error)?
    /// Set once a child core has been spliced into its parent; later writes are errors.
    var sealed = false
    let userInfoStorage: [CodingUserInfoKey: any Sendable]
    /// The coding path above this core (for child cores).
    let basePath: [any CodingKey]
    /// How deep this core's first level sits (0 for the top-level core).
    let baseDepth: Int
    /// ``Limits/maxNestingDepth``: a value nested deeper is refused.
    let maxDepth: Int

    init(
        userInfo: [CodingUserInfoKey: any Sendable], maxDepth: Int, basePath: [any CodingKey] = [],
        baseDepth: Int = 0, capacity: Int = 64
    ) {
        writer = ByteWriter(capacity: capacity)
        userInfoStorage = userInfo
        self.basePath = basePath
        self.baseDepth = baseDepth
        self.maxDepth = maxDepth
        levels.reserveCapacity(8)
    }

    // MARK: Encoder

    var userInfo: [CodingUserInfoKey: Any] { userInfoStorage }

    var codingPath: [any CodingKey] {
        var path = basePath
        for level in levels {
            if let key = level.path.codingKey(in: writer.storage) {
                path.append(key)
            }
        }
        return path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard let top = levels.last, !sealed else {
            record(misuse: "keyed container requested from an encoder whose value has finished")
            return KeyedEncodingContainer(WireKeyedEncodingContainer(core: self, serial: -1))
        }
        switch top.state {
        case .pending:
            openContainer(.keyed)
        case .keyed:
            break
        case .unkeyed, .single:
            record(misuse: "keyed container requested for a value already encoded as \(top.state)")
            return KeyedEncodingContainer(WireKeyedEncodingContainer(core: self, serial: -1))
        }
        return KeyedEncodingContainer(WireKeyedEncodingContainer(core: self, serial: top.serial))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        guard let top = levels.last, !sealed else {
            record(misuse: "unkeyed container requested from an encoder whose value has finished")
            return WireUnkeyedEncodingContainer(core: self, serial: -1)
        }
        switch top.state {
        case .pending:
            openContainer(.unkeyed)
        case .unkeyed:
            break
        case .keyed, .single:
            record(misuse: "unkeyed container requested for a value already encoded as \(top.state)")
            return WireUnkeyedEncodingContainer(core: self, serial: -1)
        }
        return WireUnkeyedEncodingContainer(core: self, serial: top.serial)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        WireSingleValueEncodingContainer(core: self, serial: levels.last?.serial ?? -1)
    }

    // MARK: Levels

    /// Turns the pending top level into a container: wire type `len`, a reserved length byte
    /// and, for unkeyed containers, a reserved count byte.
    private func openContainer(_ state: Level.State) {
        let top = levels.count - 1
        setType(CodableWireType.len, at: levels[top].typeOffset)
        levels[top].state = state
        levels[top].lengthOffset = writer.count
        writer.write(0)
        if state == .unkeyed {
            writer.write(0)
        }
    }

    @inline(__always) func setType(_ type: UInt8, at offset: Int) {
        // safe because: offsets come from positions this core wrote and never removed.
        writer.storage[offset] |= type
    }

    /// Throws unless the level `serial` is the innermost value being encoded.
    @inline(__always) func checkTop(_ serial: Int) throws {
        guard let top = levels.last, top.serial == serial, !sealed else {
            throw misuse("a container was written to after its value finished, or while a nested value was being encoded")
        }
    }

    func misuse(_ message: String) -> EncodingError {
        EncodingError.invalidValue(
            (), EncodingError.Context(codingPath: codingPath, debugDescription: message))
    }

    func record(misuse message: String) {
        if failure == nil {
            failure = misuse(message)
        }
    }

    /// Pushes a level for a value whose wire type goes at `typeOffset`.
    @inline(__always) func push(typeOffset: Int, path: WirePathEntry) {
        nextSerial += 1  // safe because: one increment per value, far below Int.max.
        levels.append(
            Level(
                serial: nextSerial, typeOffset: typeOffset, state: .pending,
                lengthOffset: 0, count: 0, childrenStart: children.count, path: path))
    }

    /// Encodes `value` at a slot whose wire type goes at `typeOffset`.
    func encodeValue<T: Encodable>(_ value: T, typeOffset: Int, path: WirePathEntry) throws {
        // The top-level value has depth 0; each enclosing value adds one, as the decoder counts.
        guard baseDepth + levels.count <= maxDepth else {
            let error = misuse("nesting deeper than maxNestingDepth \(maxDepth)")
            if failure == nil {
                failure = error
            }
            throw error
        }
        if encodeSpecial(value, typeOffset: typeOffset) {
            return
        }
        push(typeOffset: typeOffset, path: path)
        let depth = levels.count
        do {
            try value.encode(to: self)
            guard levels.count == depth else {
                throw misuse("nested value left the encoder unbalanced")
            }
            try pop()
        } catch {
            if failure == nil {
                failure = error
            }
            if levels.count >= depth {
                levels.removeSubrange((depth - 1)...)
            }
            // The first problem recorded is the precise one: a misuse the protocol gave no
            // way to throw comes before what failed because of it.
            throw failure ?? error
        }
    }

    /// Finishes the top level: splices its pending children, then patches its lengths.
    func pop() throws {
        guard let level = levels.popLast() else { return }
        if children.count > level.childrenStart {
            try spliceChildren(from: level.childrenStart)
        }
        switch level.state {
        case .pending:
            // The value wrote nothing: it becomes an empty keyed container (JSON's `{}`).
            setType(CodableWireType.len, at: level.typeOffset)
            writer.write(0)
        case .keyed:
            patchPrefix(at: level.lengthOffset, value: writer.count - level.lengthOffset - 1)
        case .unkeyed:
            patchPrefix(at: level.lengthOffset + 1, value: level.count)
            patchPrefix(at: level.lengthOffset, value: writer.count - level.lengthOffset - 1)
        case .single:
            break
        }
    }

    /// Splices the pending children from `first` on into the buffer, at the offsets where
    /// they were requested, copying the bytes after the first child's offset once.
    private func spliceChildren(from first: Int) throws {
        let pending = children[first...]
        children.removeSubrange(first...)
        var parts: [(offset: Int, bytes: [UInt8], skip: Int)] = []
        parts.reserveCapacity(pending.count)
        var added = 0
        for child in pending {
            let bytes = try child.node.finish()
            guard let childType = bytes.first else { continue }  // finish always writes a type byte.
            var skip = 0
            if let header = child.headerOffset {
                // A keyed entry: the wire type goes in the header's low bits, not a byte.
                setType(childType & 7, at: header)
                skip = 1
            }
            parts.append((child.offset, bytes, skip))
            added += bytes.count - skip
        }
        guard let start = parts.first?.offset else { return }
        // Offsets only grow: children are queued in the order they are requested.
        var tail: [UInt8] = []
        tail.reserveCapacity(writer.count - start + added)
        var copied = start
        for part in parts {
            tail.append(contentsOf: writer.storage[copied..<part.offset])
            tail.append(contentsOf: part.bytes[part.skip...])
            copied = part.offset
        }
        tail.append(contentsOf: writer.storage[copied...])
        writer.storage.replaceSubrange(start..., with: tail)
    }

    /// Stores `value` as a uvarint in the one byte reserved at `offset`, inserting more bytes
    /// when it needs them.
    @inline(__always) func patchPrefix(at offset: Int, value: Int) {
        if value < 0x80 {
            writer.storage[offset] = UInt8(truncatingIfNeeded: value)
        } else {
            var prefix = ByteWriter(capacity: Varint.maxLength)
            prefix.writeUVarint(UInt64(value))
            writer.storage.replaceSubrange(offset..<(offset + 1), with: prefix.storage)
        }
    }

    /// Closes a child core and returns its bytes: its wire type byte, then its data.
    func finish() throws -> [UInt8] {
        if let failure { throw failure }
        guard levels.count == 1 else {
            throw misuse("nested container finished while one of its values was still being encoded")
        }
        try pop()
        sealed = true
        if let failure { throw failure }
        return writer.bytes
    }

    // MARK: Writing entries

    /// Writes a keyed entry's header and key, returning where the header starts and the
    /// entry's coding path component. A named key is `uvarint(keyLength << 3 | type)` and
    /// its UTF-8 bytes (an empty name: `type`, `00`); a numbered key is `type` (key length
    /// field 0), then `uvarint(number + 1)`.
    @inline(__always) @discardableResult
    func writeHeader<Key: CodingKey>(_ key: Key, type: UInt8) -> (header: Int, path: WirePathEntry) {
        let header = writer.count
        if let number = WireKeyForm.number(of: key) {
            writer.write(type)
            // safe because: 0 <= number <= Int.max, so number + 1 fits UInt64.
            writer.writeUVarint(UInt64(number) + 1)
            return (header, .number(number, Key.self))
        }
        var name = key.stringValue
        return name.withUTF8 { utf8 in
            // safe because: a String's UTF-8 count is far below 2^61, so the shift cannot overflow.
            writer.writeUVarint(UInt64(utf8.count) << 3 | UInt64(type))
            if utf8.isEmpty {
                writer.write(0)  // key length 0 is followed by 0 for "no number": the empty name.
            }
            let keyOffset = writer.count
            writer.write(contentsOf: UnsafeRawBufferPointer(utf8))
            return (header, .key(offset: keyOffset, length: utf8.count))
        }
    }

    /// Creates the core for a `nestedContainer` or `superEncoder` of the top level and queues
    /// it to be spliced in at the current position.
    func makeChild<Key: CodingKey>(serial: Int, key: Key?, index: Int?) -> WireEncoderCore {
        var path = codingPath
        if let key {
            path.append(key)
        } else if let index {
            path.append(WireCodingKey(intValue: index))
        }
        // The child's container is one level below the value handing it out.
        let child = WireEncoderCore(
            userInfo: userInfoStorage, maxDepth: maxDepth, basePath: path,
            baseDepth: baseDepth + levels.count, capacity: 32)
        child.writer.write(0)
        child.push(typeOffset: 0, path: .none)
        guard let top = levels.last, top.serial == serial, !sealed else {
            record(misuse: "nested container requested from a container whose value has finished")
            return child  // never spliced: its writes are dropped and the encode fails.
        }
        // Nested containers nest without encodeValue, so they are bounded here too (and an
        // unbounded chain of them would otherwise recurse when spliced).
        guard child.baseDepth <= maxDepth else {
            record(misuse: "nesting deeper than maxNestingDepth \(maxDepth)")
            return child  // never spliced, as above.
        }
        if let key {
            let header = writeHeader(key, type: 0).header
            children.append(PendingChild(offset: writer.count, headerOffset: header, node: child))
        } else {
            children.append(PendingChild(offset: writer.count, headerOffset: nil, node: child))
            levels[levels.count - 1].count += 1
        }
        return child
    }

    // MARK: Foundation types

    /// Writes UUID, Date, Data, URL and Decimal in their compact forms; false for other types.
    /// (Metatype comparisons, not casts: cheap in unspecialised generic code.)
    @inline(__always)
    func encodeSpecial<T>(_ value: T, typeOffset: Int) -> Bool {
        if T.self == UUID.self {
            let uuid = sameType(value, as: UUID.self)
            setType(CodableWireType.fixed128, at: typeOffset)
            withUnsafeBytes(of: uuid.uuid) { writer.write(contentsOf: $0) }
            return true
        }
        if T.self == Date.self {
            let date = sameType(value, as: Date.self)
            setType(CodableWireType.fixed64, at: typeOffset)
            writer.writeFixed64LE(date.timeIntervalSinceReferenceDate.bitPattern)
            return true
        }
        if T.self == Data.self {
            let data = sameType(value, as: Data.self)
            setType(CodableWireType.opaque, at: typeOffset)
            writer.writeUVarint(UInt64(data.count))
            writer.write(contentsOf: data)
            return true
        }
        if T.self == URL.self {
            let url = sameType(value, as: URL.self)
            setType(CodableWireType.opaque, at: typeOffset)
            url.absoluteString.write(to: &writer)
            return true
        }
        if T.self == Decimal.self {
            let decimal = sameType(value, as: Decimal.self)
            setType(CodableWireType.opaque, at: typeOffset)
            WireDecimal.text(decimal).write(to: &writer)
            return true
        }
        return false
    }
}

/// `value` as a `U`, for callers that have just checked `T.self == U.self`.
///
/// Neither a dynamic cast nor an Optional: in unspecialised generic code both cost a runtime
/// metadata lookup per call (callgrind showed them dominating nested decoding).
@inline(__always)
func sameType<T, U>(_ value: T, as type: U.Type) -> U {
    // safe because: every caller checked T.self == U.self first, so this is the identity
    // (and unsafeBitCast itself checks the sizes match).
    unsafeBitCast(value, to: U.self)
}
