/// A bounded memory of recently finished messages: the oldest is forgotten when a new one
/// would go over the capacity.
struct FinishedMessages<Key: Hashable & Sendable>: Sendable {
    private let capacity: Int
    private var members: Set<Key> = []
    private var ring: [Key] = []
    /// Index in `ring` of the oldest key once the ring is full.
    private var oldest = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    func contains(_ key: Key) -> Bool {
        members.contains(key)
    }

    mutating func insert(_ key: Key) {
        guard capacity > 0, !members.contains(key) else { return }
        if ring.count < capacity {
            ring.append(key)
        } else {
            members.remove(ring[oldest])
            ring[oldest] = key
            oldest = oldest + 1 == capacity ? 0 : oldest + 1
        }
        members.insert(key)
    }
}
