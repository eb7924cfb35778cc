#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decimal's wire form: its exact value as plain decimal text (`-12.345`, `0`, `NaN`).
///
/// Decimal's stored fields are not public API, and its description is exact (up to 38
/// significant digits and the full exponent range, written out without an exponent), so
/// the text is lossless and any implementation can produce and parse it.
enum WireDecimal {
    /// The longest text accepted: the largest and smallest magnitudes take about 170 characters.
    static let maxLength = 256

    /// The text written for `value`.
    static func text(_ value: Decimal) -> String {
        value.isNaN ? "NaN" : value.description
    }

    /// Parses text written by ``text(_:)``; nil unless it is `NaN` or `-?digits(.digits)?`.
    static func parse(_ text: String) -> Decimal? {
        if text == "NaN" { return Decimal.nan }
        guard !text.utf8.isEmpty, text.utf8.count <= maxLength else { return nil }
        let utf8 = Array(text.utf8)
        var index = 0
        if utf8[0] == UInt8(ascii: "-") { index = 1 }
        var digitsBefore = 0
        while index < utf8.count, utf8[index] >= UInt8(ascii: "0"), utf8[index] <= UInt8(ascii: "9") {
            index += 1
            digitsBefore += 1
        }
        guard digitsBefore > 0 else { return nil }
        if index < utf8.count {
            guard utf8[index] == UInt8(ascii: ".") else { return nil }
            index += 1
            var digitsAfter = 0
            while index < utf8.count, utf8[index] >= UInt8(ascii: "0"), utf8[index] <= UInt8(ascii: "9") {
                index += 1
                digitsAfter += 1
            }
            guard digitsAfter > 0, index == utf8.count else { return nil }
        }
        return Decimal(string: text)
    }
}
