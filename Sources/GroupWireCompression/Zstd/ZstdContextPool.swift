import GroupWire
import Synchronization

/// A libzstd context (`ZSTD_CCtx*` or `ZSTD_DCtx*`) owned by exactly one borrower at a time.
///
/// `@unchecked Sendable` is safe because a handle is only ever used by the single caller
/// that took it out of a ``ZstdContextPool`` (the pool hands each handle to one borrower
/// and gets it back when that borrower is done); libzstd contexts may move between
/// threads as long as two threads never use one at the same time.
struct ZstdContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// A small free list of reusable libzstd contexts, so that no message pays for creating
/// and freeing one (a `ZSTD_CCtx` costs hundreds of KB of tables to set up).
///
/// Concurrent callers each borrow their own context; a context is created only when the
/// free list is empty, and at most ``maxIdle`` contexts are kept when they come back.
final class ZstdContextPool: Sendable {
    /// How many idle contexts the pool keeps; extra ones are freed on return.
    let maxIdle: Int
    private let idle: Mutex<[ZstdContextHandle]>
    private let create: @Sendable () throws -> ZstdContextHandle
    private let clean: @Sendable (ZstdContextHandle) -> Bool
    private let destroy: @Sendable (ZstdContextHandle) -> Void

    /// Creates a pool.
    /// - Parameters:
    ///   - maxIdle: idle contexts kept for reuse.
    ///   - create: makes a context with its parameters already set; throws when libzstd fails.
    ///   - clean: returns a used context to a clean state (no dictionary referenced, no
    ///     session in progress); returns false if libzstd failed, and the context is freed.
    ///   - destroy: frees a context.
    init(
        maxIdle: Int,
        create: @escaping @Sendable () throws -> ZstdContextHandle,
        clean: @escaping @Sendable (ZstdContextHandle) -> Bool,
        destroy: @escaping @Sendable (ZstdContextHandle) -> Void
    ) {
        self.maxIdle = max(1, maxIdle)
        self.idle = Mutex([])
        self.create = create
        self.clean = clean
        self.destroy = destroy
    }

    deinit {
        let handles = idle.withLock { handles in
            let all = handles
            handles.removeAll()
            return all
        }
        for handle in handles {
            destroy(handle)
        }
    }

    /// Runs `body` with a context nobody else is using, then returns it to the pool.
    func withContext<Result>(_ body: (OpaquePointer) throws -> Result) throws -> Result {
        let handle = try idle.withLock { $0.popLast() } ?? create()
        defer { giveBack(handle) }
        return try body(handle.pointer)
    }

    /// How many contexts sit idle right now (for tests).
    var idleCount: Int {
        idle.withLock { $0.count }
    }

    private func giveBack(_ handle: ZstdContextHandle) {
        guard clean(handle) else {
            destroy(handle)
            return
        }
        let kept = idle.withLock { handles -> Bool in
            guard handles.count < maxIdle else { return false }
            handles.append(handle)
            return true
        }
        if !kept {
            destroy(handle)
        }
    }
}
