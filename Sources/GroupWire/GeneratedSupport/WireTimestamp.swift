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
public enum WireTimestamp {
    /// The Timestamp default: 1970-01-01T00:00:00Z.
    public static let epoch = Date(timeIntervalSince1970: 0)

    /// Microseconds from 1970 to 2001, the reference date `Date` counts from.
    static let referenceOffsetMicros: Int64 = 978_307_200_000_000

    /// The nanoseconds since 1970 that `date` stands for, rounded to whole microseconds.
    public static func nanoseconds(from date: Date) -> Int64 {
        // From the reference date `Date` stores, so only one rounding happens (going
        // through timeIntervalSince1970 adds an offset in floating point first).
        let micros = (date.timeIntervalSinceReferenceDate * 1_000_000).rounded()
        guard let whole = Int64(exactly: micros) else {
            if micros.isNaN { return 0 }
            return micros > 0 ? .max : .min
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
    /// Rounding here too, with the same single step from the reference date, makes
    /// decoding and re-encoding stable: a decoded value re-encodes and decodes to an equal
    /// `Date`. Keeping the sub-microsecond part made the first decode differ from the
    /// second (found by FuzzGeneratedTypes).
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
public enum WireDefaults {
    /// The UUID default: all 16 bytes zero.
    public static let uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
