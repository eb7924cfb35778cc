import GroupWireSession

/// The group's timeline: which item plays, at what rate, and where it is at one instant of
/// the group clock; from it every participant computes where its player should be at any
/// instant (``expectedTime(at:)``). Every change is a new timeline; of two, the one with
/// the greater ``stamp`` wins everywhere (Spec/PLAYBACK.md, "The timeline").
public struct PlaybackTimeline: Sendable, Equatable {
    /// The item, as the app names it; nil for none.
    public var item: String?
    /// 0 is paused, 1 normal speed.
    public var rate: Double
    /// The item's position in seconds at ``groupTime``.
    public var mediaTime: Double
    /// The anchor instant on the group clock.
    public var groupTime: Duration
    /// The change's order: a Lamport clock, then the author's id.
    public var stamp: Stamp
    /// Why it changed.
    public var change: Change

    /// Orders timelines the same way on every participant: the greater clock, then the
    /// greater author id (its 16 bytes compared in order, as its UUID text is).
    public struct Stamp: Sendable, Hashable, Comparable {
        /// The Lamport clock of the change.
        public var clock: UInt64
        /// Who made the change.
        public var author: ParticipantID

        /// A stamp of `clock` by `author`.
        public init(clock: UInt64, author: ParticipantID) {
            self.clock = clock
            self.author = author
        }

        /// Whether `lhs` orders before `rhs`: the smaller clock, then the smaller author.
        public static func < (lhs: Stamp, rhs: Stamp) -> Bool {
            if lhs.clock != rhs.clock { return lhs.clock < rhs.clock }
            return lhs.author < rhs.author
        }
    }

    /// Why a timeline changed.
    public enum Change: UInt32, Sendable, Hashable {
        case none = 0, play, pause, seek, rate, item, wait, resume
    }

    /// A timeline with these values.
    public init(item: String?, rate: Double, mediaTime: Double, groupTime: Duration, stamp: Stamp, change: Change) {
        self.item = item
        self.rate = rate
        self.mediaTime = mediaTime
        self.groupTime = groupTime
        self.stamp = stamp
        self.change = change
    }

    /// Where the item should be at group instant `time`: the anchor's position moved on at
    /// the rate (before the anchor too, so a late change is met where it is now), never
    /// before the item's start.
    public func expectedTime(at time: Duration) -> Double {
        max(0, mediaTime + rate * (time - groupTime).seconds)
    }
}
