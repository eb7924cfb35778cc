/// The round-trip time to one recipient, estimated as RFC 9002 section 5 does (Spec/FORMAT.md,
/// "Delivery", "Round-trip time"): the latest sample, the minimum, the smoothed value and
/// its variation, samples taken from frames sent once and corrected by the receiver's
/// reported acknowledgement delay.
struct RoundTripEstimate: Sendable, Hashable {
    /// The timer granularity: no threshold or timeout is shorter. 1 ms.
    static let granularity: Duration = .milliseconds(1)

    private(set) var latest: Duration = .zero
    private(set) var minimum: Duration = .zero
    private(set) var smoothed: Duration
    private(set) var variation: Duration
    private(set) var hasSample = false
    /// The smallest sample of the round trip under way (a round lasts one smoothed round
    /// trip from its first sample) and how many it has, and the smallest of the last
    /// complete one if it had at least `queueSamples` (else nil: too few to say).
    private var roundStart: Duration = .zero
    private var roundMinimum: Duration?
    private var roundSamples = 0
    private(set) var lastRoundMinimum: Duration?
    /// The samples a round needs before its smallest says anything about a queue: RFC
    /// 9406's N_RTT_SAMPLE. On a path whose delay varies, the smallest of one or two samples
    /// is as likely high as low, and reads as a queue that is not there.
    static let queueSamples = 8
    /// The longest any frame sent once took to be acknowledged, in the round under way and
    /// in each of the last `maximumRounds` complete ones, oldest first (see `arrived(after:)`).
    private var roundMaximum: Duration = .zero
    private var lastRoundMaxima: [Duration] = []
    static let maximumRounds = 8
    /// The bounds of the queue threshold (`showsQueueing`), made once rather than per sample.
    private static let queueThresholdFloor = Duration.milliseconds(4)
    private static let queueThresholdCeiling = Duration.milliseconds(16)

    /// Before the first sample: `initial` smoothed, half of it as variation.
    init(initial: Duration) {
        smoothed = initial
        variation = initial / 2
    }

    /// Takes a sample at `now`: `sample` from the send to the acknowledgement, of which the
    /// receiver held the acknowledgement back `ackDelay` (already limited to the maximum).
    mutating func add(_ sample: Duration, ackDelay: Duration, now: Duration) {
        latest = sample
        if roundMinimum == nil || now - roundStart >= smoothed {
            if roundMinimum != nil { lastRoundMinimum = roundSamples >= Self.queueSamples ? roundMinimum : nil }
            if lastRoundMaxima.count == Self.maximumRounds { lastRoundMaxima.removeFirst() }
            lastRoundMaxima.append(roundMaximum)
            roundStart = now
            roundMinimum = sample
            roundMaximum = sample
            roundSamples = 1
        } else {
            roundMinimum = min(roundMinimum ?? sample, sample)
            roundMaximum = max(roundMaximum, sample)
            roundSamples += 1
        }
        guard hasSample else {
            hasSample = true
            minimum = sample
            smoothed = sample
            variation = sample.scaled(1, 2)
            return
        }
        minimum = min(minimum, sample)
        // The delay the receiver added is taken off, unless that would go below the minimum.
        let adjusted = sample >= minimum + ackDelay ? sample - ackDelay : sample
        let difference = smoothed > adjusted ? smoothed - adjusted : adjusted - smoothed
        variation = Duration(attoseconds: (variation.attoseconds * 3 + difference.attoseconds) / 4)
        smoothed = Duration(attoseconds: (smoothed.attoseconds * 7 + adjusted.attoseconds) / 8)
    }

    /// Books how long a frame sent once took from its send to the acknowledgement that
    /// first covered it, whichever frame of the acknowledgement it was. The samples above
    /// come from each acknowledgement's highest frame only, which on a path whose delay
    /// varies are the frames that overtook others: they underestimate what the late ones
    /// take, and those are exactly the frames loss detection waits for.
    mutating func arrived(after took: Duration) {
        roundMaximum = max(roundMaximum, took)
    }

    /// The longest a frame sent once took to be acknowledged, over the round under way and
    /// the last `maximumRounds` complete ones.
    var recentMaximum: Duration { lastRoundMaxima.reduce(roundMaximum, max) }

    /// How much later than a frame another may have been sent and still arrive first on
    /// this path: the larger of `reordering` (the extra delay of frames seen overtaken) and
    /// four variations (a path whose delay varies reorders; the samples, from the frames
    /// that arrived first, see less of the variation than the frames they overtook). Never
    /// more than a retransmission timeout (RFC 6298: the smoothed round trip plus four
    /// variations), since waiting longer for a frame that may only be late delays the
    /// repair of every frame that is lost (RACK caps its reordering window likewise, RFC
    /// 8985 section 6.2), unless frames sent once took longer than that over the last
    /// eight rounds and arrived: then up to 9/8 of what they took beyond the smoothed round
    /// trip, since a frame as late as those is only late. And at least 9/8 of `lateArrivals`
    /// (how late most of the frames that arrived far out of order lately were): on a path that
    /// holds a share of its frames back far longer than its round trip, a frame missing
    /// for less than that is more likely held than lost, and sending it again would cost a
    /// copy for each of them.
    func reorderingTolerance(reordering: Duration, lateArrivals: Duration) -> Duration {
        let recent = recentMaximum.scaled(9, 8)
        let deviation = variation.scaled(4)
        let cap = max(smoothed + deviation, recent > smoothed ? recent - smoothed : .zero)
        return max(min(max(reordering, deviation), cap), lateArrivals.scaled(9, 8))
    }

    /// How long after a frame was sent it is declared lost once a later frame was
    /// acknowledged: 9/8 (RFC 9002's margin) of the largest of the smoothed round trip, the
    /// latest, and the smoothed round trip plus the reordering tolerance; a frame a little
    /// later than the latest seen overtaken is still only late.
    func lossDelay(reordering: Duration, lateArrivals: Duration) -> Duration {
        let tolerance = reorderingTolerance(reordering: reordering, lateArrivals: lateArrivals)
        return max(max(smoothed, latest, smoothed + tolerance).scaled(9, 8), Self.granularity)
    }

    /// The probe timeout before backoff: smoothed + max(4 × variation, granularity) + the
    /// receiver's maximum acknowledgement delay.
    func probeTimeout(maxAckDelay: Duration) -> Duration {
        smoothed + max(variation.scaled(4), Self.granularity) + maxAckDelay
    }

    /// Whether the path shows a queue: the smallest sample of the last complete round trip,
    /// which had at least `queueSamples` samples, is above the minimum by more than RFC
    /// 9406's threshold, an eighth of the minimum clamped to 4 ... 16 ms. The smallest of a
    /// round, as HyStart++ takes, so one late sample (a receiver that lost its core for a
    /// moment) is not a queue, while a round in which every acknowledgement came late is.
    var showsQueueing: Bool {
        guard let lastRoundMinimum else { return false }
        let threshold = min(max(minimum.scaled(1, 8), Self.queueThresholdFloor), Self.queueThresholdCeiling)
        return lastRoundMinimum >= minimum + threshold
    }
}

/// How late the frames that arrived far out of order lately were, beyond the smoothed
/// round trip: the 95th percentile of the last `capacity` samples, counting those taken
/// while the latest `span` frames were acknowledged, or zero when fewer than
/// `minimumCount` count (Spec/FORMAT.md, "Reordering"). A sample is a frame sent once that
/// a later copy overtook, or a frame declared lost whose first copy arrived after all, when
/// it took longer than a probe timeout (the smoothed round trip, four variations and the
/// receiver's maximum acknowledgement delay) beyond the smoothed round trip: the frames the
/// path's own variation and the receiver's acknowledgement delay account for are not in it,
/// so a path that varies a little for most frames and holds a few far longer keeps the
/// percentile at the long ones (counting the others took it to 1–2 ms on a path under a
/// millisecond whose acknowledgements wait up to 10 ms). Unlike the reordering the
/// thresholds keep (the largest ever seen), it follows what the path does now and is not
/// moved by one frame held twice as long as the rest. Its clock is the frames
/// acknowledged, not the copies sent: a burst of sends does not age the samples before the
/// frames held back in it arrive.
struct LateArrivals: Sendable, Hashable {
    /// The samples kept. 64.
    static let capacity = 64
    /// The samples needed before the percentile counts. 8.
    static let minimumCount = 8
    /// The frames acknowledged after a sample was taken for which it still counts. 4,096.
    static let span: UInt64 = 4096

    private struct Sample: Sendable, Hashable {
        let delay: Duration
        /// The highest sequence acknowledged in order when the sample was taken.
        let takenAt: UInt64
    }

    /// Oldest first, at most `capacity`.
    private var samples: [Sample] = []
    /// The 95th percentile of the samples that count (zero: too few).
    private(set) var delay: Duration = .zero
    /// `delay` holds until the acknowledged sequence passes this (its oldest sample stops counting).
    private var validThrough: UInt64 = .max

    /// A frame arrived `delay` later than the smoothed round trip, when the receiver had
    /// acknowledged every frame through `acknowledged` in order.
    mutating func add(_ delay: Duration, acknowledged: UInt64) {
        if samples.count == Self.capacity { samples.removeFirst() }
        samples.append(Sample(delay: delay, takenAt: acknowledged))
        recompute(acknowledged: acknowledged)
    }

    /// Drops the samples that no longer count now that the receiver acknowledged every frame
    /// through `acknowledged` in order (it never goes back).
    mutating func refresh(acknowledged: UInt64) {
        if acknowledged > validThrough { recompute(acknowledged: acknowledged) }
    }

    private mutating func recompute(acknowledged: UInt64) {
        samples.removeAll { acknowledged - $0.takenAt > Self.span }
        guard samples.count >= Self.minimumCount, let oldest = samples.first else {
            delay = .zero
            validThrough = samples.first.map { $0.takenAt + Self.span } ?? .max
            return
        }
        let sorted = samples.map(\.delay).sorted()
        delay = sorted[min(sorted.count - 1, sorted.count * 19 / 20)]
        validThrough = oldest.takenAt + Self.span
    }
}

/// Which of the copies sent to one recipient lately were declared lost, by send number, so
/// that the loss rate is a share of copies sent, however the declarations are spread in
/// time: losses past the time threshold are declared many at once, at a timer tick or an
/// acknowledgement that comes after a pause, and a rate that counted events in the order
/// they were booked (an average moved toward 1 per loss and toward 0 per acknowledgement)
/// read such a batch as a burst of loss (13–63% on a path losing 5%).
struct LossHistory: Sendable, Hashable {
    /// The copies a rate is taken over: the one declared lost and the 127 sent before it.
    static let span: UInt64 = 128

    /// A ring of bits by send number (bit `n % capacity` for copy `n`): set while declared lost.
    private var bits: [UInt64]
    private let capacity: UInt64

    /// A history long enough for `reorderWindow` frames in flight, and `span` before them.
    init(reorderWindow: Int) {
        let words = (2 * max(UInt64(max(reorderWindow, 0)), Self.span) + 63) / 64
        bits = [UInt64](repeating: 0, count: Int(words))
        capacity = words * 64
    }

    /// Copy `transmission` went out: its bit, last used by the copy `capacity` before it, starts clear.
    mutating func sent(_ transmission: UInt64) {
        set(transmission, false)
    }

    /// Copy `transmission` was declared lost (`true`), or was shown to have arrived after all.
    /// - Parameter next: the send number the next copy will take; a copy `capacity` or more
    ///   before it has no bit any more.
    mutating func mark(_ transmission: UInt64, lost: Bool, next: UInt64) {
        guard transmission < next, next - transmission <= capacity else { return }
        set(transmission, lost)
    }

    /// The share of the `span` copies up to `transmission` declared lost (copies before the
    /// first count as arrived); nil if copies sent since took over their bits.
    func rate(through transmission: UInt64, next: UInt64) -> Double? {
        let first = transmission >= Self.span ? transmission - Self.span + 1 : 0
        guard transmission < next, next - first <= capacity else { return nil }
        var lost = 0
        var number = first
        while number <= transmission {
            let slot = number % capacity
            let word = bits[Int(slot / 64)] >> (slot % 64)
            // The bits left in this word up to `transmission`, counted at once.
            let run = min(64 - slot % 64, transmission - number + 1)
            lost += (run == 64 ? word : word & ((1 << run) - 1)).nonzeroBitCount
            number += run
        }
        return Double(lost) / Double(Self.span)
    }

    private mutating func set(_ transmission: UInt64, _ value: Bool) {
        let slot = transmission % capacity
        if value {
            bits[Int(slot / 64)] |= 1 << (slot % 64)
        } else {
            bits[Int(slot / 64)] &= ~(1 << (slot % 64))
        }
    }
}

/// A congestion window and pacer for one recipient (Spec/FORMAT.md, "Delivery",
/// "Congestion control"): NewReno's slow start, congestion avoidance and recovery period
/// (RFC 9002 section 7) in bytes with CUBIC's gentler decrease (0.7, RFC 9438), where a loss
/// shrinks the window only when it is a sign of congestion: the path shows a queue, or more
/// than an eighth of the copies sent lately were lost (``LossHistory``).
/// Random loss on an uncongested link (radio, a lossy hop) is repaired without slowing
/// down. A pacer spreads what the window allows over the round trip.
struct CongestionControl: Sendable, Hashable {
    /// The size the window counts in (QUIC's smallest maximum datagram). 1,200 bytes.
    static let datagram = 1200
    /// The window at the start: ten datagrams.
    static let initialWindow = 10 * datagram
    /// The smallest window: two datagrams.
    static let minimumWindow = 2 * datagram
    /// The loss rate above which a loss counts as congestion even without a queue.
    static let congestiveLossRate = 1.0 / 8
    /// Pacing rate: this many times the window per smoothed round trip.
    static let pacingGain = 1.25

    /// Bytes that may be in flight.
    private(set) var window = initialWindow
    /// Where slow start ends; `Int.max` until the first congestion event.
    private(set) var slowStartThreshold = Int.max
    /// Bytes sent and neither acknowledged nor declared lost.
    private(set) var bytesInFlight = 0
    /// The start of the current recovery period: losses of frames sent before it do not
    /// shrink the window again.
    private(set) var recoveryStart: Duration?
    /// Congestion events so far (each took the window to 0.7 of itself, or to the minimum).
    private(set) var congestionEvents = 0
    /// Bytes acknowledged in congestion avoidance not yet turned into window growth.
    private var acknowledgedInAvoidance = 0
    /// The pacer's budget in bytes, and when it was last topped up.
    private var tokens = Double(initialWindow)
    private var tokensAt: Duration?
    /// The largest window allowed (the recipient's buffer: more could never be sent).
    let maximumWindow: Int
    /// The pacer's rate and burst, and the window, round trip and period they were made for.
    private var pacer = Pacer(window: 0, smoothed: .zero, period: .zero, rate: 0, burst: 0)

    /// The pacer's rate and burst for one window, round trip and period.
    private struct Pacer: Sendable, Hashable {
        let window: Int
        let smoothed: Duration
        let period: Duration
        let rate: Double
        let burst: Double
    }

    init(maximumWindow: Int) {
        self.maximumWindow = max(maximumWindow, Self.minimumWindow)
        window = min(Self.initialWindow, self.maximumWindow)
    }

    var isInSlowStart: Bool { window < slowStartThreshold }

    /// Whether another frame may go now: the window has room (one frame may overshoot it,
    /// so a frame larger than the window still goes) and the pacer has budget, or nothing
    /// is in flight (no acknowledgement is on its way to release a frame the pacer held
    /// back, which would then wait for the layer's next tick: a frame larger than the
    /// pacer's burst leaves it in debt for longer than a fast path's round trip).
    var canSend: Bool { bytesInFlight < window && (tokens > 0 || bytesInFlight == 0) }

    /// Bytes per second the pacer lets out: 1.25 × window / smoothed round trip.
    func pacingRate(smoothed: Duration) -> Double {
        let seconds = max(smoothed.seconds, 1e-6)
        return Self.pacingGain * Double(window) / seconds
    }

    /// Tops up the pacer for the time passed since the last top-up, up to a burst of the
    /// larger of the initial window and what the rate allows in one `period`.
    mutating func refill(now: Duration, smoothed: Duration, period: Duration) {
        // A top-up comes with every frame an app sends; the rate and burst change only with
        // the window and the round trip, a few times per round trip, and each is made of
        // divisions of 128-bit durations: made again only then.
        if pacer.window != window || pacer.smoothed != smoothed || pacer.period != period {
            let rate = pacingRate(smoothed: smoothed)
            pacer = Pacer(
                window: window, smoothed: smoothed, period: period, rate: rate,
                burst: max(Double(Self.initialWindow), rate * period.seconds))
        }
        let (rate, burst) = (pacer.rate, pacer.burst)
        if let last = tokensAt, now > last {
            tokens = min(burst, tokens + rate * (now - last).seconds)
        } else if tokensAt == nil {
            tokens = burst
        }
        tokensAt = max(tokensAt ?? now, now)
    }

    /// A frame of `bytes` went out.
    mutating func sent(_ bytes: Int) {
        bytesInFlight += bytes
        tokens -= Double(bytes)
    }

    /// A frame of `bytes` sent at `sentAt` was acknowledged (or is held by the receiver);
    /// `windowLimited`: when the acknowledgement came, the window was at least half used or
    /// frames waited for it (an application sending less than the window does not prove
    /// the path carries more, RFC 9002 section 7.8).
    mutating func acknowledged(_ bytes: Int, sentAt: Duration, windowLimited: Bool) {
        bytesInFlight -= bytes
        if let recoveryStart, sentAt <= recoveryStart { return }
        guard windowLimited else { return }
        if isInSlowStart {
            window = min(window + bytes, maximumWindow)
        } else {
            acknowledgedInAvoidance += bytes
            if acknowledgedInAvoidance >= window {
                acknowledgedInAvoidance -= window
                window = min(window + Self.datagram, maximumWindow)
            }
        }
    }

    /// A frame of `bytes` was declared lost.
    mutating func lost(_ bytes: Int) {
        bytesInFlight -= bytes
    }

    /// Frames were declared lost, the latest of them sent at `sentAt`, and `lossRate` of
    /// the copies sent up to it were: a congestion event unless the recovery period already
    /// covers it or the loss looks random (no queue, and at most an eighth lost).
    mutating func congestion(sentAt: Duration, now: Duration, queueing: Bool, lossRate: Double) {
        if let recoveryStart, sentAt <= recoveryStart { return }
        guard queueing || lossRate > Self.congestiveLossRate else { return }
        recoveryStart = now
        congestionEvents += 1
        window = max(window * 7 / 10, Self.minimumWindow)
        slowStartThreshold = window
        acknowledgedInAvoidance = 0
    }

    /// The path shows a queue while the window grows exponentially: slow start ends here
    /// (HyStart++, RFC 9406), without shrinking the window.
    mutating func queueGrowing() {
        if isInSlowStart { slowStartThreshold = window }
    }

    /// Probes went unanswered for three probe timeouts: persistent congestion, the window
    /// falls to the minimum.
    mutating func persistentCongestion(now: Duration) {
        window = Self.minimumWindow
        slowStartThreshold = max(slowStartThreshold == Int.max ? Self.initialWindow : slowStartThreshold / 2, Self.minimumWindow)
        recoveryStart = now
        congestionEvents += 1
        acknowledgedInAvoidance = 0
    }
}
