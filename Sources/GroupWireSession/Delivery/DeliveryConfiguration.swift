/// The bounds and timers of a ``DeliveryTransport`` (Spec/FORMAT.md, "Delivery"); every
/// default is the documented one.
public struct DeliveryConfiguration: Sendable {
    /// What a reliable `send` does when its frames do not fit a recipient's buffer.
    public enum WhenFull: Sendable, Hashable {
        /// Wait until acknowledgements make room (or the recipient leaves or is removed).
        case wait
        /// Throw `WireError.Kind.bufferFull` at once, before any frame is sent.
        case fail
    }

    /// The bytes of reliable frames kept for one recipient until acknowledged (the
    /// retransmission buffer, which is also the outbound queue), and the bytes of frames
    /// one sender's reliable stream may hold in the reorder buffer. 1 MiB.
    public var maxBufferedBytes: Int = 1 << 20
    /// What sending does when a recipient's buffer is full.
    public var whenFull: WhenFull = .wait
    /// Frames a receiver holds ahead of the next expected one, per sender, and so the most
    /// reliable frames a sender keeps unacknowledged per recipient. 1,024.
    public var reorderWindow: Int = 1024
    /// The round trip assumed before the first sample (RFC 9002's initial RTT, lowered for
    /// the links group sessions use): the first probe timeout is 100 + 4 × 50 + 10 ms. 100 ms.
    public var initialRTT: Duration = .milliseconds(100)
    /// The longest probe timeout after backoff, and the interval of the probe a removed
    /// recipient gets. 1.6 s.
    public var maxProbeTimeout: Duration = .milliseconds(1600)
    /// How long a recipient's acknowledgements may make no progress while frames wait for
    /// it before it is reported and removed. 5 s.
    public var peerTimeout: Duration = .seconds(5)
    /// The longest a receiver holds back an acknowledgement, which its sender adds to the
    /// probe timeout; also the period of the layer's timer. After a tick with nothing to
    /// do (no acknowledgement owed, no frame kept) the layer sets no timer until work
    /// comes, and its first tick then is half a period later. 10 ms.
    public var maxAckDelay: Duration = .milliseconds(10)
    /// A receiver acknowledges at once after this many reliable frames received since its
    /// last acknowledgement while it holds frames behind a missing one (or the arrival let
    /// held ones out), four times as many while its stream is in order, or frames of 2,400
    /// bytes either way (the sender's smallest congestion window, so a window of a few
    /// large frames is not left waiting for the timer). An arrival that lets held frames
    /// out counts as one frame, and their bytes count too, so filling a gap behind 2,400
    /// bytes of held frames is acknowledged at once. 16.
    public var ackEvery: Int = 16
    /// The time source for timers; nil (the default) takes the transport's
    /// (``Transport/clock``: the system's, or a test hub's virtual clock).
    public var clock: TimerClock?
    /// Picks stream incarnations (1 ... 2^31-1); random by default. A seeded source makes
    /// a simulated run replay byte for byte.
    public var incarnations: @Sendable () -> UInt32

    /// Creates a configuration with the documented defaults.
    public init(
        clock: TimerClock? = nil, incarnations: @escaping @Sendable () -> UInt32 = DeliveryConfiguration.randomIncarnation
    ) {
        self.clock = clock
        self.incarnations = incarnations
    }

    /// A random incarnation in 1 ... 2^31-1.
    public static let randomIncarnation: @Sendable () -> UInt32 = { UInt32.random(in: 1...(UInt32.max >> 1)) }
}
