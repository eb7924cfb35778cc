import CZstd
import GroupWire
import Synchronization

/// A zstd dictionary in the standard format (RFC 8878 section 5, the format `zstd --train`
/// and ZDICT write), prepared once for compression and decompression.
///
/// The dictionary's ``id`` is the 32-bit id stored in its own header (bytes 4...7, little
/// endian). It is what compressed frames carry in their `dictionaryID` field, so a file
/// written with ``bytes`` works unchanged with `zstd -D FILE`. The id is never 0.
///
/// The decompression dictionary (`ZSTD_DDict`) is built when the value is created; the
/// compression dictionary (`ZSTD_CDict`) depends on the compression level and is built on
/// first use for each level, then reused. Both are read-only after creation, so one
/// dictionary can be used by any number of tasks at once.
public final class ZstdDictionary: Sendable {
    /// Largest dictionary accepted, in bytes (16 MiB). Trained dictionaries are usually
    /// 4 to 112 KB.
    public static let maxSize = 16 << 20

    /// The dictionary id: nonzero, as stored in the dictionary's header.
    public let id: UInt32
    /// The dictionary file contents, in the standard zstd dictionary format.
    public let bytes: [UInt8]

    let decompressionDictionary: ZstdPreparedDictionary
    private let compressionDictionaries: Mutex<[Int32: ZstdPreparedDictionary]>

    /// Loads a dictionary from its standard-format bytes.
    /// - Parameter bytes: a dictionary as written by ZDICT, `zstd --train` or ``bytes``.
    /// - Throws: `WireError` `.invalidDictionary` when the bytes are not a zstd
    ///   dictionary (wrong magic, id 0, entropy tables libzstd rejects, over ``maxSize``).
    public init(bytes: [UInt8]) throws(WireError) {
        guard bytes.count <= Self.maxSize else {
            throw WireError(
                .invalidDictionary, "dictionary is \(bytes.count) bytes, over the \(Self.maxSize)-byte limit")
        }
        guard bytes.count > 8, Array(bytes[0..<4]) == ZstdFormat.dictionaryMagic else {
            throw WireError(
                .invalidDictionary, offset: 0,
                "not a zstd dictionary: it must start with the magic 37 A4 30 EC and an id")
        }
        let id = bytes.withUnsafeBytes { ZDICT_getDictID($0.baseAddress, $0.count) }
        guard id != 0 else {
            throw WireError(.invalidDictionary, offset: 4, "dictionary id is 0; ids must be nonzero")
        }
        let ddict = bytes.withUnsafeBytes { ZSTD_createDDict($0.baseAddress, $0.count) }
        guard let ddict else {
            throw WireError(.invalidDictionary, "libzstd rejected the dictionary's entropy tables or content")
        }
        self.id = id
        self.bytes = bytes
        self.decompressionDictionary = ZstdPreparedDictionary(pointer: ddict, free: { ZSTD_freeDDict($0) })
        self.compressionDictionaries = Mutex([:])
    }

    /// Returns a copy of this dictionary stamped with another id (the 4 header bytes
    /// after the magic); the content and entropy tables are unchanged.
    /// - Parameter newID: the new id, nonzero.
    /// - Throws: `WireError` `.invalidDictionary` when `newID` is 0.
    public func withID(_ newID: UInt32) throws(WireError) -> ZstdDictionary {
        var stamped = bytes
        // safe because init checked bytes.count > 8.
        stamped[4] = UInt8(truncatingIfNeeded: newID)
        stamped[5] = UInt8(truncatingIfNeeded: newID >> 8)
        stamped[6] = UInt8(truncatingIfNeeded: newID >> 16)
        stamped[7] = UInt8(truncatingIfNeeded: newID >> 24)
        return try ZstdDictionary(bytes: stamped)
    }

    /// The prepared compression dictionary for `level`, built on first use.
    func compressionDictionary(level: Int32) throws(WireError) -> ZstdPreparedDictionary {
        try compressionDictionaries.withLock { (prepared) throws(WireError) in
            if let handle = prepared[level] {
                return handle
            }
            let cdict = bytes.withUnsafeBytes { ZSTD_createCDict($0.baseAddress, $0.count, level) }
            guard let cdict else {
                throw WireError(
                    .compressionFailed, "libzstd could not prepare dictionary \(id) for level \(level)")
            }
            let handle = ZstdPreparedDictionary(pointer: cdict, free: { ZSTD_freeCDict($0) })
            prepared[level] = handle
            return handle
        }
    }
}

/// Owns a prepared dictionary (`ZSTD_CDict*` or `ZSTD_DDict*`) and frees it.
///
/// `@unchecked Sendable` is safe because a prepared dictionary is never modified after
/// `ZSTD_createCDict` / `ZSTD_createDDict` returns; libzstd documents that one may be
/// referenced by many contexts on many threads at once.
final class ZstdPreparedDictionary: @unchecked Sendable {
    let pointer: OpaquePointer
    private let free: @Sendable (OpaquePointer) -> Int

    init(pointer: OpaquePointer, free: @escaping @Sendable (OpaquePointer) -> Int) {
        self.pointer = pointer
        self.free = free
    }

    deinit {
        // The free functions fail only for pointers libzstd did not allocate; there is
        // nothing a deinitializer could do about that, so the result is dropped.
        _ = free(pointer)
    }
}

/// A dictionary as one decompression uses it: its id and prepared tables, with no
/// reference counting on the per-message path.
///
/// A handle does not keep its dictionary alive: whoever makes one must (the caller's
/// reference for the duration of a call, or a context's remembered lookup).
struct DictionaryHandle {
    /// No dictionary.
    static var none: DictionaryHandle { DictionaryHandle(nil) }

    /// The dictionary id, 0 for none.
    let id: UInt32
    /// The prepared decompression dictionary (`ZSTD_DDict*`), nil for none.
    let decompressionDictionary: OpaquePointer?
    /// The dictionary itself, for the rare paths that must hold it.
    let object: Unmanaged<ZstdDictionary>?

    /// A handle for `dictionary`, which the caller keeps alive while the handle is used.
    init(_ dictionary: ZstdDictionary?) {
        id = dictionary?.id ?? 0
        decompressionDictionary = dictionary?.decompressionDictionary.pointer
        object = dictionary.map { Unmanaged.passUnretained($0) }
    }
}
