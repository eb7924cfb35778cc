#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PayloadReader {
    /// Reads a UUID (exactly 16 length-delimited bytes) with two fixed-width loads.
    ///
    /// Same checks and errors as ``readUUID()``; generated decoders use this one because it
    /// goes through no generic closure (measured: `readUUID()` spent most of its time
    /// instantiating `Result` metadata).
    @inlinable public mutating func _readUUID() throws(WireError) -> UUID {
        let offset = reader.position
        let count = try readLength(limit: 16, "UUID")
        guard count == 16 else {
            throw WireError(.invalidValue, offset: offset, "a UUID takes 16 bytes, not \(count)")
        }
        let low = try reader.readFixed64LE()
        let high = try reader.readFixed64LE()
        // A UUID is its 16 bytes (`uuid_t`) in order, and the two words hold them in
        // little-endian order: the bytes are reinterpreted, not rebuilt one by one through
        // `UUID(uuid:)`, a call into Foundation (measured: a third of a UUID's decoding).
        // `unsafeBitCast` traps if the sizes ever differ; `GeneratedReaderTests` checks them.
        return unsafeBitCast((low.littleEndian, high.littleEndian), to: UUID.self)
    }

    /// Reads a length-delimited UTF-8 string, with a fast path for ASCII.
    ///
    /// Same checks and errors as ``readString()``. ASCII text (the common case) is valid
    /// UTF-8 by construction, so it is decoded without the generic validating initializer;
    /// anything else is validated by ``ByteReader/readUTF8(count:)``.
    public mutating func _readString() throws(WireError) -> String {
        try _countValue()
        let count = try readLength(limit: limits.maxStringLength, "string")
        let start = reader.position
        let bytes = reader.bytes
        // safe because: readLength checked start + count <= end <= bytes.count.
        let ascii: String? = bytes.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[start..<(start + count)])
            for byte in slice where byte >= 0x80 {
                return nil
            }
            return String(decoding: slice, as: UTF8.self)
        }
        if let ascii {
            try reader.skip(count: count)
            return ascii
        }
        return try reader.readUTF8(count: count)
    }
}

extension PayloadReader {
    /// Reads the length prefix of a nested value and narrows the reader to that value, for
    /// generated decoders that read nested values in place (no sub-reader, so no reference
    /// counting per nested value). Every read inside is bounded by the nested value's end
    /// exactly as a sub-reader's would be, so errors carry the same kinds and offsets as
    /// the dynamic codec's (Spec/FORMAT.md, "Error offsets").
    ///
    /// Returns the enclosing end, which the caller hands to ``_leaveNested(restoring:)``
    /// once the value is read.
    /// - Parameter depth: the nesting level of the value holding the length prefix.
    /// - Throws: ``WireError/Kind/depthExceeded`` when `depth` reaches
    ///   ``Limits/maxNestingDepth``; ``WireError/Kind/limitExceeded`` or
    ///   ``WireError/Kind/truncated`` for a bad length.
    @inlinable @inline(__always) public mutating func _enterNested(depth: Int) throws(WireError) -> Int {
        // Fast path: within the depth and value limits, a one-byte length (a value under 128
        // bytes) that fits what is left and the size limit. Anything else takes the checks
        // in their documented order, which report what is wrong.
        let enclosing = reader.limit
        let start = reader.cursor
        if depth < limits.maxNestingDepth, decodedValues < limits.maxDecodedValues, start < enclosing {
            // safe because: start < limit <= bytes.count.
            let length = Int(reader.bytes.withUnsafeBufferPointer { $0[start] })
            if length < 0x80, length < enclosing &- start, length <= limits.maxMessageSize {
                decodedValues &+= 1  // safe because: below maxDecodedValues, an Int
                reader.cursor = start &+ 1  // safe because: start < limit
                reader.limit = start &+ 1 &+ length  // safe because: start + 1 + length <= limit, checked above
                return enclosing
            }
        }
        return try _enterNestedChecked(depth: depth)
    }

    /// ``_enterNested(depth:)`` with every check in order: depth, value count, length.
    @usableFromInline mutating func _enterNestedChecked(depth: Int) throws(WireError) -> Int {
        guard depth < limits.maxNestingDepth else {
            throw WireError(
                .depthExceeded, offset: reader.position, "nesting deeper than maxNestingDepth \(limits.maxNestingDepth)")
        }
        try _countValue()
        let enclosing = reader.limit
        let count = try readLength(limit: limits.maxMessageSize, "nested message")
        reader.limit = reader.position + count  // readLength checked count <= remaining, so this is <= enclosing
        return enclosing
    }

    /// Before element `count + 1` of an array (after its key; inside a packed run, at its
    /// first byte): refuses it past ``Limits/maxCollectionCount``, where the dynamic codec does.
    @inlinable @inline(__always) public func _checkElementCount(_ count: Int) throws(WireError) {
        if count >= limits.maxCollectionCount { throw _tooManyElements() }
    }

    /// Whether a run of array elements read from here to `end`, after `count` read before,
    /// could pass ``Limits/maxCollectionCount``: each element takes at least two bytes (its
    /// key and a length or value byte; the first one's key is read already), so when this is
    /// false no element of the run needs ``_checkElementCount(_:)``, which would not throw.
    @inlinable @inline(__always) public func _elementsMayPassLimit(_ count: Int, before end: Int) -> Bool {
        count + (end - reader.position) / 2 + 1 >= limits.maxCollectionCount
    }

    @usableFromInline func _tooManyElements() -> WireError {
        WireError(
            .limitExceeded, offset: reader.position,
            "array has more than maxCollectionCount \(limits.maxCollectionCount) elements")
    }

    /// After a map entry that began at `entryOffset` (its length prefix): refuses a new key
    /// past ``Limits/maxCollectionCount`` entries, at the entry, where the dynamic codec does.
    @inlinable public func _checkEntryCount<Key, Value>(_ map: [Key: Value], adding key: Key, entryOffset: Int) throws(WireError)
    {
        if map.count >= limits.maxCollectionCount, map[key] == nil {
            throw WireError(
                .limitExceeded, offset: entryOffset, "map has more than maxCollectionCount \(limits.maxCollectionCount) entries")
        }
    }

    /// Whether the next byte, before `end`, is the one-byte field key `key` (the next
    /// element of the array a generated decoder is reading); if it is, moves past it, as the
    /// decoder's loop would have read it.
    @inlinable @inline(__always) public mutating func _nextIsKey(_ key: UInt8, before end: Int) -> Bool {
        let position = reader.cursor
        guard position < end, position < reader.limit, reader.bytes[position] == key else { return false }
        reader.cursor = position &+ 1  // safe because: position < limit
        return true
    }

    /// Restores the end that ``_enterNested(depth:)`` returned, after the nested value has
    /// been read to its end.
    @inlinable public mutating func _leaveNested(restoring enclosing: Int) {
        reader.limit = enclosing
    }
}
