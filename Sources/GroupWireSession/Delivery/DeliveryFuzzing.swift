import GroupWire

/// For the `FuzzDelivery` fuzz target and its corpus replay test (GroupWireFuzzChecks):
/// not API for apps.
package enum DeliveryFuzzing {
    /// Runs arbitrary frames from three peers, acknowledgements, local sends, timer ticks
    /// and membership changes through one participant's delivery engine (small bounds:
    /// 4,096 buffered bytes, a reorder window of 16), and returns every invariant broken
    /// (empty: none).
    ///
    /// Input: records of `op u8, a u8, b u8, n u8, bytes (n)`. The peer is `op >> 4 % 3`;
    /// `op & 15` picks what happens:
    /// - 0: a frame with a delivery header from the peer: stream = incarnation
    ///   `[1, 2, 3, 2^31-1][a & 3]`, reliable when `a & 4`; sequence `b + 1`, or
    ///   `2^64 - 1 - b` when `a & 8`; body the n bytes;
    /// - 1: the same frame with bit `a & 7` of byte `b % count` flipped;
    /// - 2: the n bytes as they are;
    /// - 3: an acknowledgement from the peer: of this participant's reliable stream to it
    ///   when `a < 128`, else of stream `a`; through `b`; the n bytes as the bitmap of held
    ///   frames; a delay of 100 × n µs; a duplicate report of `b + 1` when `a & 64`;
    /// - 4: `(a + 1) × (b + 1)` ms pass and the timer ticks;
    /// - 5: this participant sends the peer a frame of n body bytes, reliable when `a` is
    ///   even (failing, not waiting, when the buffer is full);
    /// - 6: the transport reports the peer joined; 7: left;
    /// - 8 and above: a frame without a delivery header.
    ///
    /// Invariants, after every step: no (sender, stream, sequence) is delivered twice; a
    /// reliable stream is delivered in consecutive order from 1; nothing is delivered from
    /// a removed peer unless the same step took it back first (a `.joined` output: a peer
    /// heard again); a removed peer keeps at most one frame (its probe); each reorder buffer holds at most 16 frames and 4,096 bytes; the
    /// frames kept for each recipient stay within 4,096 bytes and the statistics' total is
    /// their sum; at most 8 retired incarnations per peer; for each reachable recipient the
    /// bytes counted in flight are those of the frames marked in flight, the frames never
    /// sent are exactly the counted ones at the end, no frame is both held and in flight or
    /// lost, the congestion window stays between its minimum and the buffer, and the frames
    /// kept are consecutive.
    package static func violations(_ input: [UInt8]) -> [String] {
        // The engine never reads the clock (time comes in as `now`); its own incarnations
        // are fixed, so acknowledgements can name them.
        var configuration = DeliveryConfiguration(clock: TimerClock(ContinuousClock())) { 9 }
        configuration.maxBufferedBytes = 4096
        configuration.reorderWindow = 16
        var engine = DeliveryEngine(configuration: configuration)
        var checker = Checker()
        let peers = (2...4).map { ParticipantID.numbered(UInt64($0)) }
        let incarnations: [UInt32] = [1, 2, 3, UInt32.max >> 1]
        var now = Duration.zero
        var index = 0
        while index + 4 <= input.count {
            let op = input[index]
            let a = input[index + 1]
            let b = input[index + 2]
            let count = Int(input[index + 3])
            let bytes = Array(input[(index + 4)..<min(input.count, index + 4 + count)])
            index += 4 + count
            let peer = peers[Int(op >> 4) % peers.count]
            let wasRemoved = engine.removed.contains(peer)
            var outputs: [DeliveryEngine.Output] = []
            switch op & 0x0F {
            case 0, 1:
                let header = DeliveryHeader(
                    incarnation: incarnations[Int(a & 3)], isReliable: a & 4 != 0,
                    sequence: a & 8 != 0 ? UInt64.max - UInt64(b) : UInt64(b) + 1)
                guard var frame = try? FrameEncoder().encode(Frame(typeID: 1, delivery: header, body: bytes)) else { continue }
                if op & 0x0F == 1 {
                    frame[Int(b) % frame.count] ^= 1 << (a & 7)
                }
                outputs = engine.receive(TransportMessage(source: peer, bytes: frame, arrival: now), now: now)
            case 2:
                outputs = engine.receive(TransportMessage(source: peer, bytes: bytes, arrival: now), now: now)
            case 3:
                let stream = a < 128 ? engine.outbound[peer]?.reliableStream ?? 3 : UInt32(a)
                let ack = DeliveryAck(
                    stream: stream, through: UInt64(b), received: Array(bytes.prefix(DeliveryAck.maxReceivedBytes)),
                    delayMicroseconds: UInt64(count) * 100, duplicate: a & 64 != 0 ? UInt64(b) + 1 : 0
                ).frame()
                outputs = engine.receive(TransportMessage(source: peer, bytes: ack, arrival: now), now: now)
            case 4:
                now += .milliseconds((Int(a) + 1) * (Int(b) + 1))
                outputs = engine.tick(now: now)
            case 5:
                guard let frame = try? FrameEncoder().encode(Frame(typeID: 1, body: bytes)) else { continue }
                if case .ready(let sent)? = try? engine.prepare(
                    [frame], to: [peer], mode: a & 1 == 0 ? .reliable : .unreliable,
                    now: now, failWhenFull: true)
                {
                    outputs = sent
                }
            case 6:
                outputs = engine.joined(peer, now: now)
            case 7:
                outputs = engine.left(peer)
            default:
                guard let frame = try? FrameEncoder().encode(Frame(typeID: 2, body: bytes)) else { continue }
                outputs = engine.receive(TransportMessage(source: peer, bytes: frame, arrival: now), now: now)
            }
            checker.check(outputs, engine: engine, wasRemoved: wasRemoved ? peer : nil)
        }
        return checker.violations
    }

    /// What the invariants need to remember across steps.
    struct Checker {
        var violations: [String] = []
        var delivered: Set<Key> = []
        var lastReliable: [StreamKey: UInt64] = [:]

        struct Key: Hashable {
            let source: ParticipantID
            let stream: UInt32
            let sequence: UInt64
        }

        struct StreamKey: Hashable {
            let source: ParticipantID
            let stream: UInt32
        }

        mutating func check(_ outputs: [DeliveryEngine.Output], engine: DeliveryEngine, wasRemoved: ParticipantID?) {
            var removed = wasRemoved
            for output in outputs {
                if case .joined(let participant) = output, participant == removed { removed = nil }
                guard case .deliver(let message) = output, message.source == removed else { continue }
                violations.append("delivered a frame from \(message.source), which was removed")
            }
            for case .deliver(let message) in outputs {
                guard let header = try? DeliveryFraming.peek(message.bytes).delivery else { continue }
                let key = Key(source: message.source, stream: header.stream, sequence: header.sequence)
                if !delivered.insert(key).inserted {
                    violations.append(
                        "delivered stream \(header.stream) sequence \(header.sequence) from \(message.source) twice")
                }
                if header.isReliable {
                    let stream = StreamKey(source: message.source, stream: header.stream)
                    let last = lastReliable[stream] ?? 0
                    if header.sequence != last + 1 {
                        violations.append("reliable stream \(header.stream) delivered \(header.sequence) after \(last)")
                    }
                    lastReliable[stream] = header.sequence
                }
            }
            let configuration = engine.configuration
            for (source, inbound) in engine.inbound {
                if let reliable = inbound.reliable {
                    if reliable.waiting.count > configuration.reorderWindow
                        || reliable.waitingBytes > configuration.maxBufferedBytes
                    {
                        violations.append("\(reliable.waiting.count) frames, \(reliable.waitingBytes) bytes wait from \(source)")
                    }
                    if reliable.waitingBytes != reliable.waiting.values.reduce(0, { $0 + $1.bytes.count }) {
                        violations.append("the reorder buffer of \(source) miscounts its bytes")
                    }
                }
                if inbound.retired.count > DeliveryEngine.retiredLimit {
                    violations.append("\(inbound.retired.count) retired incarnations of \(source)")
                }
            }
            var total = 0
            for (recipient, outbound) in engine.outbound {
                if engine.removed.contains(recipient), outbound.pending.count > 1 {
                    violations.append("\(outbound.pending.count) frames kept for \(recipient), which was removed")
                }
                if !engine.removed.contains(recipient) {
                    let inFlight = outbound.pending.reduce(0) { $0 + ($1.inFlight ? $1.bytes.count : 0) }
                    if inFlight != outbound.congestion.bytesInFlight {
                        violations.append(
                            "\(outbound.congestion.bytesInFlight) bytes counted in flight to \(recipient), the frames hold \(inFlight)"
                        )
                    }
                    let neverSent = outbound.pending.reversed().prefix { $0.transmission == 0 }.count
                    if neverSent != outbound.unsent
                        || outbound.pending.dropLast(outbound.unsent).contains(where: { $0.transmission == 0 })
                    {
                        violations.append(
                            "\(outbound.unsent) frames counted unsent to \(recipient), \(neverSent) at the end never went")
                    }
                    if outbound.pending.contains(where: { $0.held && ($0.inFlight || $0.lost) || $0.inFlight && $0.lost }) {
                        violations.append("a frame to \(recipient) is both held, in flight or lost")
                    }
                    if outbound.congestion.window < CongestionControl.minimumWindow
                        || outbound.congestion.window > configuration.maxBufferedBytes
                    {
                        violations.append("congestion window \(outbound.congestion.window) to \(recipient) out of bounds")
                    }
                    if let base = outbound.pending.first?.sequence,
                        outbound.pending.enumerated().contains(where: { $0.element.sequence != base + UInt64($0.offset) })
                    {
                        violations.append("the frames kept for \(recipient) are not consecutive")
                    }
                }
                let bytes = outbound.pending.reduce(0) { $0 + $1.bytes.count }
                if bytes != outbound.pendingBytes || bytes > configuration.maxBufferedBytes {
                    violations.append("\(bytes) bytes kept for \(recipient) (counted \(outbound.pendingBytes))")
                }
                total += bytes
            }
            if total != engine.statistics.bufferedBytes {
                violations.append("statistics say \(engine.statistics.bufferedBytes) bytes are kept, the buffers hold \(total)")
            }
        }
    }
}
