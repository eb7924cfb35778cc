#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Converts between the wire's Timestamp (Int64 nanoseconds since 1970-01-01T00:00:00Z)
/// and Foundation `Date`, which generated types use.
///
/// `Date` holds a Double of seconds, so conversion in both directions rounds to whole
/// microseconds: a Timestamp that is a multiple of 1000 ns survives a round trip exactly,
/// and a decoded `Date` re-encodes and decodes to the same `Date`.
/// Dates outside the Int64 nanosecond range clamp to its ends; NaN becomes 0. Never traps.
public enum _WireTimestamp {
    /// The Timestamp default: 1970-01-01T00:00:00Z.
    public static let epoch = Date(timeIntervalSince1970: 0)

    /// Microseconds from 1970 to 2001, the reference date `Date` counts from.
    static let referenceOffsetMicros: Int64 = 978_307_200_000_000

    /// The nanoseconds since 1970 that `date` stands for, rounded to whole microseconds.
    public static func nanoseconds(from date: Date) -> Int64 {
        // From the reference date `Date` stores, so only one rounding happens (going
        // through timeIntervalSince1970 adds an offset in floating point first).
        let seconds = date.timeIntervalSinceReferenceDate
        let micros = (seconds * 1_000_000).rounded()
        guard var whole = Int64(exactly: micros) else {
            if micros.isNaN { return 0 }
            return micros > 0 ? .max : .min
        }
        // Far from 2001 (beyond about 2^52 µs, around the year 2143) a Double no longer
        // holds every microsecond, and the rounded product can miss the microsecond a
        // decoded Date came from by one or two. Prefer a neighbour that decodes to exactly
        // this Date, so decoding, re-encoding and decoding again is stable (found by
        // FuzzGeneratedTypes). Near 2001 the first candidate matches at once.
        // safe because: |whole| <= 2^63 - 1 was checked above and the candidates stay
        // within ±2 of it, computed with overflow reporting.
        if Double(whole) / 1_000_000 != seconds {
            for delta: Int64 in -2...2 where delta != 0 {
                let (candidate, overflow) = whole.addingReportingOverflow(delta)
                if !overflow, Double(candidate) / 1_000_000 == seconds {
                    whole = candidate
                    break
                }
            }
        }
        let (since1970, offsetOverflow) = whole.addingReportingOverflow(referenceOffsetMicros)
        if offsetOverflow { return .max }
        let (nanos, overflow) = since1970.multipliedReportingOverflow(by: 1_000)
        if overflow { return since1970 > 0 ? .max : .min }
        return nanos
    }

    /// The `Date` for `nanoseconds` since 1970, rounded to whole microseconds (half away
    /// from zero) like ``nanoseconds(from:)``.
    ///
    /// Decoding and re-encoding is stable: the `Date` returned re-encodes (see
    /// ``nanoseconds(from:)``) to microseconds that decode to the same `Date`. Keeping the
    /// sub-microsecond part made the first decode differ from the second (found by
    /// FuzzGeneratedTypes).
    public static func date(nanoseconds: Int64) -> Date {
        var micros = nanoseconds / 1_000
        let rest = nanoseconds % 1_000
        // safe because |micros| <= Int64.max / 1000, far from the ends.
        if rest >= 500 { micros += 1 } else if rest <= -500 { micros -= 1 }
        // safe because |micros| <= 9.3e15 and the offset is 9.8e14.
        return Date(timeIntervalSinceReferenceDate: Double(micros - referenceOffsetMicros) / 1_000_000)
    }
}

/// Defaults generated types use for fields without a spec default.
public enum _WireDefaults {
    /// The UUID default: all 16 bytes zero.
    public static let uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
