import GroupWire
import Synchronization

/// The dictionaries a peer can compress and decompress with, keyed by dictionary id.
///
/// Safe to share between tasks: lookups and additions are guarded by a mutex, and the
/// dictionaries themselves are immutable.
public final class DictionaryStore: Sendable {
    private let dictionaries: Mutex<[UInt32: ZstdDictionary]>
    /// Bumped under the lock by every change, so that a lookup cached with the generation
    /// it was made at can be revalidated with one atomic load instead of the lock.
    private let changes = Atomic<UInt64>(0)

    /// The number of changes so far; any ``add(_:)`` that stores a dictionary and any
    /// ``remove(id:)`` that removes one changes it.
    var generation: UInt64 {
        changes.load(ordering: .acquiring)
    }

    /// Creates a store holding `dictionaries`.
    /// - Throws: `WireError` `.invalidDictionary` when two different dictionaries share an id.
    public init(_ dictionaries: [ZstdDictionary] = []) throws(WireError) {
        self.dictionaries = Mutex([:])
        for dictionary in dictionaries {
            try add(dictionary)
        }
    }

    /// Adds a dictionary. Adding the same bytes twice is allowed and keeps one copy.
    /// - Throws: `WireError` `.invalidDictionary` when a different dictionary already has its id.
    public func add(_ dictionary: ZstdDictionary) throws(WireError) {
        try dictionaries.withLock { (stored) throws(WireError) in
            if let existing = stored[dictionary.id] {
                guard existing.bytes == dictionary.bytes else {
                    throw WireError(
                        .invalidDictionary,
                        "dictionary id \(dictionary.id) is already taken by a different dictionary")
                }
                return
            }
            stored[dictionary.id] = dictionary
            changes.wrappingAdd(1, ordering: .releasing)
        }
    }

    /// Removes the dictionary with `id`, returning it if it was present.
    @discardableResult
    public func remove(id: UInt32) -> ZstdDictionary? {
        dictionaries.withLock { stored in
            let removed = stored.removeValue(forKey: id)
            if removed != nil {
                changes.wrappingAdd(1, ordering: .releasing)
            }
            return removed
        }
    }

    /// The dictionary with `id`, or nil.
    public func dictionary(id: UInt32) -> ZstdDictionary? {
        dictionaries.withLock { $0[id] }
    }

    /// The dictionary with `id`.
    /// - Throws: `WireError` `.unknownDictionary` naming the id when the store lacks it.
    public func require(id: UInt32) throws(WireError) -> ZstdDictionary {
        guard let dictionary = dictionary(id: id) else {
            throw WireError(.unknownDictionary, "no dictionary with id \(id) in the store")
        }
        return dictionary
    }

    /// The ids of every stored dictionary, ascending.
    public var ids: [UInt32] {
        dictionaries.withLock { $0.keys.sorted() }
    }
}
