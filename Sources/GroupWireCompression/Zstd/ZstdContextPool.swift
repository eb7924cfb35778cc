import GroupWire
import Synchronization

/// A libzstd context (`ZSTD_CCtx*` or `ZSTD_DCtx*`) with what it currently references.
///
/// `@unchecked Sendable` is safe because a context is only ever used by the single caller
/// that took it out of a ``ZstdContextPool``: the pool hands each context to one borrower
/// and gets it back when that borrower is done, and its mutable fields are only touched by
/// that borrower. libzstd contexts may move between threads as long as two threads never
/// use one at the same time.
final class ZstdContext: @unchecked Sendable {
    /// The libzstd context.
    let pointer: OpaquePointer
    /// The dictionary the context references (`ZSTD_CCtx_refCDict` / `ZSTD_DCtx_refDDict`),
    /// or nil in no-dictionary mode. Holding it keeps the prepared dictionary alive, so an
    /// idle context never points at freed memory, and lets the next borrower skip
    /// re-referencing the same dictionary.
    var dictionary: ZstdDictionary?
    /// False once a libzstd call left the context in a state we cannot vouch for; the
    /// pool then frees it instead of reusing it.
    var isReusable = true
    /// The next idle context while this one sits in the pool's free list.
    fileprivate var nextIdle: ZstdContext?

    init(pointer: OpaquePointer) {
        self.pointer = pointer
    }
}

/// A small free list of reusable libzstd contexts, so that no message pays for creating
/// and freeing one (a `ZSTD_CCtx` costs hundreds of KB of tables to set up).
///
/// Concurrent callers each borrow their own context; a context is created only when the
/// free list is empty, and at most ``maxIdle`` contexts are kept when they come back.
final class ZstdContextPool: Sendable {
    /// How many idle contexts the pool keeps; extra ones are freed on return.
    let maxIdle: Int
    private let idle: Mutex<FreeList>
    private let create: @Sendable () throws -> ZstdContext
    private let destroy: @Sendable (ZstdContext) -> Void

    /// Creates a pool.
    /// - Parameters:
    ///   - maxIdle: idle contexts kept for reuse.
    ///   - create: makes a context with its parameters already set; throws when libzstd fails.
    ///   - destroy: frees a context's libzstd memory.
    init(
        maxIdle: Int,
        create: @escaping @Sendable () throws -> ZstdContext,
        destroy: @escaping @Sendable (ZstdContext) -> Void
    ) {
        self.maxIdle = max(1, maxIdle)
        self.idle = Mutex(FreeList())
        self.create = create
        self.destroy = destroy
    }

    deinit {
        while let context = idle.withLock({ $0.pop() }) {
            destroy(context)
        }
    }

    /// Runs `body` with a context nobody else is using, then returns it to the pool.
    func withContext<Result>(_ body: (ZstdContext) throws -> Result) throws -> Result {
        let context = try idle.withLock { $0.pop() } ?? create()
        defer { giveBack(context) }
        return try body(context)
    }

    /// How many contexts sit idle right now (for tests).
    var idleCount: Int {
        idle.withLock { $0.count }
    }

    private func giveBack(_ context: ZstdContext) {
        let kept =
            context.isReusable
            && idle.withLock { list -> Bool in
                guard list.count < maxIdle else { return false }
                list.push(context)
                return true
            }
        if !kept {
            destroy(context)
        }
    }
}

/// The idle contexts, linked through ``ZstdContext/nextIdle``: push and pop are two
/// reference moves under the pool's lock, with no array growth or uniqueness checks on
/// the per-message path.
private struct FreeList {
    private var head: ZstdContext?
    private(set) var count = 0

    mutating func push(_ context: ZstdContext) {
        context.nextIdle = head
        head = context
        count += 1  // safe because count <= maxIdle, a small Int.
    }

    mutating func pop() -> ZstdContext? {
        guard let context = head else { return nil }
        head = context.nextIdle
        context.nextIdle = nil
        count -= 1  // safe because the list held at least this context.
        return context
    }
}
