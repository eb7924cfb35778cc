/// A JSON number, kept as the literal text it was parsed from (or formatted to), so that
/// 64-bit integers and `Float32` values convert without a detour through `Double`.
///
/// Two numbers are equal when they denote the same value: integers compare exactly,
/// everything else compares as `Double` (`1` equals `1.0`).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's text in JSON syntax, e.g. `-12`, `0.5`, `1e-07`.
    public let text: String

    /// Creates a number from text already known to be valid JSON number syntax.
    init(validatedText text: String) {
        self.text = text
    }

    /// Creates a number from a signed integer.
    public init(_ value: Int64) {
        text = String(value)
    }

    /// Creates a number from an unsigned integer.
    public init(_ value: UInt64) {
        text = String(value)
    }

    /// Creates a number from a finite `Double`, written in its shortest round-trip form
    /// (`2`, not `2.0`). Returns nil for NaN and infinities, which JSON cannot spell.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        text = JSONNumber.trimmed(value.description)
    }

    /// Creates a number from a finite `Float`, written in the shortest form that reads back
    /// as the same `Float` (`0.1`, not `0.10000000149011612`). Nil for NaN and infinities.
    public init?(_ value: Float) {
        guard value.isFinite else { return nil }
        text = JSONNumber.trimmed(value.description)
    }

    /// The number's text.
    public var description: String { text }

    /// Whether the text is an integer literal (no fraction, no exponent).
    public var isIntegerLiteral: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The value as `Int64`, when it is an integer within range. `1.0` and `1e2` count as
    /// integers (their value is integral); `1.5` does not.
    public var int64: Int64? {
        if isIntegerLiteral { return Int64(text) }
        guard let double = Double(text), double.rounded() == double,
            double >= -9_223_372_036_854_775_808.0, double < 9_223_372_036_854_775_808.0
        else { return nil }
        return Int64(double)
    }

    /// The value as `UInt64`, when it is a non-negative integer within range.
    public var uint64: UInt64? {
        if isIntegerLiteral {
            // "-0" is zero.
            if text == "-0" { return 0 }
            return UInt64(text)
        }
        guard let double = Double(text), double.rounded() == double,
            double >= 0, double < 18_446_744_073_709_551_616.0
        else { return nil }
        return UInt64(double)
    }

    /// The value as the nearest `Double` (infinite when the literal overflows).
    public var double: Double {
        Double(text) ?? .nan
    }

    /// The value as the nearest `Float`, rounded once from the literal text.
    public var float: Float {
        Float(text) ?? .nan
    }

    /// Numbers are equal when they denote the same value.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text == rhs.text { return true }
        if lhs.isIntegerLiteral, rhs.isIntegerLiteral {
            if let left = lhs.int64, let right = rhs.int64 { return left == right }
            if let left = lhs.uint64, let right = rhs.uint64 { return left == right }
        }
        return lhs.double == rhs.double
    }

    /// Hashes the value as a `Double`, which equal numbers share.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(double)
    }

    /// Drops a trailing `.0` so integral values print as integers, like `JSONEncoder` does.
    private static func trimmed(_ text: String) -> String {
        text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
