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
        let firstSent: Duration
        var lastSent: Duration
        var retries: Int
        /// The receiver said it holds this frame (waiting behind a missing one).
        var held = false
    }

    /// What this participant sends to one recipient.
    struct Outbound {
        let reliableStream: UInt32
        let unreliableStream: UInt32
        var nextReliable: UInt64 = 1
        var nextUnreliable: UInt64 = 1
        var pending = Deque<Pending>()
        var pendingBytes = 0
        var acked: UInt64 = 0
        var repeatedAcks = 0
        var lastProgress: Duration
        /// The smoothed round-trip time (from frames acknowledged without a retry), nil
        /// before the first sample, and its smoothed deviation.
        var smoothedRTT: Duration?
        var deviationRTT: Duration = .zero
    }

    /// The reliable stream received from one sender.
    struct ReliableInbound {
        let stream: UInt32
        var expected: UInt64 = 1
        var waiting: [UInt64: TransportMessage] = [:]
        var waitingBytes = 0
        var deliveredSinceAck = 0
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
    /// The most frames sent again to one recipient at one acknowledgement or tick, so a
    /// receiver that falls behind is not buried under copies of what it has not read yet.
    static let resendBurst = 32
    /// Departed senders whose retired incarnations are remembered, so their frames still on
    /// the way when they come back cannot pass for a new incarnation.
    static let departedLimit = 64

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
        outbound[participant] = Outbound(reliableStream: reliable << 1 | 1, unreliableStream: unreliable << 1, lastProgress: now)
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
        outbound[participant] != nil && !removed.contains(participant)
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
        let targets = recipients.filter(isReachable)
        if reliable {
            let size = frames.reduce(0) { $0 + $1.count + DeliveryHeader.maxEncodedSize }
            guard size <= configuration.maxBufferedBytes else {
                throw WireError(.bufferFull, "a message of \(size) bytes (with delivery headers) can never fit maxBufferedBytes \(configuration.maxBufferedBytes)")
            }
            guard frames.count <= configuration.reorderWindow else {
                throw WireError(.bufferFull, "a message of \(frames.count) frames can never fit the reorder window of \(configuration.reorderWindow) frames")
            }
            for target in targets {
                guard let state = outbound[target] else { continue }
                // Bytes kept, and frames on their way: a receiver holds at most
                // reorderWindow frames ahead of the next it expects, so more in flight could
                // only be dropped there and sent again.
                let bytesFit = state.pendingBytes + size <= configuration.maxBufferedBytes
                let framesFit = state.pending.count + frames.count <= configuration.reorderWindow
                guard !bytesFit || !framesFit else { continue }
                guard !failWhenFull else {
                    throw WireError(.bufferFull, bytesFit
                        ? "\(state.pending.count) frames wait for acknowledgement by \(target); \(frames.count) more do not fit the reorder window of \(configuration.reorderWindow)"
                        : "\(state.pendingBytes) bytes wait for acknowledgement by \(target); \(size) more do not fit maxBufferedBytes \(configuration.maxBufferedBytes)")
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
                    state.pending.append(Pending(sequence: header.sequence, bytes: bytes, firstSent: now, lastSent: now, retries: 0))
                    state.pendingBytes += bytes.count
                    statistics.bufferedBytes += bytes.count
                }
                outputs.append(.send(bytes, to: target))
            }
            outbound[target] = state
        }
        statistics.framesSent += outputs.count
        return .ready(outputs)
    }

    // MARK: Receiving

    /// Handles one message from the transport underneath.
    mutating func receive(_ message: TransportMessage, now: Duration) -> [Output] {
        let source = message.source
        // A participant removed for silence that is heard again is taken back: reported
        // reachable, with new streams to it; then its message is handled as any other.
        if removed.contains(source) {
            return restore(source, now: now) + receive(message, now: now)
        }
        let peek: DeliveryFraming.Peek
        do {
            peek = try DeliveryFraming.peek(message.bytes)
        } catch {
            // Not a frame this layer can vouch for: it goes up and the messenger rejects it.
            statistics.rejected += 1
            return [.deliver(message)]
        }
        guard let header = peek.delivery else {
            if peek.kind == .control, peek.typeID == DeliveryAck.controlID {
                return acknowledgement(message, from: source, now: now)
            }
            // A peer without the delivery layer: as it comes.
            statistics.framesDelivered += 1
            return [.deliver(message)]
        }
        return header.isReliable
            ? receiveReliable(message, header: header, now: now)
            : receiveUnreliable(message, header: header)
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
        if header.sequence < stream.expected || stream.waiting[header.sequence] != nil {
            statistics.duplicatesDropped += 1
            return [ack(stream, to: source)]
        }
        if header.sequence > stream.expected {
            let ahead = header.sequence - stream.expected
            if ahead > UInt64(configuration.reorderWindow)
                || stream.waitingBytes + message.bytes.count > configuration.maxBufferedBytes
            {
                statistics.overflowDropped += 1
            } else {
                stream.waiting[header.sequence] = message
                stream.waitingBytes += message.bytes.count
            }
            return [ack(stream, to: source)]
        }
        var outputs: [Output] = [.deliver(message)]
        stream.expected += 1
        while let next = stream.waiting.removeValue(forKey: stream.expected) {
            stream.waitingBytes -= next.bytes.count
            outputs.append(.deliver(next))
            stream.expected += 1
        }
        statistics.framesDelivered += outputs.count
        stream.deliveredSinceAck += outputs.count
        if stream.deliveredSinceAck >= configuration.ackEvery {
            outputs.append(ack(stream, to: source))
            stream.deliveredSinceAck = 0
            stream.ackOwed = false
        } else {
            stream.ackOwed = true
        }
        return outputs
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
    /// one, counted.
    private mutating func ack(_ stream: ReliableInbound, to source: ParticipantID) -> Output {
        statistics.acksSent += 1
        var received: [UInt8] = []
        if let highest = stream.waiting.keys.max() {
            let limit = UInt64(DeliveryAck.maxReceivedBytes * 8)
            received = [UInt8](repeating: 0, count: Int(min(highest - stream.expected - 1, limit - 1) / 8 + 1))
            for sequence in stream.waiting.keys where sequence - stream.expected - 1 < limit {
                let bit = sequence - stream.expected - 1
                received[Int(bit / 8)] |= 1 << (bit % 8)
            }
        }
        return .send(DeliveryAck(stream: stream.stream, through: stream.expected - 1, received: received).frame(), to: source)
    }

    private mutating func acknowledgement(_ message: TransportMessage, from source: ParticipantID, now: Duration) -> [Output] {
        guard let frame = try? FrameDecoder().decode(message.bytes), let ack = try? DeliveryAck(frame.body) else {
            statistics.rejected += 1
            return []
        }
        // An acknowledgement of an earlier stream (sent before a reconnect or a restore), or
        // one overtaken by a later one, is out of date, not wrong.
        guard ack.stream == outbound[source]?.reliableStream, let acked = outbound[source]?.acked, ack.through >= acked else {
            statistics.staleAcks += 1
            return []
        }
        // One for a frame never sent is.
        guard let next = outbound[source]?.nextReliable, ack.through < next else {
            statistics.rejected += 1
            return []
        }
        // Taken out of the dictionary while it changes, so the pending frames are never copied.
        guard var state = outbound.removeValue(forKey: source) else { return [] }
        defer { outbound[source] = state }
        let progressed = ack.through > state.acked
        if progressed {
            var sample: Duration?
            while let first = state.pending.first, first.sequence <= ack.through {
                // Karn's rule: only frames sent once measure the round trip, and only those
                // not held (a held frame arrived long before this acknowledgement).
                if first.retries == 0, !first.held { sample = now - first.firstSent }
                state.pending.removeFirst()
                state.pendingBytes -= first.bytes.count
                statistics.bufferedBytes -= first.bytes.count
            }
            state.acked = ack.through
            state.repeatedAcks = 0
            state.lastProgress = now
            if let sample {
                if let smoothed = state.smoothedRTT {
                    let difference = smoothed > sample ? smoothed - sample : sample - smoothed
                    state.deviationRTT = (state.deviationRTT * 3 + difference) / 4
                    state.smoothedRTT = (smoothed * 7 + sample) / 8
                } else {
                    state.smoothedRTT = sample
                    state.deviationRTT = sample / 2
                }
            }
        } else if !state.pending.isEmpty {
            state.repeatedAcks += 1
        }
        guard let base = state.pending.first?.sequence else { return [] }
        // The frames the receiver holds are not sent again.
        for (index, byte) in ack.received.enumerated() where byte != 0 {
            var bits = byte
            while bits != 0 {
                let bit = UInt64(index * 8 + bits.trailingZeroBitCount)
                bits &= bits - 1
                let (sequence, overflow) = ack.through.addingReportingOverflow(2 + bit)
                guard !overflow, sequence >= base, sequence - base < UInt64(state.pending.count) else { continue }
                state.pending[Int(sequence - base)].held = true
            }
        }
        // A partial acknowledgement (the receiver holds everything up to the next hole) or
        // a repeated one (a frame is missing) sends again every frame not held that was
        // sent longer ago than the longest likely round trip: by then it should have been
        // acknowledged or held, and frames that merely overtook each other have not.
        guard progressed || state.repeatedAcks >= 2 else { return [] }
        let wait = roundTrip(state)
        var outputs: [Output] = []
        for index in state.pending.indices where outputs.count < Self.resendBurst {
            let frame = state.pending[index]
            guard !frame.held, now - frame.lastSent > wait else { continue }
            state.pending[index].lastSent = now
            state.pending[index].retries += 1
            outputs.append(.send(frame.bytes, to: source))
        }
        statistics.retransmitted += outputs.count
        if !outputs.isEmpty { state.repeatedAcks = 0 }
        return outputs
    }

    /// The longest an acknowledgement is likely to take: the smoothed round trip plus four
    /// deviations (as TCP's retransmission timeout), or before the first sample the
    /// retransmission timeout plus the receiver's acknowledgement delay.
    private func roundTrip(_ state: Outbound) -> Duration {
        guard let smoothed = state.smoothedRTT else { return configuration.retransmitTimeout + configuration.ackDelay }
        // At least two acknowledgement delays: acknowledgements that left together arrive
        // and are read one after another, and the first ones know less than the last.
        return max(smoothed + state.deviationRTT * 4, configuration.ackDelay * 2)
    }

    // MARK: Timer

    /// The work of one timer tick: owed acknowledgements, retransmissions, and removal of
    /// recipients whose acknowledgements stopped.
    mutating func tick(now: Duration) -> [Output] {
        var outputs: [Output] = []
        for source in Array(inbound.keys) {
            guard var stream = inbound[source]?.reliable, stream.ackOwed else { continue }
            outputs.append(ack(stream, to: source))
            stream.ackOwed = false
            stream.deliveredSinceAck = 0
            inbound[source]?.reliable = stream
        }
        for recipient in Array(outbound.keys) {
            guard var state = outbound.removeValue(forKey: recipient) else { continue }
            defer { outbound[recipient] = state }
            if removed.contains(recipient) {
                // A probe: the oldest frame again, at the longest retry interval, so that a
                // peer that can hear us answers and is taken back.
                if !state.pending.isEmpty, now >= state.pending[0].lastSent + configuration.maxRetransmitTimeout {
                    state.pending[0].lastSent = now
                    state.pending[0].retries += 1
                    statistics.retransmitted += 1
                    outputs.append(.send(state.pending[0].bytes, to: recipient))
                }
                continue
            }
            if let first = state.pending.first, now - max(state.lastProgress, first.firstSent) >= configuration.peerTimeout {
                // The rest is dropped: a peer taken back gets new streams.
                for dropped in state.pending.dropFirst() {
                    state.pendingBytes -= dropped.bytes.count
                    statistics.bufferedBytes -= dropped.bytes.count
                }
                state.pending.removeLast(state.pending.count - 1)
                statistics.removedPeers.append(recipient)
                removed.insert(recipient)
                outputs.append(.removed(recipient))
                continue
            }
            var burst = 0
            for index in state.pending.indices where burst < Self.resendBurst && !state.pending[index].held
                && now >= state.pending[index].lastSent + retransmitWait(state.pending[index].retries)
            {
                burst += 1
                state.pending[index].lastSent = now
                state.pending[index].retries += 1
                statistics.retransmitted += 1
                outputs.append(.send(state.pending[index].bytes, to: recipient))
            }
        }
        return outputs
    }

    /// Takes back `participant`, removed for silence and now heard again: new streams to
    /// it (it adopts their incarnations; what it missed while removed is not sent), and
    /// it is reported reachable.
    private mutating func restore(_ participant: ParticipantID, now: Duration) -> [Output] {
        statistics.restoredPeers.append(participant)
        return joined(participant, now: now)
    }

    /// The wait before retry number `retries + 1`.
    private func retransmitWait(_ retries: Int) -> Duration {
        var wait = configuration.retransmitTimeout
        for _ in 0..<min(retries, 16) where wait < configuration.maxRetransmitTimeout {
            wait *= 2
        }
        return min(wait, configuration.maxRetransmitTimeout)
    }

    /// The bytes waiting for `recipient`'s acknowledgement.
    func pendingBytes(for recipient: ParticipantID) -> Int {
        outbound[recipient]?.pendingBytes ?? 0
    }
}
