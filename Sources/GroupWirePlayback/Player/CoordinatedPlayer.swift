/// A player the ``PlaybackCoordinator`` keeps in step with the group: it reads the player's
/// position and rate, and sets them. An app's player conforms through a small adapter
/// (on Apple's platforms, `AVPlayerAdapter` for `AVPlayer`); tests and simulations use
/// GroupWireTesting's `SimulatedPlayer`.
///
/// The coordinator calls these from its own tasks: a conforming type is thread-safe.
public protocol CoordinatedPlayer: AnyObject, Sendable {
    /// The current item's position, in seconds.
    var currentTime: Double { get }
    /// The rate the player plays at now (0 while paused or stalled).
    var rate: Double { get }
    /// Plays at `rate` (0 pauses); the coordinator nudges it slightly above or below the
    /// group's rate to close a small gap.
    func setRate(_ rate: Double)
    /// Moves to `time` seconds in the current item.
    func seek(to time: Double)
    /// Loads `item` (nil: none) at `time` seconds.
    func load(item: String?, at time: Double)
    /// What happens to the player that the group should know: stalls, and what the user
    /// does through the player's own controls. The coordinator reads it while it runs.
    var events: AsyncStream<CoordinatedPlayerEvent> { get }
}

/// What a player reports to its coordinator.
public enum CoordinatedPlayerEvent: Sendable, Equatable {
    /// It ran out of media and cannot keep up (buffering): the coordinator begins a
    /// `stallRecovery` suspension.
    case stalled
    /// It can play again: the coordinator ends the suspension.
    case recovered
    /// The user moved the player (its own controls, not the app's): the group moves there.
    case userSeeked(to: Double)
    /// The user changed the player's rate (0 pauses): the group follows.
    case userChangedRate(Double)
}
