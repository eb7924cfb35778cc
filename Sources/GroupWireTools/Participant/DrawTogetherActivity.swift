import GroupWireSession

/// The DrawTogether activity, as `groupwire simulate` and `groupwire participant` start
/// and join it: the same identifier in every app version.
struct DrawTogetherActivity: SharedActivity {
    static let activityIdentifier = "com.example.draw-together"
    var name: String
    var activityMetadata: SharedActivityMetadata { SharedActivityMetadata(title: "Draw: \(name)", type: .createTogether) }
}
