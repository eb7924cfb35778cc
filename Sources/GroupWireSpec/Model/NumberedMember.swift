/// What fields, enum cases and union cases share: a stable number, a name and a location.
///
/// Checks and tools that treat all members alike (uniqueness, reservations, matching two
/// versions) take `some NumberedMember`.
public protocol NumberedMember: Sendable {
    /// The stable number.
    var number: UInt64 { get }
    /// The name.
    var name: String { get }
    /// Where the member's number is.
    var location: SourceLocation { get }
}

extension FieldDecl: NumberedMember {}
extension EnumCaseDecl: NumberedMember {}
extension UnionCaseDecl: NumberedMember {}
