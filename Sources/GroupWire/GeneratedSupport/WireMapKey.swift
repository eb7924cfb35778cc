#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A type that spec maps may use as key: integers, Bool, String and UUID.
///
/// Gives the canonical entry order writers use (Spec/FORMAT.md, "Canonical writing":
/// integers numerically, String by UTF-8 bytes, `false < true`, UUID by its 16 bytes) and
/// the JSON object key spelling (Spec/FORMAT.md, "JSON form": decimal, `true`/`false`, uppercase UUID).
public protocol _WireMapKey: Hashable, Sendable {
    /// Whether `lhs` comes before `rhs` in the canonical entry order.
    static func wireOrder(_ lhs: Self, _ rhs: Self) -> Bool
    /// The key as a JSON object key.
    var wireJSONKey: String { get }
    /// Parses a JSON object key; nil when it is not a valid spelling.
    init?(wireJSONKey: String)
}

extension _WireMapKey where Self: FixedWidthInteger {
    /// Numeric order.
    @inlinable public static func wireOrder(_ lhs: Self, _ rhs: Self) -> Bool { lhs < rhs }
    /// The decimal spelling.
    public var wireJSONKey: String { String(self) }
    /// Parses a decimal spelling.
    public init?(wireJSONKey: String) { self.init(wireJSONKey, radix: 10) }
}

extension Int8: _WireMapKey {}
extension Int16: _WireMapKey {}
extension Int32: _WireMapKey {}
extension Int64: _WireMapKey {}
extension UInt8: _WireMapKey {}
extension UInt16: _WireMapKey {}
extension UInt32: _WireMapKey {}
extension UInt64: _WireMapKey {}

extension Bool: _WireMapKey {
    /// `false` before `true`.
    public static func wireOrder(_ lhs: Bool, _ rhs: Bool) -> Bool { !lhs && rhs }
    /// `true` or `false`.
    public var wireJSONKey: String { self ? "true" : "false" }
    /// Parses `true` or `false`.
    public init?(wireJSONKey: String) {
        switch wireJSONKey {
        case "true": self = true
        case "false": self = false
        default: return nil
        }
    }
}

extension String: _WireMapKey {
    /// Lexicographic order of the UTF-8 bytes (not Unicode collation).
    /// Compared where the bytes lie when both strings have contiguous UTF-8 (native and
    /// small strings do); the generic walk over the UTF-8 views, about 30 instructions a
    /// comparison, was a sixth of a PlaybackState encode (its map's keys are sorted).
    @inlinable public static func wireOrder(_ lhs: String, _ rhs: String) -> Bool {
        let inPlace = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right -> Bool in
                let shared = Swift.min(left.count, right.count)
                var index = 0
                while index < shared {
                    if left[index] != right[index] { return left[index] < right[index] }
                    index += 1
                }
                return left.count < right.count
            }
        }
        if let inPlace, let order = inPlace { return order }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
    /// The string itself.
    public var wireJSONKey: String { self }
    /// The string itself.
    public init?(wireJSONKey: String) { self = wireJSONKey }
}

extension UUID: _WireMapKey {
    /// Lexicographic order of the 16 bytes.
    public static func wireOrder(_ lhs: UUID, _ rhs: UUID) -> Bool {
        withUnsafeBytes(of: lhs.uuid) { left in
            withUnsafeBytes(of: rhs.uuid) { right in
                left.lexicographicallyPrecedes(right)
            }
        }
    }
    /// The uppercase 8-4-4-4-12 spelling.
    public var wireJSONKey: String { uuidString }
    /// Parses the 8-4-4-4-12 spelling in either case.
    public init?(wireJSONKey: String) { self.init(uuidString: wireJSONKey) }
}

extension Dictionary where Key: _WireMapKey {
    /// The entries in canonical key order, the order generated writers use.
    /// Inlinable so the sort is specialized for the key type (measured: unspecialized it
    /// cost more than the rest of a PlaybackState encode).
    @inlinable public func wireSortedEntries() -> [(key: Key, value: Value)] {
        sorted { Key.wireOrder($0.key, $1.key) }
    }

    /// Calls `body` with each entry in canonical key order. Maps of up to 16 entries are
    /// ordered by an insertion sort of their indices on the stack (no allocation, and each
    /// entry is read once to call `body`); larger ones are sorted once.
    @inlinable public func forEachWireSorted(_ body: (Key, Value) -> Void) {
        guard count > 1 else {
            if let entry = first { body(entry.key, entry.value) }
            return
        }
        guard count > 16 else {
            withUnsafeTemporaryAllocation(of: Index.self, capacity: count) { order in
                guard let base = order.baseAddress else { return }
                var sorted = 0
                var next = startIndex
                while next != endIndex, sorted < order.count {
                    // Insertion sort: shift the indices whose keys come after this one's.
                    let key = keys[next]
                    var slot = sorted
                    while slot > 0, Key.wireOrder(key, keys[base[slot - 1]]) {
                        (base + slot).moveInitialize(from: base + slot - 1, count: 1)
                        slot -= 1
                    }
                    (base + slot).initialize(to: next)
                    sorted += 1
                    formIndex(after: &next)
                }
                for position in 0..<sorted {
                    let entry = self[base[position]]
                    body(entry.key, entry.value)
                }
                base.deinitialize(count: sorted)
            }
            return
        }
        for entry in wireSortedEntries() {
            body(entry.key, entry.value)
        }
    }
}
