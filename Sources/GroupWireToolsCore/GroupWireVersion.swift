/// The version of this package, printed by `groupwire --version` and
/// `groupwire-generate --version`. The one place it is written: the release process bumps
/// it here (and tags the commit `v` + this value).
package enum GroupWireVersion {
    /// The package version (semantic versioning).
    package static let current = "0.1.0"
}
