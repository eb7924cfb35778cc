#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Converts between the wire's Timestamp (Int64 nanoseconds since 1970-01-01T00:00:00Z)
/// and Foundation `Date`, which generated types use.
///
/// Both directions round once, to the nearest value, ties to even: a `Date` becomes the
/// nanosecond nearest to it, and nanoseconds become the `Date` nearest to them. So a `Date`
/// comes back `==` whenever it is the `Date` nearest to some whole nanosecond, which holds
/// for every `Date` from 1677-09-21 to 2262-04-11 (the Int64 range) except those within
/// 2^23 s (about 97 days) of 2001-01-01, where a `Date`'s Double is finer than a
/// nanosecond; there only the `Date`s nearest to whole nanoseconds come back. Every `Date`
/// that `Date()` returns today, and every decoded `Date`, comes back exactly.
/// Dates outside the Int64 nanosecond range clamp to its ends; NaN becomes 0. Never traps.
/// Spec/FORMAT.md ("Timestamps in Swift") states the same rule for other implementations.
public enum _WireTimestamp {
    /// The Timestamp default: 1970-01-01T00:00:00Z.
    public static let epoch = Date(timeIntervalSince1970: 0)

    /// Nanoseconds from 1970 to 2001, the reference date `Date` counts from.
    @inlinable static var referenceOffsetNanoseconds: UInt64 { 978_307_200_000_000_000 }

    @inlinable static var nanosecondsPerSecond: UInt64 { 1_000_000_000 }

    /// The nanoseconds since 1970 nearest to `date` (ties to even), clamped to Int64.
    /// Inlinable, like its helpers: a generated encoder asks for a Timestamp field's value
    /// once to test it against the default and again to write it, and inlined the two
    /// calls become one.
    @inlinable public static func nanoseconds(from date: Date) -> Int64 {
        let seconds = date.timeIntervalSinceReferenceDate
        if seconds.isNaN { return 0 }
        // 2^34 s from 2001 is past both ends of the Int64 range (about ±2.9e2 years).
        guard seconds.magnitude < 0x1p34 else { return seconds > 0 ? .max : .min }
        let magnitude = seconds.magnitude
        let whole = magnitude.rounded(.down)
        // Exact: magnitude < 2^34, so its ulp divides 1 and the difference has no more
        // significant bits than magnitude has below the binary point.
        let fraction = magnitude - whole
        // safe because whole < 2^34, so whole * 10^9 < 1.8e19 < 2^64, and adding at most
        // 10^9 stays below 2^64.
        let since2001 = UInt64(whole) * nanosecondsPerSecond + nanosecondsRoundedToEven(fraction)
        if seconds >= 0 {
            let (sum, overflow) = since2001.addingReportingOverflow(referenceOffsetNanoseconds)
            return overflow || sum > UInt64(Int64.max) ? .max : Int64(sum)
        }
        if since2001 <= referenceOffsetNanoseconds {
            return Int64(referenceOffsetNanoseconds - since2001)
        }
        let below = since2001 - referenceOffsetNanoseconds
        // safe because below <= 2^63 was checked; 0 &- 2^63 is Int64.min.
        return below > UInt64(1) << 63 ? .min : 0 &- Int64(bitPattern: below)
    }

    /// `fraction` (in [0, 1)) times 10^9, rounded to the nearest integer, ties to even,
    /// computed exactly in 128 bits.
    @inlinable static func nanosecondsRoundedToEven(_ fraction: Double) -> UInt64 {
        // Below 2^-40 s the product is under 10^-3 ns and rounds to 0 (this also skips
        // subnormals, whose significand lacks the implicit bit).
        guard fraction >= 0x1p-40 else { return 0 }
        let significand = (UInt64(1) << 52) | fraction.significandBitPattern
        // fraction == significand * 2^-shift, shift in 53...92. The exponent is read from
        // the bits (fraction is normal here): `exponent` is a call into the runtime.
        let shift = 52 - (Int(fraction.exponentBitPattern) - 1023)
        let (high, low) = significand.multipliedFullWidth(by: nanosecondsPerSecond)
        return shiftedRightRoundingToEven(high: high, low: low, by: shift)
    }

    /// (high * 2^64 + low) / 2^shift rounded to the nearest integer, ties to even; the
    /// caller guarantees the quotient fits 64 bits and shift is in 1...127.
    @inlinable static func shiftedRightRoundingToEven(high: UInt64, low: UInt64, by shift: Int) -> UInt64 {
        var quotient: UInt64
        let comparison: Int  // remainder against half: -1 below, 0 equal, 1 above
        if shift < 64 {
            quotient = (low >> UInt64(shift)) | (high << UInt64(64 - shift))
            let remainder = low & ((UInt64(1) << UInt64(shift)) - 1)
            let half = UInt64(1) << UInt64(shift - 1)
            comparison = remainder < half ? -1 : (remainder == half ? 0 : 1)
        } else if shift == 64 {
            quotient = high
            let half = UInt64(1) << 63
            comparison = low < half ? -1 : (low == half ? 0 : 1)
        } else {
            let highShift = UInt64(shift - 64)
            quotient = high >> highShift
            let remainder = high & ((UInt64(1) << highShift) - 1)
            let half = UInt64(1) << (highShift - 1)
            if remainder != half {
                comparison = remainder < half ? -1 : 1
            } else {
                comparison = low == 0 ? 0 : 1
            }
        }
        // safe because the rounded quotient is at most 10^9 for the callers here.
        if comparison > 0 || (comparison == 0 && quotient & 1 == 1) { quotient += 1 }
        return quotient
    }

    /// The `Date` nearest to `nanoseconds` since 1970 (ties to even).
    ///
    /// The returned `Date` re-encodes (see ``nanoseconds(from:)``) to nanoseconds that
    /// decode to the same `Date`.
    public static func date(nanoseconds: Int64) -> Date {
        let (since2001, overflow) = nanoseconds.subtractingReportingOverflow(Int64(referenceOffsetNanoseconds))
        if !overflow, since2001.magnitude <= 1 << 53 {
            // Exact integer, one correctly rounded division.
            return Date(timeIntervalSinceReferenceDate: Double(since2001) / 1e9)
        }
        // Whole seconds are exact as a Double; the fraction's division errs by at most
        // 2^-54 s. Beyond 2^53 ns (about 104 days from 2001) the result's ulp is at least
        // 2^-29 s, and a nanosecond count is never closer than 2^-21 ns to a rounding
        // midpoint unless it lies on one, which needs an ulp of 2^-8 s (past the Int64
        // range); so the sum rounds the way the exact quotient does.
        let divisor = Int64(nanosecondsPerSecond)
        var seconds = nanoseconds / divisor
        var rest = nanoseconds % divisor
        if rest < 0 {
            seconds -= 1
            rest += divisor
        }
        let secondsSince2001 = seconds - 978_307_200
        return Date(timeIntervalSinceReferenceDate: Double(secondsSince2001) + Double(rest) / 1e9)
    }
}

/// Defaults generated types use for fields without a spec default.
public enum _WireDefaults {
    /// The UUID default: all 16 bytes zero.
    public static let uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Whether `uuid` is not the default: two word loads, where `!=` calls Foundation's
    /// comparison (a `memcmp`).
    @inlinable @inline(__always) public static func differs(_ uuid: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { raw in
            raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) != 0
        }
    }
}
