#if canImport(AVFoundation)
    import AVFoundation
    import Synchronization

    /// An `AVPlayer` as a ``CoordinatedPlayer``: positions and rates go straight to the
    /// player, items come from the app (`makeItem` turns the group's item name into an
    /// `AVPlayerItem`), and a wait to minimize stalls is reported as a stall.
    ///
    /// On Apple's platforms Apple's own `AVPlayerPlaybackCoordinator` coordinates with
    /// FaceTime's SharePlay; this adapter is for a GroupWire session, which also reaches
    /// devices without Apple's frameworks.
    public final class AVPlayerAdapter: CoordinatedPlayer, @unchecked Sendable {
        /// The player driven.
        public let player: AVPlayer
        /// Stalls (a wait to minimize stalls) and recoveries, as the player reports them.
        public let events: AsyncStream<CoordinatedPlayerEvent>
        private let continuation: AsyncStream<CoordinatedPlayerEvent>.Continuation
        private let makeItem: @Sendable (String?) -> AVPlayerItem?
        private let stalled = Mutex(false)
        private var observation: NSKeyValueObservation?

        /// Drives `player`; `makeItem` gives the item for a name (nil: none).
        public init(player: AVPlayer, makeItem: @escaping @Sendable (String?) -> AVPlayerItem?) {
            self.player = player
            self.makeItem = makeItem
            (events, continuation) = AsyncStream.makeStream()
            observation = player.observe(\.timeControlStatus, options: [.new]) { [weak self] player, _ in
                guard let self else { return }
                let waiting =
                    player.timeControlStatus == .waitingToPlayAtSpecifiedRate
                    && player.reasonForWaitingToPlay == .toMinimizeStalls
                let changed = self.stalled.withLock { stalled -> Bool in
                    if waiting == stalled { return false }
                    if !waiting && player.timeControlStatus != .playing { return false }
                    stalled = waiting
                    return true
                }
                if changed { self.continuation.yield(waiting ? .stalled : .recovered) }
            }
        }

        deinit {
            observation?.invalidate()
            continuation.finish()
        }

        /// The player's current time in seconds (0 while it has none).
        public var currentTime: Double {
            let time = player.currentTime()
            return time.isNumeric ? time.seconds : 0
        }

        /// The player's rate.
        public var rate: Double { Double(player.rate) }

        /// Sets the player's rate.
        public func setRate(_ rate: Double) { player.rate = Float(rate) }

        /// Seeks exactly (no tolerance either side).
        public func seek(to time: Double) {
            player.seek(
                to: CMTime(seconds: time, preferredTimescale: 1_000_000), toleranceBefore: .zero, toleranceAfter: .zero)
        }

        /// Replaces the item with the app's item for `item`, then seeks to `time`.
        public func load(item: String?, at time: Double) {
            player.replaceCurrentItem(with: makeItem(item))
            seek(to: time)
        }
    }
#endif
