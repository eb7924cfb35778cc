#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Converts between the wire's Timestamp (Int64 nanoseconds since 1970-01-01T00:00:00Z)
/// and Foundation `Date`, which generated types use.
///
/// `Date` holds a Double of seconds, so conversion from `Date` rounds to whole
/// microseconds: a Timestamp that is a multiple of 1000 ns survives a round trip exactly.
/// Dates outside the Int64 nanosecond range clamp to its ends; NaN becomes 0. Never traps.
public enum WireTimestamp {
    /// The Timestamp default: 1970-01-01T00:00:00Z.
    public static let epoch = Date(timeIntervalSince1970: 0)

    /// The nanoseconds since 1970 that `date` stands for, rounded to whole microseconds.
    public static func nanoseconds(from date: Date) -> Int64 {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard let whole = Int64(exactly: micros) else {
            if micros.isNaN { return 0 }
            return micros > 0 ? .max : .min
        }
        let (nanos, overflow) = whole.multipliedReportingOverflow(by: 1_000)
        if overflow { return whole > 0 ? .max : .min }
        return nanos
    }

    /// The `Date` for `nanoseconds` since 1970.
    public static func date(nanoseconds: Int64) -> Date {
        let seconds = nanoseconds / 1_000_000_000
        let fraction = nanoseconds % 1_000_000_000
        return Date(timeIntervalSince1970: Double(seconds) + Double(fraction) / 1_000_000_000)
    }
}

/// Defaults generated types use for fields without a spec default.
public enum WireDefaults {
    /// The UUID default: all 16 bytes zero.
    public static let uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
