// A stand-in for the part of Apple's Combine that GroupActivities exposes (`@Published`
// properties and their publishers' `sink`), so the GroupActivities stand-in beside it can
// declare Apple's signatures on Linux. Built only by ReadmePackageTests; it publishes
// nothing.

/// A type whose `@Published` properties publish their changes.
public protocol ObservableObject: AnyObject {}

/// Cancels a subscription when cancelled or released.
public final class AnyCancellable: Hashable, Sendable {
    private let id = ObjectIdentifier(Never.self)

    /// A subscription that does nothing when cancelled.
    public init() {}

    /// Ends the subscription.
    public func cancel() {}

    /// The same subscription.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    /// Hashes the subscription's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A property that publishes its changes through `$property`.
@propertyWrapper
public struct Published<Value> {
    /// The current value.
    public var wrappedValue: Value

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// The publisher of the property's values.
    public var projectedValue: Publisher { Publisher(value: wrappedValue) }

    /// Publishes the property's current value and each later one.
    public struct Publisher {
        let value: Value

        /// Calls `receiveValue` with the current value (and, in Apple's Combine, every later one).
        public func sink(receiveValue: @escaping (Value) -> Void) -> AnyCancellable {
            receiveValue(value)
            return AnyCancellable()
        }
    }
}
