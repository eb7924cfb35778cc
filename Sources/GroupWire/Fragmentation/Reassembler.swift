/// Puts fragmented messages back together, keyed by (sender, message id), with bounded memory.
///
/// Every fragment is checked on its own before anything is allocated (count within
/// ``Limits/maxFragmentCount``, index below count, total length within
/// ``Limits/maxMessageSize`` and consistent with the count and the fragment sizes; see
/// ``FragmentLayout/implied(by:bodyCount:limits:)``). The first valid fragment of a
/// message, whichever index it has, allocates one buffer of the message's total length;
/// each fragment is copied into place. Exact duplicates are ignored; a fragment that
/// contradicts what was received drops the whole message. Fragments may arrive in any
/// order and senders may interleave freely.
///
/// The memory held is bounded by ``ReassemblyLimits``: partial messages per sender, a
/// global byte budget with oldest-first eviction, and a timeout. Every dropped message is
/// reported as a ``DropEvent`` and counted in ``metrics``. Completed messages are returned
/// at once and never held, so nothing complete can be evicted.
///
/// A reassembler is a value owned by one receiver; to share it between tasks, keep it in
/// an actor or a `Mutex`.
public struct Reassembler<Sender: Hashable & Sendable>: Sendable {
    /// Identifies a message: its sender and the sender's id for it.
    struct Key: Hashable, Sendable {
        let sender: Sender
        let messageID: UInt64
    }

    /// The frame limits fragments are checked against.
    public let limits: Limits
    /// The bounds on partial messages.
    public let reassemblyLimits: ReassemblyLimits
    /// The time source for timeouts.
    public let clock: ReassemblyClock
    /// Counters since creation, and what is held now.
    public private(set) var metrics = ReassemblyMetrics()

    private var partials: [Key: PartialMessage] = [:]
    /// Each sender's open message ids, oldest first.
    private var openBySender: [Sender: [UInt64]] = [:]
    /// Every partial message opened, oldest first, with entries for finished ones removed
    /// lazily: an entry is live while `partials[key]?.sequence == sequence`.
    private var arrivals: [(sequence: UInt64, key: Key)] = []
    private var arrivalsHead = 0
    private var finished: FinishedMessages<Key>
    private var nextSequence: UInt64 = 0

    /// Creates a reassembler.
    /// - Parameters:
    ///   - limits: the frame limits (fragment count, message size).
    ///   - reassemblyLimits: the bounds on partial messages.
    ///   - clock: the time source for timeouts.
    public init(limits: Limits = .default, reassemblyLimits: ReassemblyLimits = .default, clock: ReassemblyClock = .continuous())
    {
        self.limits = limits
        self.reassemblyLimits = reassemblyLimits
        self.clock = clock
        finished = FinishedMessages(capacity: reassemblyLimits.rememberedFinishedMessages)
    }

    /// The number of partial messages held.
    public var partialMessageCount: Int { partials.count }

    /// The bytes accounted to partial messages now; never above ``ReassemblyLimits/byteBudget``.
    public var accountedBytes: Int { metrics.accountedBytes }

    /// What a partial message of `totalLength` bytes in `count` fragments counts against
    /// the budget: its buffer, its received-bitmap and 128 bytes of bookkeeping.
    public static func accountedBytes(totalLength: Int, count: Int) -> Int {
        totalLength + (count + 63) / 64 * 8 + 128
    }

    /// Handles one frame from `sender`.
    ///
    /// Data and control frames are returned as they are. A fragment is validated, then
    /// copied into its message; the message is returned when its last missing fragment
    /// arrives. Partial messages past their timeout are dropped first.
    /// - Returns: the completed message, if any, and every drop this frame caused.
    public mutating func receive(_ frame: Frame, from sender: Sender) -> ReassemblyResult<Sender> {
        frame.body.withUnsafeBytes { body in
            receive(frame, body: body, from: sender)
        }
    }

    /// Decodes one frame that fills `bytes` (one transport message) and handles it like
    /// ``receive(_:from:)``, copying a fragment's body straight from `bytes` into its
    /// message: the fast path, with no body array per fragment.
    /// - Throws: the ``FrameDecoder`` error when `bytes` is not one valid frame within
    ///   ``limits``; nothing about any message changes then.
    public mutating func receive(frameBytes bytes: [UInt8], from sender: Sender) throws(WireError) -> ReassemblyResult<Sender> {
        let (header, range) = try FrameDecoder(limits: limits).decodeBorrowingBody(bytes)
        return bytes.withUnsafeBytes { raw in
            receive(header: header, body: UnsafeRawBufferPointer(rebasing: raw[range]), from: sender)
        }
    }

    /// Handles one frame whose header ``FrameDecoder/decodeBorrowingBody(_:)`` decoded and
    /// whose body is `body` (the header's own ``Frame/body`` is ignored), like
    /// ``receive(_:from:)``: a fragment's body is copied straight into its message.
    public mutating func receive(header: Frame, body: UnsafeRawBufferPointer, from sender: Sender) -> ReassemblyResult<Sender> {
        guard header.kind == .fragment else {
            var whole = header
            whole.body = Array(body)
            return receive(whole, from: sender)
        }
        return receive(header, body: body, from: sender)
    }

    /// Handles `frame`, whose body (for a fragment) is `body`.
    private mutating func receive(_ frame: Frame, body: UnsafeRawBufferPointer, from sender: Sender) -> ReassemblyResult<Sender> {
        metrics.framesReceived += 1
        var result = ReassemblyResult<Sender>(drops: expire())
        guard frame.kind == .fragment || frame.fragment != nil else {
            metrics.wholeFrames += 1
            result.message = frame
            return result
        }
        guard frame.kind == .fragment, let info = frame.fragment else {
            let messageID = frame.fragment?.messageID ?? 0
            result.drops.append(
                dropped(
                    .invalidFragment, sender: sender, messageID: messageID, fragmentsReceived: 0,
                    "a \(frame.kind) frame with\(frame.fragment == nil ? "out" : "") a fragment header"))
            return result
        }
        let key = Key(sender: sender, messageID: info.messageID)
        if finished.contains(key) {
            metrics.lateFragments += 1
            return result
        }
        let layout: FragmentLayout
        do throws(WireError) {
            guard (1...Frame.maxTypeID).contains(frame.typeID) else {
                throw WireError(.invalidFragment, "type id \(frame.typeID) is outside 1...\(Frame.maxTypeID)")
            }
            layout = try FragmentLayout.implied(by: info, bodyCount: body.count, limits: limits)
        } catch {
            let received = close(key)?.receivedCount ?? 0
            result.drops.append(
                dropped(
                    error.kind == .limitExceeded ? .limitExceeded : .invalidFragment,
                    sender: sender, messageID: info.messageID, fragmentsReceived: received, error.context))
            return result
        }
        let index = Int(info.index)
        if var partial = partials[key] {
            if let contradiction = Self.contradiction(between: partial, and: frame, layout: layout) {
                _ = close(key)
                result.drops.append(
                    dropped(
                        .conflict, sender: sender, messageID: info.messageID,
                        fragmentsReceived: partial.receivedCount, contradiction))
                return result
            }
            if partial.has(index) {
                guard partial.holds(body, at: index) else {
                    _ = close(key)
                    result.drops.append(
                        dropped(
                            .conflict, sender: sender, messageID: info.messageID,
                            fragmentsReceived: partial.receivedCount,
                            "fragment \(index) arrived again with different bytes"))
                    return result
                }
                metrics.duplicateFragments += 1
                return result
            }
            // Take the partial out of the dictionary so its buffer is uniquely referenced
            // and the copy below writes in place.
            partials[key] = nil
            partial.insert(body, at: index)
            metrics.fragmentsAccepted += 1
            partials[key] = partial
            if partial.isComplete {
                result.message = complete(key)
            }
            return result
        }
        result.drops += open(key, frame: frame, body: body, layout: layout, index: index)
        return result
    }

    /// Drops every partial message whose ``ReassemblyLimits/timeout`` has passed.
    /// ``receive(_:from:)`` does this itself; call it when no frames arrive for a while.
    /// - Returns: one ``DropReason/timeout`` event per message dropped.
    public mutating func expire() -> [DropEvent<Sender>] {
        let now = clock.now()
        var drops: [DropEvent<Sender>] = []
        while let key = oldestPartial(), let partial = partials[key], now - partial.started >= reassemblyLimits.timeout {
            _ = close(key)
            drops.append(
                dropped(
                    .timeout, sender: key.sender, messageID: key.messageID, fragmentsReceived: partial.receivedCount,
                    "\(partial.receivedCount) of \(partial.layout.count) fragments arrived within \(reassemblyLimits.timeout)"))
        }
        return drops
    }

    /// Drops every partial message from `sender`, releasing its bytes: call it when the
    /// participant leaves, rather than waiting for the timeout.
    /// - Returns: one ``DropReason/senderGone`` event per message dropped, oldest first.
    public mutating func removeSender(_ sender: Sender) -> [DropEvent<Sender>] {
        let open = openBySender[sender] ?? []
        return open.map { messageID in
            evict(Key(sender: sender, messageID: messageID), .senderGone, "the sender left before the message completed")
        }
    }

    // MARK: - Opening, completing and closing messages

    /// Opens a partial message for its first valid fragment, making room within the limits.
    private mutating func open(_ key: Key, frame: Frame, body: UnsafeRawBufferPointer, layout: FragmentLayout, index: Int)
        -> [DropEvent<Sender>]
    {
        let accounted = Self.accountedBytes(totalLength: layout.totalLength, count: layout.count)
        guard accounted <= reassemblyLimits.byteBudget else {
            finished.insert(key)
            return [
                dropped(
                    .limitExceeded, sender: key.sender, messageID: key.messageID, fragmentsReceived: 0,
                    "a \(layout.totalLength)-byte message needs \(accounted) bytes, over the byte budget \(reassemblyLimits.byteBudget)"
                )
            ]
        }
        guard reassemblyLimits.maxPartialMessagesPerSender > 0 else {
            finished.insert(key)
            return [
                dropped(
                    .senderLimit, sender: key.sender, messageID: key.messageID, fragmentsReceived: 0,
                    "maxPartialMessagesPerSender is 0: fragmented messages are not accepted")
            ]
        }
        var drops: [DropEvent<Sender>] = []
        while let open = openBySender[key.sender], open.count >= reassemblyLimits.maxPartialMessagesPerSender,
            let oldestID = open.first
        {
            drops.append(
                evict(
                    Key(sender: key.sender, messageID: oldestID), .senderLimit,
                    "sender has \(open.count) partial messages, the most allowed is \(reassemblyLimits.maxPartialMessagesPerSender)"
                ))
        }
        while metrics.accountedBytes + accounted > reassemblyLimits.byteBudget, let oldest = oldestPartial() {
            drops.append(
                evict(
                    oldest, .budgetEviction,
                    "evicted to make room for \(accounted) bytes within the byte budget \(reassemblyLimits.byteBudget)"))
        }
        let sequence = nextSequence
        nextSequence += 1
        var partial = PartialMessage(
            typeID: frame.typeID, compression: frame.compression, session: frame.session, layout: layout,
            sequence: sequence, started: clock.now(), accountedBytes: accounted)
        partial.insert(body, at: index)
        metrics.fragmentsAccepted += 1
        partials[key] = partial
        openBySender[key.sender, default: []].append(key.messageID)
        appendArrival(sequence: sequence, key: key)
        metrics.partialMessages = partials.count
        metrics.accountedBytes += accounted
        metrics.peakAccountedBytes = max(metrics.peakAccountedBytes, metrics.accountedBytes)
        return drops
    }

    /// Removes a completed message and returns it as a data frame.
    private mutating func complete(_ key: Key) -> Frame? {
        guard let partial = close(key) else { return nil }
        metrics.messagesReassembled += 1
        metrics.bytesReassembled += partial.layout.totalLength
        return Frame(
            kind: .data, typeID: partial.typeID, compression: partial.compression, session: partial.session, body: partial.buffer)
    }

    /// Removes a partial message to make room and reports it.
    private mutating func evict(_ key: Key, _ reason: DropReason, _ detail: String) -> DropEvent<Sender> {
        let received = close(key)?.receivedCount ?? 0
        return dropped(reason, sender: key.sender, messageID: key.messageID, fragmentsReceived: received, detail)
    }

    /// Marks a message finished, so later fragments of it are ignored, and removes its
    /// partial state if it has any, releasing its accounted bytes.
    /// - Returns: the partial message that was removed.
    private mutating func close(_ key: Key) -> PartialMessage? {
        finished.insert(key)
        guard let partial = partials.removeValue(forKey: key) else { return nil }
        if var open = openBySender.removeValue(forKey: key.sender) {
            open.removeAll { $0 == key.messageID }
            if !open.isEmpty {
                openBySender[key.sender] = open
            }
        }
        metrics.accountedBytes -= partial.accountedBytes
        metrics.partialMessages = partials.count
        return partial
    }

    /// Counts a drop and builds its event.
    private mutating func dropped(
        _ reason: DropReason, sender: Sender, messageID: UInt64, fragmentsReceived: Int, _ detail: String
    ) -> DropEvent<Sender> {
        metrics.messagesDropped += 1
        metrics.drops[reason, default: 0] += 1
        return DropEvent(
            reason: reason, sender: sender, messageID: messageID, fragmentsReceived: fragmentsReceived, detail: detail)
    }

    /// Describes how `frame` contradicts what `partial` already holds, or nil if it agrees.
    private static func contradiction(between partial: PartialMessage, and frame: Frame, layout: FragmentLayout) -> String? {
        if frame.typeID != partial.typeID {
            return "type id \(frame.typeID) differs from \(partial.typeID) of the earlier fragments"
        }
        if frame.compression != partial.compression {
            return "compression header differs from the earlier fragments'"
        }
        if frame.session != partial.session {
            return "session header differs from the earlier fragments'"
        }
        if layout.count != partial.layout.count {
            return "fragment count \(layout.count) differs from \(partial.layout.count) of the earlier fragments"
        }
        if layout.totalLength != partial.layout.totalLength {
            return "total length \(layout.totalLength) differs from \(partial.layout.totalLength) of the earlier fragments"
        }
        if layout.fragmentBodySize != partial.layout.fragmentBodySize {
            return
                "fragment body size \(layout.fragmentBodySize) differs from \(partial.layout.fragmentBodySize) of the earlier fragments"
        }
        return nil
    }

    // MARK: - Arrival order

    /// The oldest partial message still held.
    private mutating func oldestPartial() -> Key? {
        while arrivalsHead < arrivals.count {
            let entry = arrivals[arrivalsHead]
            if partials[entry.key]?.sequence == entry.sequence {
                return entry.key
            }
            arrivalsHead += 1
        }
        return nil
    }

    /// Records a new partial message, dropping stale entries when they pile up so the
    /// list stays proportional to the partial messages held.
    private mutating func appendArrival(sequence: UInt64, key: Key) {
        if arrivals.count >= 64, arrivals.count > 4 * partials.count {
            arrivals = arrivals[arrivalsHead...].filter { partials[$0.key]?.sequence == $0.sequence }
            arrivalsHead = 0
        }
        arrivals.append((sequence, key))
    }
}
