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
        return UUID(
            uuid: (
                UInt8(truncatingIfNeeded: low), UInt8(truncatingIfNeeded: low >> 8),
                UInt8(truncatingIfNeeded: low >> 16), UInt8(truncatingIfNeeded: low >> 24),
                UInt8(truncatingIfNeeded: low >> 32), UInt8(truncatingIfNeeded: low >> 40),
                UInt8(truncatingIfNeeded: low >> 48), UInt8(truncatingIfNeeded: low >> 56),
                UInt8(truncatingIfNeeded: high), UInt8(truncatingIfNeeded: high >> 8),
                UInt8(truncatingIfNeeded: high >> 16), UInt8(truncatingIfNeeded: high >> 24),
                UInt8(truncatingIfNeeded: high >> 32), UInt8(truncatingIfNeeded: high >> 40),
                UInt8(truncatingIfNeeded: high >> 48), UInt8(truncatingIfNeeded: high >> 56)
            ))
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
    @inlinable public mutating func _enterNested(depth: Int) throws(WireError) -> Int {
        guard depth < limits.maxNestingDepth else {
            throw WireError(
                .depthExceeded, offset: reader.position, "nesting deeper than maxNestingDepth \(limits.maxNestingDepth)")
        }
        try _countValue()
        let count = try readLength(limit: limits.maxMessageSize, "nested message")
        let enclosing = reader.limit
        reader.limit = reader.position + count  // readLength checked count <= remaining, so this is <= enclosing
        return enclosing
    }

    /// Restores the end that ``_enterNested(depth:)`` returned, after the nested value has
    /// been read to its end.
    @inlinable public mutating func _leaveNested(restoring enclosing: Int) {
        reader.limit = enclosing
    }
}
