import DequeModule
import GroupWire

/// The delivery layer's state machine (Spec/FORMAT.md, "Delivery"), without tasks or
/// locks: it numbers outgoing frames per recipient, keeps reliable ones until they are
/// acknowledged, and orders, deduplicates and acknowledges incoming ones. Every call
/// returns what to do (``Output``); ``DeliveryTransport`` does it, the fuzz target and the
/// tests inspect it.
struct DeliveryEngine {
    /// Something the caller must do.
    enum Output: Sendable, Hashable {
        /// Send `bytes` to `recipient` on the transport underneath.
        case send([UInt8], to: ParticipantID)
        /// Hand a received frame up, exactly once.
        case deliver(TransportMessage)
        /// `participant` stopped acknowledging and was removed: report it as gone.
        case removed(ParticipantID)
        /// Report `participant` reachable (the transport underneath said so, or a removed
        /// participant was heard again).
        case joined(ParticipantID)
        /// Report `participant` gone (the transport underneath said so).
        case left(ParticipantID)
    }

    /// What ``prepare(_:to:mode:now:)`` decided.
    enum Prepared {
        /// The frames, numbered, and whom each goes to.
        case ready([Output])
        /// Some recipient's buffer lacks room for the whole message now.
        case needsRoom
    }

    /// A reliable frame kept until acknowledged.
    struct Pending {
        let sequence: UInt64
        let bytes: [UInt8]
        /// When its latest copy went out (meaningless before the first).
        var sentAt: Duration = .zero
        /// The send-order number of its latest copy (per recipient, from 1), so losses are
        /// judged by what was sent after it; 0 before the first.
        var transmission: UInt64 = 0
        /// The number and time of the copy before the latest (a spurious loss is measured
        /// from the copy that arrived).
        var previousTransmission: UInt64 = 0
        var previousSentAt: Duration = .zero
        var retries = 0
        /// The receiver said it holds this frame (waiting behind a missing one): it is
        /// acknowledged for loss detection and never sent again.
        var held = false
        /// Counted in the bytes in flight: sent, not acknowledged, held or declared lost.
        var inFlight = false
        /// Declared lost and waiting to be sent again.
        var lost = false
        /// Declared lost at least once.
        var declaredLost = false

        /// A copy numbered `transmission` goes out at `now`; returns the bytes and whether
        /// the frame was counted in flight already.
        mutating func markSent(transmission: UInt64, at now: Duration) -> (bytes: [UInt8], wasInFlight: Bool) {
            previousTransmission = self.transmission
            previousSentAt = sentAt
            sentAt = now
            self.transmission = transmission
            defer { inFlight = true }
            return (bytes, inFlight)
        }

        /// The receiver holds this frame: held, no longer in flight or lost. One access to the
        /// kept frame rather than one per field (each a uniqueness check and a move out of the
        /// ring and back).
        mutating func markHeld() {
            held = true
            inFlight = false
            lost = false
        }
    }

    /// What this participant sends to one recipient.
    struct Outbound {
        let reliableStream: UInt32
        let unreliableStream: UInt32
        var nextReliable: UInt64 = 1
        var nextUnreliable: UInt64 = 1
        /// The reliable frames kept, in sequence order without gaps: `pending[i]` has
        /// sequence `acked + 1 + i`.
        var pending = Deque<Pending>()
        var pendingBytes = 0
        /// How many frames at the end of `pending` were never sent (the window or the
        /// pacer held them back).
        var unsent = 0
        /// Sequences declared lost, sent again before new frames, oldest first (entries
        /// acknowledged meanwhile are skipped).
        var resend = Deque<UInt64>()
        var acked: UInt64 = 0
        var lastProgress: Duration
        var rtt: RoundTripEstimate
        var congestion: CongestionControl
        var lossHistory: LossHistory
        var nextTransmission: UInt64 = 1
        /// The latest copy known to have arrived, by send order, and when it was sent.
        var largestAckedTransmission: UInt64 = 0
        var largestAckedSentAt: Duration = .zero
        /// Later copies acknowledged before a frame is declared lost: 3, widened by the
        /// reordering seen.
        var packetThreshold: UInt64 = 3
        /// The extra delay of overtaken frames seen, tolerated beyond the smoothed round trip.
        var reordering: Duration = .zero
        /// How late the frames that arrived far out of order lately were.
        var lateArrivals = LateArrivals()
        /// When the earliest frame below the largest acknowledged passes the time threshold.
        var lossTime: Duration?
        /// Consecutive probe timeouts without an acknowledgement of anything new.
        var probeCount = 0
        /// When the latest reliable frame went out (the probe timer runs from it).
        var lastSent: Duration = .zero
        /// The latest losses declared (at most the reorder window's number), so a duplicate the
        /// receiver reports can show one was spurious.
        var losses = Deque<Loss>()
        /// Frames declared lost and sent again as their third copy or later, by sequence and
        /// the send number of that copy: the same copy goes once more at the next tick (a
        /// doubled repair).
        var doubled = Deque<(sequence: UInt64, transmission: UInt64)>()
    }

    /// A frame declared lost: the copy that seemed lost, and the latest copy acknowledged then.
    struct Loss {
        let sequence: UInt64
        let transmission: UInt64
        let sentAt: Duration
        let largestAcknowledged: UInt64
    }

    /// The reliable stream received from one sender.
    struct ReliableInbound {
        let stream: UInt32
        var expected: UInt64 = 1
        var waiting: [UInt64: TransportMessage] = [:]
        var waitingBytes = 0
        /// The highest sequence accepted, and when it arrived.
        var highest: UInt64 = 0
        var highestArrival: Duration = .zero
        /// Frames received since the last acknowledgement, their bytes, and the highest
        /// duplicate among them.
        var receivedSinceAck = 0
        var bytesSinceAck = 0
        var duplicate: UInt64 = 0
        var ackOwed = false
    }

    /// The unreliable stream received from one sender: the highest sequence and a ring of
    /// which of the `window` below it arrived.
    struct UnreliableInbound {
        static let window: UInt64 = 1024
        let stream: UInt32
        var highest: UInt64 = 0
        var seen = [UInt64](repeating: 0, count: Int(window / 64))

        mutating func accept(_ sequence: UInt64) -> Bool? {
            if sequence > highest {
                // Forget the slots the window slides past, then mark this one.
                if sequence - highest >= Self.window {
                    for index in seen.indices { seen[index] = 0 }
                } else {
                    var slot = highest + 1
                    while slot < sequence {
                        clear(slot)
                        slot += 1
                    }
                }
                highest = sequence
                clear(sequence)
                mark(sequence)
                return true
            }
            guard highest - sequence < Self.window else { return nil }
            if isMarked(sequence) { return false }
            mark(sequence)
            return true
        }

        private func isMarked(_ sequence: UInt64) -> Bool {
            let slot = sequence % Self.window
            return seen[Int(slot / 64)] & (1 << (slot % 64)) != 0
        }

        private mutating func mark(_ sequence: UInt64) {
            let slot = sequence % Self.window
            seen[Int(slot / 64)] |= 1 << (slot % 64)
        }

        private mutating func clear(_ sequence: UInt64) {
            let slot = sequence % Self.window
            seen[Int(slot / 64)] &= ~(1 << (slot % 64))
        }
    }

    /// What this participant receives from one sender.
    struct Inbound {
        var reliable: ReliableInbound?
        var unreliable: UnreliableInbound?
        /// Incarnations ended by newer ones, newest last (at most ``retiredLimit``).
        var retired: [UInt32] = []
    }

    static let retiredLimit = 8
    /// Probe timeouts in a row that mean persistent congestion (RFC 9002 section 7.6 takes
    /// three probe timeouts' worth of time).
    static let persistentProbes = 3
    /// Departed senders whose retired incarnations are remembered, so their frames still on
    /// the way when they come back cannot pass for a new incarnation.
    static let departedLimit = 64
    /// A receiver acknowledges at once when the frames received since its last
    /// acknowledgement reach this many bytes: the sender's smallest congestion window
    /// (``CongestionControl/minimumWindow``), which the sender fills before it waits, so a
    /// window of fewer frames than the count is acknowledged as it arrives rather than at
    /// the receiver's next tick. 2,400 bytes.
    static let ackBytes = CongestionControl.minimumWindow
    /// How many times ``DeliveryConfiguration/ackEvery`` frames a receiver waits for while
    /// its stream is in order (it holds no frame behind a missing one): 4, so 64 by
    /// default. Small frames in order are then acknowledged every 2,400 bytes (``ackBytes``)
    /// up to 64 frames, like TCP's and QUIC's every second full-sized packet.
    static let inOrderAckFactor = 4

    let configuration: DeliveryConfiguration
    private(set) var outbound: [ParticipantID: Outbound] = [:]
    private(set) var inbound: [ParticipantID: Inbound] = [:]
    /// Recipients removed for not acknowledging, until they are heard again or the
    /// transport reports them joining. Of what was kept for one, only the oldest frame
    /// stays: the probe that makes a peer that can hear us answer.
    private(set) var removed: Set<ParticipantID> = []
    /// Senders that left, oldest first (at most ``departedLimit``).
    private(set) var departed: [ParticipantID] = []
    private(set) var statistics = DeliveryStatistics()

    init(configuration: DeliveryConfiguration) {
        self.configuration = configuration
    }

    // MARK: Membership

    /// The transport reports `participant` reachable: new streams to it.
    mutating func joined(_ participant: ParticipantID, now: Duration) -> [Output] {
        removed.remove(participant)
        dropOutbound(participant)
        var reliable = configuration.incarnations() & (UInt32.max >> 1)
        if reliable == 0 { reliable = 1 }
        var unreliable = configuration.incarnations() & (UInt32.max >> 1)
        if unreliable == 0 { unreliable = 1 }
        outbound[participant] = Outbound(
            reliableStream: reliable << 1 | 1, unreliableStream: unreliable << 1, lastProgress: now,
            rtt: RoundTripEstimate(initial: configuration.initialRTT),
            congestion: CongestionControl(maximumWindow: configuration.maxBufferedBytes),
            lossHistory: LossHistory(reorderWindow: configuration.reorderWindow))
        return [.joined(participant)]
    }

    /// The transport reports `participant` gone: what it was owed is dropped.
    mutating func left(_ participant: ParticipantID) -> [Output] {
        let wasRemoved = removed.remove(participant) != nil
        dropOutbound(participant)
        forgetStreams(of: participant)
        // A removed participant was reported gone already.
        return wasRemoved ? [] : [.left(participant)]
    }

    /// Ends what was received from `participant`: waiting frames are dropped and its
    /// incarnations retired (remembered for the last ``departedLimit`` departed senders).
    private mutating func forgetStreams(of participant: ParticipantID) {
        guard var state = inbound[participant] else { return }
        if let stream = state.reliable?.stream { retire(stream, in: &state) }
        if let stream = state.unreliable?.stream { retire(stream, in: &state) }
        state.reliable = nil
        state.unreliable = nil
        inbound[participant] = state
        departed.removeAll { $0 == participant }
        departed.append(participant)
        if departed.count > Self.departedLimit {
            let oldest = departed.removeFirst()
            if inbound[oldest]?.reliable == nil, inbound[oldest]?.unreliable == nil { inbound[oldest] = nil }
        }
    }

    /// Whether frames go to `participant` now (reachable and not removed).
    func isReachable(_ participant: ParticipantID) -> Bool {
        // By index, not by value: reading `outbound[participant]` copies the recipient's
        // whole state (a retain and a release of each of its buffers) on every send.
        outbound.index(forKey: participant) != nil && !removed.contains(participant)
    }

    /// The participants frames go to now.
    var reachable: [ParticipantID] { outbound.keys.filter { !removed.contains($0) } }

    private mutating func dropOutbound(_ participant: ParticipantID) {
        if let old = outbound.removeValue(forKey: participant) {
            statistics.bufferedBytes -= old.pendingBytes
        }
    }

    // MARK: Sending

    /// Numbers the frames of one message for each recipient in `recipients` that is
    /// reachable, keeping reliable ones for retransmission.
    /// - Throws: `bufferFull` when the message is larger than ``DeliveryConfiguration/maxBufferedBytes``
    ///   (it could never fit), or when a buffer lacks room and `failWhenFull`.
    mutating func prepare(
        _ frames: [[UInt8]], to recipients: [ParticipantID], mode: DeliveryMode, now: Duration, failWhenFull: Bool
    ) throws(WireError) -> Prepared {
        let reliable = mode == .reliable
        for frame in frames {
            try DeliveryFraming.checkInsertable(frame)
        }
        // A closure, not the method itself: `filter(isReachable)` copies the whole engine.
        let targets = recipients.filter { isReachable($0) }
        if reliable {
            let size = frames.reduce(0) { $0 + $1.count + DeliveryHeader.maxEncodedSize }
            guard size <= configuration.maxBufferedBytes else {
                throw WireError(
                    .bufferFull,
                    "a message of \(size) bytes (with delivery headers) can never fit maxBufferedBytes \(configuration.maxBufferedBytes)"
                )
            }
            guard frames.count <= configuration.reorderWindow else {
                throw WireError(
                    .bufferFull,
                    "a message of \(frames.count) frames can never fit the reorder window of \(configuration.reorderWindow) frames"
                )
            }
            for target in targets {
                guard let index = outbound.index(forKey: target) else { continue }
                let pendingBytes = outbound.values[index].pendingBytes
                let pendingFrames = outbound.values[index].pending.count
                // Bytes kept, and frames on their way: a receiver holds at most
                // reorderWindow frames ahead of the next it expects, so more in flight could
                // only be dropped there and sent again.
                let bytesFit = pendingBytes + size <= configuration.maxBufferedBytes
                let framesFit = pendingFrames + frames.count <= configuration.reorderWindow
                guard !bytesFit || !framesFit else { continue }
                guard !failWhenFull else {
                    throw WireError(
                        .bufferFull,
                        bytesFit
                            ? "\(pendingFrames) frames wait for acknowledgement by \(target); \(frames.count) more do not fit the reorder window of \(configuration.reorderWindow)"
                            : "\(pendingBytes) bytes wait for acknowledgement by \(target); \(size) more do not fit maxBufferedBytes \(configuration.maxBufferedBytes)"
                    )
                }
                return .needsRoom
            }
        }
        var outputs: [Output] = []
        outputs.reserveCapacity(frames.count * targets.count)
        for target in targets {
            guard var state = outbound.removeValue(forKey: target) else { continue }
            for frame in frames {
                let header: DeliveryHeader
                if reliable {
                    header = DeliveryHeader(stream: state.reliableStream, sequence: state.nextReliable)
                    state.nextReliable += 1
                } else {
                    header = DeliveryHeader(stream: state.unreliableStream, sequence: state.nextUnreliable)
                    state.nextUnreliable += 1
                }
                let bytes = try DeliveryFraming.inserting(header, into: frame)
                if reliable {
                    if state.pending.isEmpty { state.lastProgress = now }
                    state.pending.append(Pending(sequence: header.sequence, bytes: bytes))
                    state.unsent += 1
                    state.pendingBytes += bytes.count
                    statistics.bufferedBytes += bytes.count
                } else {
                    statistics.framesSent += 1
                    outputs.append(.send(bytes, to: target))
                }
            }
            if reliable { outputs += release(&state, to: target, now: now) }
            outbound[target] = state
        }
        return .ready(outputs)
    }

    /// Sends what the congestion window and the pacer allow to `recipient`: frames declared
    /// lost first, then frames not sent yet, in order.
    private mutating func release(_ state: inout Outbound, to recipient: ParticipantID, now: Duration) -> [Output] {
        guard !state.resend.isEmpty || state.unsent > 0 else { return [] }
        state.congestion.refill(now: now, smoothed: state.rtt.smoothed, period: configuration.maxAckDelay)
        var outputs: [Output] = []
        while state.congestion.canSend {
            let index: Int
            if let sequence = state.resend.popFirst() {
                guard let base = state.pending.first?.sequence, sequence >= base, sequence - base < UInt64(state.pending.count),
                    state.pending[Int(sequence - base)].lost
                else { continue }
                index = Int(sequence - base)
                state.pending[index].lost = false
                state.pending[index].retries += 1
                statistics.retransmitted += 1
                if state.pending[index].retries >= 2 { state.doubled.append((sequence, state.nextTransmission)) }
            } else if state.unsent > 0 {
                index = state.pending.count - state.unsent
                state.unsent -= 1
                statistics.framesSent += 1
            } else {
                break
            }
            outputs.append(transmit(&state, at: index, to: recipient, now: now))
        }
        return outputs
    }

    /// Sends `state.pending[index]` (again): a new copy, numbered in send order.
    private func transmit(_ state: inout Outbound, at index: Int, to recipient: ParticipantID, now: Duration) -> Output {
        let transmission = state.nextTransmission
        state.lossHistory.sent(transmission)
        state.nextTransmission += 1
        state.lastSent = now
        // One access to the kept frame, not one per field: each is a uniqueness check and
        // an index into the ring.
        let (bytes, wasInFlight) = state.pending[index].markSent(transmission: transmission, at: now)
        if !wasInFlight { state.congestion.sent(bytes.count) }
        return .send(bytes, to: recipient)
    }

    // MARK: Receiving

    /// Handles one message from the transport underneath.
    mutating func receive(_ message: TransportMessage, now: Duration) -> [Output] {
        receive(message, read: Self.read(message), now: now)
    }

    /// What a message is, as far as it can be told from its bytes alone: read before the
    /// caller takes the lock the engine is behind, so a sender's acknowledgements are
    /// decoded while its app's sends can still number frames.
    enum Incoming: Sendable, Hashable {
        /// Not a frame this layer can vouch for: it goes up and the messenger rejects it.
        case unreadable
        /// A frame with a delivery header.
        case framed(DeliveryHeader)
        /// An acknowledgement; nil when its frame or its body is malformed.
        case acknowledgement(DeliveryAck?)
        /// A frame without a delivery header (a peer without the layer).
        case plain
    }

    /// Reads `message`'s delivery header, or the acknowledgement it is.
    static func read(_ message: TransportMessage) -> Incoming {
        guard let peek = try? DeliveryFraming.peek(message.bytes) else { return .unreadable }
        if let header = peek.delivery { return .framed(header) }
        guard peek.kind == .control, peek.typeID == DeliveryAck.controlID else { return .plain }
        guard let frame = try? FrameDecoder().decode(message.bytes), let ack = try? DeliveryAck(frame.body) else {
            return .acknowledgement(nil)
        }
        return .acknowledgement(ack)
    }

    /// Handles one message from the transport underneath, `read` from it by ``read(_:)``.
    mutating func receive(_ message: TransportMessage, read: Incoming, now: Duration) -> [Output] {
        let source = message.source
        // A participant removed for silence that is heard again is taken back: reported
        // reachable, with new streams to it; then its message is handled as any other.
        if removed.contains(source) {
            return restore(source, now: now) + receive(message, read: read, now: now)
        }
        switch read {
        case .unreadable:
            statistics.rejected += 1
            return [.deliver(message)]
        case .acknowledgement(let ack):
            guard let ack else {
                statistics.rejected += 1
                return []
            }
            return acknowledgement(ack, from: source, now: now)
        case .plain:
            // A peer without the delivery layer: as it comes.
            statistics.framesDelivered += 1
            return [.deliver(message)]
        case .framed(let header):
            return header.isReliable
                ? receiveReliable(message, header: header, now: now)
                : receiveUnreliable(message, header: header)
        }
    }

    private mutating func receiveReliable(_ message: TransportMessage, header: DeliveryHeader, now: Duration) -> [Output] {
        let source = message.source
        // Taken out of the dictionary while it changes, so its buffers are never copied.
        var state = inbound.removeValue(forKey: source) ?? Inbound()
        defer { inbound[source] = state }
        var stream: ReliableInbound
        if let current = state.reliable, current.stream == header.stream {
            stream = current
        } else {
            guard adopt(header.stream, replacing: state.reliable?.stream, in: &state) else { return [] }
            stream = ReliableInbound(stream: header.stream)
        }
        state.reliable = nil
        defer { state.reliable = stream }
        // The reorder buffer is looked in only when it holds frames: a stream in order
        // spares a hash of every frame.
        if header.sequence < stream.expected || (!stream.waiting.isEmpty && stream.waiting[header.sequence] != nil) {
            // The acknowledgement of it was lost or is on its way: one is owed, not sent at once.
            statistics.duplicatesDropped += 1
            stream.duplicate = max(stream.duplicate, header.sequence)
            stream.ackOwed = true
            return []
        }
        var outputs: [Output] = []
        var newlyAcknowledgeable = message.bytes.count
        let wasHolding = !stream.waiting.isEmpty
        if header.sequence > stream.expected {
            let ahead = header.sequence - stream.expected
            if ahead > UInt64(configuration.reorderWindow)
                || stream.waitingBytes + message.bytes.count > configuration.maxBufferedBytes
            {
                statistics.overflowDropped += 1
                stream.ackOwed = true
                return []
            }
            stream.waiting[header.sequence] = message
            stream.waitingBytes += message.bytes.count
        } else {
            outputs.append(.deliver(message))
            stream.expected += 1
            while !stream.waiting.isEmpty, let next = stream.waiting.removeValue(forKey: stream.expected) {
                stream.waitingBytes -= next.bytes.count
                newlyAcknowledgeable += next.bytes.count
                outputs.append(.deliver(next))
                stream.expected += 1
            }
            statistics.framesDelivered += outputs.count
        }
        if header.sequence > stream.highest {
            stream.highest = header.sequence
            stream.highestArrival = now
        }
        // Each arrival counts one frame, held or delivered; its bytes count, and so do those of
        // the frames it lets out of the reorder buffer, so filling a gap behind 2,400 bytes or
        // more of held frames is acknowledged at once and frees the sender's buffer, and a window
        // of few large frames does not wait for the next tick (``ackBytes``). Otherwise a fill
        // waits like any arrival: under 5% loss nearly every gap is filled behind a few small
        // frames, and acknowledging each fill at once made an eighth to a sixth of the
        // acknowledgements. Gaps themselves wait for the count or the delay: the sender's
        // thresholds need later frames anyway (QUIC's ack frequency extension leaves this to the
        // peers). A stream in order (nothing held before this arrival or after it) waits for
        // ``inOrderAckFactor`` times the count: its sender has no loss to find, and each
        // acknowledgement costs both peers a wake-up.
        stream.receivedSinceAck += 1
        stream.bytesSinceAck += newlyAcknowledgeable
        let count = ackCount(inOrder: !wasHolding && stream.waiting.isEmpty)
        if stream.receivedSinceAck >= count || stream.bytesSinceAck >= Self.ackBytes {
            outputs.append(ack(&stream, to: source, now: now))
        } else {
            stream.ackOwed = true
        }
        return outputs
    }

    /// The frames a receiver waits for before it acknowledges at once:
    /// ``DeliveryConfiguration/ackEvery``, times ``inOrderAckFactor`` for a stream in order
    /// (saturating, so an `ackEvery` near `Int.max`, acknowledging by bytes and time alone,
    /// cannot trap).
    private func ackCount(inOrder: Bool) -> Int {
        guard inOrder else { return configuration.ackEvery }
        let (count, overflow) = configuration.ackEvery.multipliedReportingOverflow(by: Self.inOrderAckFactor)
        return overflow ? Int.max : count
    }

    private mutating func receiveUnreliable(_ message: TransportMessage, header: DeliveryHeader) -> [Output] {
        let source = message.source
        var state = inbound.removeValue(forKey: source) ?? Inbound()
        defer { inbound[source] = state }
        var stream: UnreliableInbound
        if let current = state.unreliable, current.stream == header.stream {
            stream = current
        } else {
            guard adopt(header.stream, replacing: state.unreliable?.stream, in: &state) else { return [] }
            stream = UnreliableInbound(stream: header.stream)
        }
        state.unreliable = nil
        let accepted = stream.accept(header.sequence)
        state.unreliable = stream
        switch accepted {
        case true?:
            statistics.framesDelivered += 1
            return [.deliver(message)]
        case false?:
            statistics.duplicatesDropped += 1
            return []
        case nil:
            statistics.tooOldDropped += 1
            return []
        }
    }

    /// Whether `stream`, new from a sender, starts (ending `current`, which is retired) or
    /// names a retired incarnation and is dropped.
    private mutating func adopt(_ stream: UInt32, replacing current: UInt32?, in state: inout Inbound) -> Bool {
        guard !state.retired.contains(stream) else {
            statistics.staleDropped += 1
            return false
        }
        if let current { retire(current, in: &state) }
        return true
    }

    private func retire(_ stream: UInt32, in state: inout Inbound) {
        state.retired.append(stream)
        if state.retired.count > Self.retiredLimit { state.retired.removeFirst() }
    }

    /// An acknowledgement for `stream`, with the frames it holds after the next missing
    /// one and how long it was held back, counted; nothing is owed after it.
    private mutating func ack(_ stream: inout ReliableInbound, to source: ParticipantID, now: Duration) -> Output {
        statistics.acksSent += 1
        stream.receivedSinceAck = 0
        stream.bytesSinceAck = 0
        stream.ackOwed = false
        var received: [UInt8] = []
        if let highest = stream.waiting.keys.max() {
            let limit = UInt64(DeliveryAck.maxReceivedBytes * 8)
            received = [UInt8](repeating: 0, count: Int(min(highest - stream.expected - 1, limit - 1) / 8 + 1))
            for sequence in stream.waiting.keys where sequence - stream.expected - 1 < limit {
                let bit = sequence - stream.expected - 1
                received[Int(bit / 8)] |= 1 << (bit % 8)
            }
        }
        var ack = DeliveryAck(
            stream: stream.stream, through: stream.expected - 1, received: received, duplicate: stream.duplicate)
        stream.duplicate = 0
        // The delay counts from the arrival of the highest frame acknowledged, when that is
        // the highest received (a frame past the bitmap's reach is not acknowledged).
        if ack.largest == stream.highest, now > stream.highestArrival {
            let (seconds, attoseconds) = (now - stream.highestArrival).components
            ack.delayMicroseconds = UInt64(clamping: seconds) &* 1_000_000 &+ UInt64(attoseconds / 1_000_000_000_000)
        }
        return .send(ack.frame(), to: source)
    }

    private mutating func acknowledgement(_ ack: DeliveryAck, from source: ParticipantID, now: Duration) -> [Output] {
        // An acknowledgement of an earlier stream (sent before a reconnect or a restore), or
        // one overtaken by a later one, is out of date, not wrong.
        // Read by index: reading `outbound[source]` copies the recipient's whole state.
        guard let index = outbound.index(forKey: source), ack.stream == outbound.values[index].reliableStream,
            ack.through >= outbound.values[index].acked
        else {
            statistics.staleAcks += 1
            return []
        }
        // One for a frame never sent is.
        guard ack.through < outbound.values[index].nextReliable else {
            statistics.rejected += 1
            return []
        }
        // Taken out of the dictionary while it changes, so the pending frames are never copied.
        var state = outbound.remove(at: index).value
        defer { outbound[source] = state }
        let largestBefore = state.largestAckedTransmission
        let largest = ack.largest
        let windowLimited =
            state.unsent > 0 || !state.resend.isEmpty || state.congestion.bytesInFlight * 2 >= state.congestion.window
        var sampleFrom: Pending?
        var acknowledgedAny = false
        while let first = state.pending.first, first.sequence <= ack.through {
            state.pending.removeFirst()
            state.pendingBytes -= first.bytes.count
            statistics.bufferedBytes -= first.bytes.count
            if first.transmission == 0 {
                state.unsent -= 1  // acknowledged before it was sent: only a misbehaving peer does that
            } else if !first.held {
                acknowledgedAny = true
                newlyAcknowledged(first, in: &state, largestBefore: largestBefore, windowLimited: windowLimited, now: now)
                if first.sequence == largest { sampleFrom = first }
            }
        }
        if ack.through > state.acked {
            state.acked = ack.through
            state.lastProgress = now
        }
        // The frames the receiver holds are acknowledged too, and never sent again.
        if let base = state.pending.first?.sequence {
            for (index, byte) in ack.received.enumerated() where byte != 0 {
                var bits = byte
                while bits != 0 {
                    let bit = UInt64(index * 8 + bits.trailingZeroBitCount)
                    bits &= bits - 1
                    let (sequence, overflow) = ack.through.addingReportingOverflow(2 + bit)
                    guard !overflow, sequence >= base, sequence - base < UInt64(state.pending.count) else { continue }
                    let position = Int(sequence - base)
                    // Read first: most bits name frames held already, and reading is the cheaper
                    // access for a look.
                    let frame = state.pending[position]
                    guard !frame.held, frame.transmission != 0 else { continue }
                    state.pending[position].markHeld()
                    acknowledgedAny = true
                    state.lastProgress = now
                    newlyAcknowledged(frame, in: &state, largestBefore: largestBefore, windowLimited: windowLimited, now: now)
                    if frame.sequence == largest { sampleFrom = frame }
                }
            }
        }
        // A round-trip sample from the highest frame acknowledged, if this is the first word
        // of it and it was sent once (Karn's rule).
        if let frame = sampleFrom, frame.retries == 0 {
            let reported = Duration(attoseconds: Int128(ack.delayMicroseconds) * 1_000_000_000_000)
            let delay = min(reported, configuration.maxAckDelay)
            state.rtt.add(now - frame.sentAt, ackDelay: delay, now: now)
            if state.rtt.showsQueueing { state.congestion.queueGrowing() }
        }
        if acknowledgedAny { state.probeCount = 0 }
        // The receiver got a frame twice: if this sender had declared it lost, the first copy
        // arrived after all, overtaken by more than the thresholds allowed.
        if ack.duplicate != 0, let index = state.losses.firstIndex(where: { $0.sequence == ack.duplicate }) {
            let loss = state.losses.remove(at: index)
            statistics.spuriousLosses += 1
            state.lossHistory.mark(loss.transmission, lost: false, next: state.nextTransmission)
            widenReordering(
                &state, overtakenBy: loss.largestAcknowledged, transmission: loss.transmission, sentAt: loss.sentAt, now: now)
        }
        detectLosses(&state, now: now)
        return release(&state, to: source, now: now)
    }

    /// Books a frame the receiver has (delivered or held), whose copy went out: out of the
    /// bytes in flight, the latest copy known to have arrived, and what its arrival says of
    /// reordering.
    private mutating func newlyAcknowledged(
        _ frame: Pending, in state: inout Outbound, largestBefore: UInt64, windowLimited: Bool,
        now: Duration
    ) {
        if frame.inFlight { state.congestion.acknowledged(frame.bytes.count, sentAt: frame.sentAt, windowLimited: windowLimited) }
        // A copy sent again less than the minimum round trip ago cannot be the one that
        // arrived (RFC 8985 section 6.2): the earlier one did, and the loss was spurious.
        let earlierCopyArrived = frame.lost || (frame.retries > 0 && now - frame.sentAt < state.rtt.minimum)
        if frame.declaredLost, earlierCopyArrived {
            statistics.spuriousLosses += 1
            state.losses.removeAll { $0.sequence == frame.sequence }
            let (transmission, sentAt) =
                frame.lost ? (frame.transmission, frame.sentAt) : (frame.previousTransmission, frame.previousSentAt)
            state.lossHistory.mark(transmission, lost: false, next: state.nextTransmission)
            widenReordering(&state, overtakenBy: largestBefore, transmission: transmission, sentAt: sentAt, now: now)
            return
        }
        guard !earlierCopyArrived else { return }
        if frame.retries == 0 { state.rtt.arrived(after: now - frame.sentAt) }
        if frame.retries == 0, frame.transmission < largestBefore {
            // Overtaken without being declared lost: reordering, measured before it costs a copy.
            widenReordering(&state, overtakenBy: largestBefore, transmission: frame.transmission, sentAt: frame.sentAt, now: now)
        }
        if frame.transmission > state.largestAckedTransmission {
            state.largestAckedTransmission = frame.transmission
            state.largestAckedSentAt = frame.sentAt
        }
    }

    /// Copies sent up to `largest - transmission` later arrived first, and the copy took
    /// `now - sentAt`: the packet threshold and the time threshold take that in (RFC 9002
    /// section 6.1 allows adaptive thresholds), up to the reorder window and the longest
    /// probe timeout; if it was later than a probe timeout beyond the round trip, it is a
    /// sample of the late arrivals.
    private func widenReordering(
        _ state: inout Outbound, overtakenBy largest: UInt64, transmission: UInt64, sentAt: Duration, now: Duration
    ) {
        if largest > transmission {
            state.packetThreshold = min(
                max(state.packetThreshold, largest - transmission + 1), UInt64(configuration.reorderWindow))
        }
        let took = now - sentAt
        guard took > state.rtt.smoothed else { return }
        let late = min(took - state.rtt.smoothed, configuration.maxProbeTimeout)
        // Later than a probe timeout beyond the round trip: a sample of the late arrivals.
        if late > state.rtt.probeTimeout(maxAckDelay: configuration.maxAckDelay) {
            state.lateArrivals.add(late, acknowledged: state.acked)
        }
        state.reordering = max(state.reordering, late)
    }

    /// Declares lost every copy in flight that a later acknowledged copy passed by the
    /// packet threshold, or that was sent longer than the loss delay ago, and sets the
    /// loss timer for the earliest of the rest below the largest acknowledged.
    private mutating func detectLosses(_ state: inout Outbound, now: Duration) {
        state.lossTime = nil
        let largest = state.largestAckedTransmission
        guard largest > 0 else { return }
        state.lateArrivals.refresh(acknowledged: state.acked)
        let delay = state.rtt.lossDelay(reordering: state.reordering, lateArrivals: state.lateArrivals.delay)
        let spacing = state.rtt.reorderingTolerance(reordering: state.reordering, lateArrivals: state.lateArrivals.delay)
        var latestLost: Duration?
        var latestLostTransmission: UInt64 = 0
        for index in state.pending.indices {
            let frame = state.pending[index]
            // Copies sent once go out in sequence order, and copies sent again after them:
            // past the first frame sent once after the largest, none is below it.
            if frame.transmission == 0 || frame.retries == 0 && frame.transmission > largest { break }
            guard frame.inFlight, frame.transmission < largest else { continue }
            let passed =
                largest - frame.transmission >= state.packetThreshold
                && state.largestAckedSentAt - frame.sentAt >= spacing
            if passed || now - frame.sentAt >= delay {
                state.pending[index].inFlight = false
                state.pending[index].lost = true
                state.pending[index].declaredLost = true
                state.congestion.lost(frame.bytes.count)
                state.lossHistory.mark(frame.transmission, lost: true, next: state.nextTransmission)
                latestLostTransmission = max(latestLostTransmission, frame.transmission)
                state.resend.append(frame.sequence)
                state.losses.append(
                    Loss(
                        sequence: frame.sequence, transmission: frame.transmission, sentAt: frame.sentAt,
                        largestAcknowledged: largest))
                if state.losses.count > configuration.reorderWindow { state.losses.removeFirst() }
                statistics.framesLost += 1
                latestLost = max(latestLost ?? frame.sentAt, frame.sentAt)
            } else {
                state.lossTime = min(state.lossTime ?? frame.sentAt + delay, frame.sentAt + delay)
            }
        }
        if let latestLost {
            let before = state.congestion.congestionEvents
            let rate = state.lossHistory.rate(through: latestLostTransmission, next: state.nextTransmission) ?? 0
            state.congestion.congestion(sentAt: latestLost, now: now, queueing: state.rtt.showsQueueing, lossRate: rate)
            statistics.congestionEvents += state.congestion.congestionEvents - before
        }
    }

    // MARK: Timer

    /// Whether a timer tick could do anything now: an acknowledgement is owed, or frames
    /// are kept for a recipient (in flight, held back by the window or the pacer, waiting
    /// to be sent again, or the probe of a removed one). Time alone changes nothing else,
    /// so while this is false the layer's timer waits for work instead of the clock.
    var needsTimer: Bool {
        inbound.values.contains { $0.reliable?.ackOwed == true } || outbound.values.contains { !$0.pending.isEmpty }
    }

    /// The work of one timer tick: owed acknowledgements, the loss and probe timers, what
    /// the pacer lets out now, and removal of recipients whose acknowledgements stopped.
    mutating func tick(now: Duration) -> [Output] {
        var outputs: [Output] = []
        for source in Array(inbound.keys) {
            guard var stream = inbound[source]?.reliable, stream.ackOwed else { continue }
            outputs.append(ack(&stream, to: source, now: now))
            inbound[source]?.reliable = stream
        }
        for recipient in Array(outbound.keys) {
            guard var state = outbound.removeValue(forKey: recipient) else { continue }
            defer { outbound[recipient] = state }
            if removed.contains(recipient) {
                // A probe: the oldest frame again, at the longest probe interval, so that a
                // peer that can hear us answers and is taken back.
                if !state.pending.isEmpty, now >= state.pending[0].sentAt + configuration.maxProbeTimeout {
                    state.pending[0].sentAt = now
                    state.pending[0].retries += 1
                    statistics.retransmitted += 1
                    outputs.append(.send(state.pending[0].bytes, to: recipient))
                }
                continue
            }
            if !state.pending.isEmpty, now - state.lastProgress >= configuration.peerTimeout {
                remove(recipient, &state, now: now)
                outputs.append(.removed(recipient))
                continue
            }
            if let lossTime = state.lossTime, now >= lossTime {
                detectLosses(&state, now: now)
            } else if state.lossTime == nil, state.congestion.bytesInFlight > 0,
                now >= state.lastSent + probeTimeout(state),
                let index = state.pending.firstIndex(where: { $0.inFlight })
            {
                // Nothing acknowledged for a probe timeout: the oldest frame in flight goes
                // again, outside the window, and the next timeout is twice as long.
                state.probeCount += 1
                statistics.probeTimeouts += 1
                if state.probeCount == Self.persistentProbes {
                    state.congestion.persistentCongestion(now: now)
                    statistics.congestionEvents += 1
                }
                state.pending[index].retries += 1
                statistics.retransmitted += 1
                outputs.append(transmit(&state, at: index, to: recipient, now: now))
            }
            outputs += sendDoubled(&state, to: recipient)
            outputs += release(&state, to: recipient, now: now)
        }
        return outputs
    }

    /// The second copy of each repair sent as a frame's third copy or later (its first and
    /// a repeat, after a loss or as a probe, went unacknowledged), if that copy is still in
    /// flight (neither acknowledged, held nor declared lost again): the same copy, sent once
    /// more a tick after it, outside the window. A frame lost twice is the hole every later
    /// frame waits behind, and one more loss of it would cost the stream another round of
    /// loss detection; two copies some milliseconds apart are both lost far less often. The
    /// receiver will likely get it twice and say so (field 5): the losses it was declared
    /// in are forgotten, so that is not taken for a spurious loss.
    private mutating func sendDoubled(_ state: inout Outbound, to recipient: ParticipantID) -> [Output] {
        defer { state.doubled.removeAll() }
        var outputs: [Output] = []
        for (sequence, transmission) in state.doubled {
            guard let base = state.pending.first?.sequence, sequence >= base, sequence - base < UInt64(state.pending.count)
            else { continue }
            let frame = state.pending[Int(sequence - base)]
            guard frame.transmission == transmission, frame.inFlight else { continue }
            state.losses.removeAll { $0.sequence == sequence }
            statistics.retransmitted += 1
            statistics.doubledRepairs += 1
            outputs.append(.send(frame.bytes, to: recipient))
        }
        return outputs
    }

    /// The probe timeout to `state`'s recipient now, doubled per probe sent without answer,
    /// at most ``DeliveryConfiguration/maxProbeTimeout``.
    private func probeTimeout(_ state: Outbound) -> Duration {
        var timeout = state.rtt.probeTimeout(maxAckDelay: configuration.maxAckDelay)
        for _ in 0..<min(state.probeCount, 16) where timeout < configuration.maxProbeTimeout {
            timeout *= 2
        }
        return min(timeout, configuration.maxProbeTimeout)
    }

    /// Removes `recipient` for silence: of what was kept for it only the oldest frame stays,
    /// as the probe that makes a peer that can hear us answer.
    private mutating func remove(_ recipient: ParticipantID, _ state: inout Outbound, now: Duration) {
        for dropped in state.pending.dropFirst() {
            state.pendingBytes -= dropped.bytes.count
            statistics.bufferedBytes -= dropped.bytes.count
        }
        state.pending.removeLast(state.pending.count - 1)
        // The probe's clock runs from now if it was never sent.
        if state.pending[0].transmission == 0 { state.pending[0].sentAt = now - configuration.maxProbeTimeout }
        state.unsent = 0
        state.resend.removeAll()
        state.doubled.removeAll()
        statistics.removedPeers.append(recipient)
        removed.insert(recipient)
    }

    /// Takes back `participant`, removed for silence and now heard again: new streams to
    /// it (it adopts their incarnations; what it missed while removed is not sent), and
    /// it is reported reachable.
    private mutating func restore(_ participant: ParticipantID, now: Duration) -> [Output] {
        statistics.restoredPeers.append(participant)
        return joined(participant, now: now)
    }

    /// Each reachable recipient's round trip, window and pacing now.
    var paths: [ParticipantID: DeliveryPathStatistics] {
        var paths: [ParticipantID: DeliveryPathStatistics] = [:]
        for (recipient, state) in outbound where !removed.contains(recipient) {
            let congestion = state.congestion
            paths[recipient] = DeliveryPathStatistics(
                smoothedRTT: state.rtt.smoothed, rttVariation: state.rtt.variation, minRTT: state.rtt.minimum,
                latestRTT: state.rtt.latest, congestionWindow: congestion.window, bytesInFlight: congestion.bytesInFlight,
                slowStartThreshold: congestion.slowStartThreshold == Int.max ? nil : congestion.slowStartThreshold,
                pacingRate: congestion.pacingRate(smoothed: state.rtt.smoothed), packetThreshold: Int(state.packetThreshold),
                reorderingDelay: state.reordering,
                reorderingTolerance: state.rtt.reorderingTolerance(
                    reordering: state.reordering, lateArrivals: state.lateArrivals.delay),
                probeCount: state.probeCount, framesKept: state.pending.count,
                framesNotSent: state.unsent)
        }
        return paths
    }
}
