"""Writes Spec/vectors/timestamps/*.json: how a Swift `Date` and a wire Timestamp convert.

Written from Spec/FORMAT.md ("Timestamps in Swift") alone. A `Date` is a Double of seconds
since 2001-01-01T00:00:00Z (978,307,200 s after 1970); a Timestamp is Int64 nanoseconds
since 1970. Both directions round once to the nearest value, ties to even. Python does
this exactly: Fraction holds a Double's value exactly and round() of a Fraction rounds
half to even; int / int is correctly rounded (IEEE nearest, ties to even).

Each vector holds `seconds` (the Double's IEEE bits as 16 hex digits, big-endian) and
`nanoseconds`, and says which directions hold: `encode` (Date -> nanoseconds) and
`decode` (nanoseconds -> Date).
"""
import math
import os
import random
import struct
from fractions import Fraction

from wire import write_vectors

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "timestamps")
OFFSET = 978_307_200 * 10**9
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def bits(value: float) -> str:
    return struct.pack(">d", value).hex()


def encode(seconds: float) -> int:
    """The Timestamp for a Date whose timeIntervalSinceReferenceDate is `seconds`."""
    if math.isnan(seconds):
        return 0
    if math.isinf(seconds):
        return INT64_MAX if seconds > 0 else INT64_MIN
    nanos = round(Fraction(seconds) * 10**9) + OFFSET
    return max(INT64_MIN, min(INT64_MAX, nanos))


def decode(nanoseconds: int) -> float:
    """The Date (as timeIntervalSinceReferenceDate) for a Timestamp."""
    return (nanoseconds - OFFSET) / 10**9


def vector(name, description, seconds, nanoseconds, directions):
    return {"name": name, "description": description, "seconds": bits(seconds),
            "nanoseconds": nanoseconds, "directions": directions}


def both(name, description, seconds):
    nanos = encode(seconds)
    assert decode(nanos) == seconds, name
    return vector(name, description, seconds, nanos, ["encode", "decode"])


def encode_only(name, description, seconds):
    return vector(name, description, seconds, encode(seconds), ["encode"])


def decode_only(name, description, nanoseconds):
    return vector(name, description, decode(nanoseconds), nanoseconds, ["decode"])


def build():
    vectors = [
        both("reference-date", "2001-01-01T00:00:00Z, the Date reference.", 0.0),
        both("unix-epoch", "1970-01-01T00:00:00Z, Timestamp 0.", -978_307_200.0),
        both("now-ish", "A Date() of 2026 with all 52 fraction bits used.", 785_000_000.123456789),
        both("year-1900", "1900-01-01T00:00:00.5Z.", -3_155_673_599.5),
        both("year-2200", "2200-01-01 plus a third of a second.", 6_279_897_600.0 + 1 / 3),
        both("one-nanosecond", "The Date nearest to 1 ns after 2001: near 2001 only such Dates round-trip.", 1e-9),
        both("first-exact-range", "2^23 s after 2001: from here every Date round-trips.", 2.0**23),
        decode_only("int64-max", "The latest Timestamp, 2262-04-11T23:47:16.854775807Z.", INT64_MAX),
        decode_only("int64-min", "The earliest Timestamp, 1677-09-21T00:12:43.145224192Z.", INT64_MIN),
        decode_only("sub-microsecond", "Nanoseconds that microseconds would lose.", 1_700_000_000_123_456_789),
        encode_only("tie-rounds-down-to-even", "2^-10 s after 2001 is exactly 976,562.5 ns: ties go to even.", 2.0**-10),
        encode_only("tie-rounds-up-to-even", "3 * 2^-10 s after 2001 is exactly 2,929,687.5 ns.", 3 * 2.0**-10),
        encode_only("negative-tie", "-2^-10 s after 2001 is exactly -976,562.5 ns from 2001.", -(2.0**-10)),
        encode_only("tiny", "5e-324 s after 2001 is 0 ns from 2001.", 5e-324),
        encode_only("negative-tiny", "-5e-324 s after 2001.", -5e-324),
        encode_only("distant-future", "Date.distantFuture clamps to Int64.max.", 63_113_904_000.0),
        encode_only("distant-past", "Date.distantPast clamps to Int64.min.", -63_114_076_800.0),
        encode_only("infinity", "+infinity clamps to Int64.max.", math.inf),
        encode_only("nan", "NaN becomes 0.", math.nan),
        encode_only("near-2001-fine-bits", "A Date 1 ms after 2001 with bits finer than a nanosecond.", 0.001 + 2**-60),
    ]
    rng = random.Random(0x7E57)
    for index in range(24):
        seconds = rng.uniform(-2_208_988_800.0, 7_258_118_400.0) - 978_307_200.0
        vectors.append(both(f"random-{index:02d}", "A seeded random Date of 1900-2200.", seconds))
    for index in range(8):
        nanos = rng.randint(INT64_MIN, INT64_MAX)
        vectors.append(decode_only(f"random-nanoseconds-{index}", "A seeded random Int64 Timestamp.", nanos))
    return vectors


if __name__ == "__main__":
    write_vectors(OUT, build())
