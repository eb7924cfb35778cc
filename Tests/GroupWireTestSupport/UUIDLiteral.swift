import Foundation

extension UUID {
    /// A UUID a test writes as text; text that is not a UUID stops the run at once, naming it.
    package init(_ text: StaticString) {
        guard let uuid = UUID(uuidString: "\(text)") else { preconditionFailure("'\(text)' is not a UUID") }
        self = uuid
    }
}
