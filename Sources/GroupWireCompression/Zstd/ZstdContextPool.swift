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
    /// re-referencing the same dictionary. (One-pass decompression passes its dictionary
    /// as an argument and leaves this alone.)
    var dictionary: ZstdDictionary?
    /// The dictionary a decompressor last looked up by id, the store it came from and the
    /// store's generation then, so that the next lookup of the same id can skip the
    /// store's lock. Plain values, compared and copied without reference counting; they
    /// stay valid because ``lookupOwners`` keeps the store and the dictionary alive.
    private(set) var lookupKey: (store: ObjectIdentifier, generation: UInt64, dictionary: DictionaryHandle)?
    /// The objects ``lookupKey`` names.
    private var lookupOwners: (store: DictionaryStore, dictionary: ZstdDictionary)?
    /// False once a libzstd call left the context in a state we cannot vouch for; the
    /// pool then frees it instead of reusing it.
    var isReusable = true
    /// The next idle context while this one sits in the pool's free list.
    fileprivate var nextIdle: ZstdContext?
    /// Whether this is the pool's slot context, the only one that ever enters the slot.
    fileprivate var ownsSlot = false

    init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Records that `dictionary` was found in `store` at `generation`.
    /// - Returns: the dictionary's handle, valid while the context remembers the lookup.
    func rememberLookup(of dictionary: ZstdDictionary, in store: DictionaryStore, generation: UInt64) -> DictionaryHandle {
        lookupOwners = (store, dictionary)
        // safe because lookupOwners keeps the dictionary alive as long as the key is kept.
        let handle = DictionaryHandle(dictionary)
        lookupKey = (ObjectIdentifier(store), generation, handle)
        return handle
    }
}

/// A small free list of reusable libzstd contexts, so that no message pays for creating
/// and freeing one (a `ZSTD_CCtx` costs hundreds of KB of tables to set up).
///
/// Concurrent callers each borrow their own context; a context is created only when the
/// pool is empty, and at most ``maxIdle`` contexts are kept when they come back.
///
/// One context, the slot context, waits in a lock-free slot: the common case, one caller
/// at a time, takes it with one atomic exchange and puts it back with a plain release
/// store, with no lock and no reference counting. A store is enough because only the
/// slot context ever enters the slot and only its current borrower puts it back, so the
/// slot is always empty then. Other contexts wait in a free list behind a mutex, used
/// only when two or more callers overlap. The first reusable context given back while
/// there is no slot context becomes it.
final class ZstdContextPool: Sendable {
    /// How many idle contexts the pool keeps (the slot's included); extra ones are freed
    /// on return.
    let maxIdle: Int
    /// One idle context, or nil. While in the slot the context is held by one retained
    /// (+1) reference that the slot owns; `exchange` hands that ownership to exactly one
    /// taker, which gives it back to the slot or turns it into a strong reference.
    private let slot: Atomic<Unmanaged<ZstdContext>?>
    /// Whether a slot context exists (idle in the slot or borrowed).
    private let hasSlotContext: Atomic<Bool>
    private let idle: Mutex<FreeList>
    private let create: @Sendable () throws(WireError) -> ZstdContext
    private let destroy: @Sendable (ZstdContext) -> Void

    /// Creates a pool.
    /// - Parameters:
    ///   - maxIdle: idle contexts kept for reuse.
    ///   - create: makes a context with its parameters already set; throws when libzstd fails.
    ///   - destroy: frees a context's libzstd memory.
    init(
        maxIdle: Int,
        create: @escaping @Sendable () throws(WireError) -> ZstdContext,
        destroy: @escaping @Sendable (ZstdContext) -> Void
    ) {
        self.maxIdle = max(1, maxIdle)
        self.slot = Atomic(nil)
        self.hasSlotContext = Atomic(false)
        self.idle = Mutex(FreeList())
        self.create = create
        self.destroy = destroy
    }

    deinit {
        if let cached = slot.exchange(nil, ordering: .acquiring) {
            destroy(cached.takeRetainedValue())
        }
        while let context = idle.withLock({ $0.pop() }) {
            destroy(context)
        }
    }

    /// Runs `body` with a context nobody else is using, then returns it to the pool.
    func withContext<Value>(_ body: (ZstdContext) throws(WireError) -> Value) throws(WireError) -> Value {
        let borrowed = try borrow()
        defer { giveBack(borrowed) }
        // safe because the borrowed +1 reference keeps the context alive until giveBack.
        // (_withUnsafeGuaranteedRef rethrows untyped errors: the Result keeps the type.)
        let result = borrowed._withUnsafeGuaranteedRef { context in
            Result { () throws(WireError) -> Value in try body(context) }
        }
        return try result.get()
    }

    /// Takes a context nobody else is using: the slot context if it is idle (one atomic
    /// exchange, no lock, no retain), else one from the free list or a new one.
    /// - Returns: an owned (+1) reference that the caller must hand to ``giveBack(_:)``
    ///   exactly once (use `defer`).
    @inline(__always)
    func borrow() throws(WireError) -> Unmanaged<ZstdContext> {
        // Acquiring: the previous borrower's writes to the context (released when it was
        // given back) are visible here.
        if let cached = slot.exchange(nil, ordering: .acquiring) {
            return cached
        }
        return try borrowFromList()
    }

    @inline(never)
    private func borrowFromList() throws(WireError) -> Unmanaged<ZstdContext> {
        let context: ZstdContext
        if let reused = idle.withLock({ $0.pop() }) {
            context = reused
        } else {
            context = try create()
        }
        return Unmanaged.passRetained(context)
    }

    /// Returns a context from ``borrow()``: the slot context back to the slot (a release
    /// store; the +1 reference moves in as is), any other to the free list; a context
    /// that is not reusable, or one the full pool has no room for, is freed.
    @inline(__always)
    func giveBack(_ borrowed: Unmanaged<ZstdContext>) {
        // safe because the caller still owns the +1 reference from borrow().
        let isIdleSlotContext = borrowed._withUnsafeGuaranteedRef { $0.ownsSlot && $0.isReusable }
        if isIdleSlotContext {
            // Releasing: this borrower's writes to the context become visible to the next.
            slot.store(borrowed, ordering: .releasing)
            return
        }
        giveBackSlowly(borrowed)
    }

    @inline(never)
    private func giveBackSlowly(_ borrowed: Unmanaged<ZstdContext>) {
        let context = borrowed.takeRetainedValue()
        if context.ownsSlot {
            // A slot context that cannot be reused: free it and let another take its place.
            context.ownsSlot = false
            destroy(context)
            hasSlotContext.store(false, ordering: .releasing)
            return
        }
        guard context.isReusable else {
            destroy(context)
            return
        }
        if hasSlotContext.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            // The slot is empty: no slot context existed until this line.
            context.ownsSlot = true
            slot.store(Unmanaged.passRetained(context), ordering: .releasing)
            return
        }
        let kept = idle.withLock { list -> Bool in
            guard list.count < maxIdle - 1 else { return false }  // the slot holds one more.
            list.push(context)
            return true
        }
        if !kept {
            destroy(context)
        }
    }

    /// How many contexts sit idle right now (for tests).
    var idleCount: Int {
        let cached = slot.load(ordering: .acquiring) == nil ? 0 : 1
        return cached + idle.withLock { $0.count }
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
