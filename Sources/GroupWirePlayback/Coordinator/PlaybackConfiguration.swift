/// How a ``PlaybackCoordinator`` coordinates (Spec/PLAYBACK.md gives each default's reason).
public struct PlaybackConfiguration: Sendable {
    /// How far ahead of now a change takes effect on the group clock, so that it reaches
    /// everyone before its instant. Default 250 ms (a path's delay and one resend).
    public var commandLead: Duration = .milliseconds(250)
    /// The suspension reasons that make the group wait (pause until the suspension ends).
    /// Default: stall recovery.
    public var suspensionReasonsThatTriggerWaiting: Set<PlaybackSuspensionReason> = [.stallRecovery]
    /// The group waits out suspensions only while it has at most this many participants.
    /// Default 8.
    public var participantLimitForWaitingOutSuspensions = 8
    /// A paused position is rounded to a multiple of this many seconds (a frame: 1/24);
    /// nil keeps it as computed. Default nil.
    public var pauseGranularity: Double?
    /// How often the player is compared with the timeline. Default 100 ms.
    public var correctionInterval: Duration = .milliseconds(100)
    /// A gap at least this large is closed by a seek. Default 150 ms.
    public var seekThreshold: Duration = .milliseconds(150)
    /// A gap below this is left alone. Default 2 ms.
    public var tolerance: Duration = .milliseconds(2)
    /// A gap between ``tolerance`` and ``seekThreshold`` is closed by playing faster or
    /// slower by up to this fraction of the group's rate. Default 0.05.
    public var maxRateAdjustment = 0.05
    /// The time over which a rate change closes a gap. Default 1 second.
    public var correctionHorizon: Duration = .seconds(1)
    /// Clock exchanges: the first ``clockBurst`` at ``clockBurstInterval``; then one every
    /// ``clockSettlingInterval`` while the estimate's uncertainty is above
    /// ``clockSettledUncertainty``, and one every ``clockInterval`` after. Defaults 8,
    /// 250 ms, 1 s, 20 ms, 5 s.
    public var clockBurst = 8
    /// The interval of the first exchanges, and of every exchange before the first answer.
    public var clockBurstInterval: Duration = .milliseconds(250)
    /// The interval while the estimate's uncertainty is above ``clockSettledUncertainty``.
    public var clockSettlingInterval: Duration = .seconds(1)
    /// The uncertainty below which the estimate counts as settled.
    public var clockSettledUncertainty: Duration = .milliseconds(20)
    /// The interval once the estimate has settled.
    public var clockInterval: Duration = .seconds(5)

    /// The defaults.
    public init() {}
}

/// Why a participant's player cannot follow the group for a while (a suspension).
public struct PlaybackSuspensionReason: Sendable, Hashable, CustomStringConvertible {
    /// The reason's name on the wire.
    public let name: String

    /// A reason named `name` (an app's own, or one of the constants).
    public init(_ name: String) { self.name = name }

    /// The player ran out of media (buffering).
    public static let stallRecovery = PlaybackSuspensionReason("stallRecovery")
    /// The audio session was interrupted (a call).
    public static let interrupted = PlaybackSuspensionReason("interrupted")
    /// The user is scrubbing: the group follows when the suspension ends with a time.
    public static let userChangingCurrentTime = PlaybackSuspensionReason("userChangingCurrentTime")
    /// The participant waits for others before it plays.
    public static let waitingForOthers = PlaybackSuspensionReason("waitingForOthers")

    /// The reason's name.
    public var description: String { name }
}
