import GroupWireSession

/// The DrawTogether activity, as `groupwire simulate` and `groupwire participant` start
/// and join it: the same identifier in every app version.
struct DrawTogetherActivity: GroupActivity {
    static let activityIdentifier = "com.example.draw-together"
    var name: String
    var metadata: GroupActivityMetadata { GroupActivityMetadata(title: "Draw: \(name)", type: .createTogether) }
}
