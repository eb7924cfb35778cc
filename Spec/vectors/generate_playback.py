#!/usr/bin/env python3
"""Writes the coordinated-playback vectors in Spec/vectors/playback/ (Spec/PLAYBACK.md,
Spec/Playback.gwspec), computed here from the documents alone (payload encoding from
Spec/LANGUAGE.md and Spec/FORMAT.md), independently of the Swift implementation.

Every vector has "name", "description" and "kind":

  message:         {"kind": "message", "type", "typeID", "fields": {...}, "hex"}
  timeline-order:  {"kind": "timeline-order", "a": {"clock", "author"}, "b": {...}, "greater": "a" | "b" | "equal"}
  expected-time:   {"kind": "expected-time", "timeline": {"rate", "mediaTime", "groupTime"}, "g", "expected"}
  timeline-check:  {"kind": "timeline-check", "timeline": {...}, "accepted"}
  clock-estimate:  {"kind": "clock-estimate", "exchanges": [{"t1", "t2", "t3", "t4"}, ...], "rejected": [index, ...],
                    "drift", "offsetAt": [{"local", "offset"}, ...], "uncertainty"}

Conventions: `fields` use the spec's field names, every non-optional field written (with its
default where the payload leaves it out), `item` left out when absent. Float64 values are
JSON numbers; Int64 and UInt64 values (nanoseconds, clocks, sequences) are decimal strings;
UUIDs lowercase canonical text; `change` in message vectors is the PlaybackChange case name,
in timeline-check vectors the case number (so that numbers without a case can be written).
In timeline-check vectors a non-finite Float64 is the string "nan", "inf" or "-inf", and
`item` is {"itemBytes": N} (its UTF-8 length). Seconds (`expected`, `offset`,
`uncertainty`) and `drift` are binary64 numbers, the nearest to the exact value; compare
seconds within 1e-9 and drift within 1e-12.

Usage: python3 Spec/vectors/generate.py   (or python3 Spec/vectors/generate_playback.py for
this family alone)
"""
import math
import os
import struct
import sys
import uuid
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import uvarint, write_vectors  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "playback")

TYPE_IDS = {
    "PlaybackTimelineMessage": 0xFFFFFF00,
    "PlaybackSuspensionMessage": 0xFFFFFF01,
    "PlaybackClockRequest": 0xFFFFFF02,
    "PlaybackClockReply": 0xFFFFFF03,
    "PlaybackStateRequest": 0xFFFFFF04,
}
CHANGES = ["none", "play", "pause", "seek", "rate", "item", "wait", "resume"]
VARINT, FIXED64, LEN = 0, 1, 2
NIL = "00000000-0000-0000-0000-000000000000"
NS = 1_000_000_000
MS = 1_000_000
US = 1_000
U64_MAX = (1 << 64) - 1
I64_MAX = (1 << 63) - 1
I64_MIN = -(1 << 63)

ANA = "6f1c2a9e-4b7d-4e0f-8a3b-5c6d7e8f9a0b"
BEN = "c3d2e1f0-0a1b-4c2d-9e3f-4a5b6c7d8e9f"


# --- payload encoding (LANGUAGE.md "Scalar types", "Wire mapping"; FORMAT.md "Payload encoding") ----------

def key(number, wire_type):
    return uvarint(number << 3 | wire_type)


def zigzag64(value):
    """FORMAT.md svarint: n -> (n << 1) ^ (n >> 63), on 64 bits (arithmetic shift)."""
    assert I64_MIN <= value <= I64_MAX
    return ((value << 1) ^ (value >> 63)) & U64_MAX


def f64(value):
    return struct.pack("<d", value)


def uuid_bytes(text):
    return uuid.UUID(text).bytes  # RFC 4122 byte order: the text's hex digits in order


def put_string(number, text, optional=False):
    data = text.encode("utf-8")
    if not optional and not data:
        return b""
    return key(number, LEN) + uvarint(len(data)) + data


def put_f64(number, value):
    # Floats compare with the default by bit pattern (FORMAT.md "Canonical writing" 2): -0.0 is written.
    return b"" if f64(value) == f64(0.0) else key(number, FIXED64) + f64(value)


def put_i64(number, value):
    return b"" if value == 0 else key(number, VARINT) + uvarint(zigzag64(value))


def put_u64(number, value):
    assert 0 <= value <= U64_MAX
    return b"" if value == 0 else key(number, VARINT) + uvarint(value)


def put_bool(number, value):
    return key(number, VARINT) + b"\x01" if value else b""


def put_uuid(number, text):
    raw = uuid_bytes(text)
    return b"" if raw == bytes(16) else key(number, LEN) + uvarint(16) + raw


def timeline_payload(t):
    out = b""
    if t.get("item") is not None:
        out += put_string(1, t["item"], optional=True)
    out += put_f64(2, t["rate"]) + put_f64(3, t["mediaTime"]) + put_i64(4, t["groupTime"])
    out += put_u64(5, t["clock"]) + put_uuid(6, t["author"]) + put_u64(7, CHANGES.index(t["change"]))
    return out


def suspension_payload(s):
    return put_string(1, s["reason"]) + put_bool(2, s["active"]) + put_u64(3, s["sequence"])


def clock_request_payload(r):
    return put_u64(1, r["sequence"]) + put_i64(2, r["sentAt"])


def clock_reply_payload(r):
    return (put_u64(1, r["sequence"]) + put_i64(2, r["requestSentAt"]) + put_i64(3, r["receivedAt"])
            + put_i64(4, r["sentAt"]))


ENCODERS = {
    "PlaybackTimelineMessage": timeline_payload,
    "PlaybackSuspensionMessage": suspension_payload,
    "PlaybackClockRequest": clock_request_payload,
    "PlaybackClockReply": clock_reply_payload,
    "PlaybackStateRequest": lambda _: b"",
}
INTEGER_FIELDS = {"groupTime", "clock", "sequence", "sentAt", "requestSentAt", "receivedAt"}


def json_fields(values):
    out = {}
    for name, value in values.items():
        if value is None:
            continue  # an absent optional field
        out[name] = str(value) if name in INTEGER_FIELDS else value
    return out


def timeline(item=None, rate=0.0, mediaTime=0.0, groupTime=0, clock=0, author=NIL, change="none"):
    return {"item": item, "rate": rate, "mediaTime": mediaTime, "groupTime": groupTime, "clock": clock,
            "author": author, "change": change}


# --- the timeline (PLAYBACK.md "The timeline") ------------------------------------------------------------

def compare_stamps(a, b):
    """'Order': the greater clock, then the greater author (16 bytes compared in order)."""
    ka = (a["clock"], uuid_bytes(a["author"]))
    kb = (b["clock"], uuid_bytes(b["author"]))
    return "a" if ka > kb else "b" if kb > ka else "equal"


def expected_exact(rate, media_time, group_time, g):
    """expected(g) = max(0, mediaTime + rate x (g - groupTime) / 1 s), exactly (g, groupTime in ns)."""
    return max(Fraction(0), Fraction(media_time) + Fraction(rate) * Fraction(g - group_time, NS))


def check_timeline(t):
    """'Checks': True when a received (decoded) timeline is accepted."""
    rate, media = t["rate"], t["mediaTime"]
    if not math.isfinite(rate) or not (0 <= rate <= 16):
        return False
    if not math.isfinite(media) or not (0 <= media <= 1e9):
        return False
    if t.get("itemBytes") is not None and t["itemBytes"] > 1024:
        return False
    return 0 <= t["change"] <= 7


def json_float(value):
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


# --- the clock estimate (PLAYBACK.md "The exchange", "The estimate") -------------------------------------

def out_of_order(t1, t2, t3, t4):
    return t4 < t1 or t3 < t2 or (t4 - t1) < (t3 - t2)


def estimate(exchanges):
    """Feeds the exchanges in order; returns (rejected indexes, drift, offset function of local ns, uncertainty),
    all exact (Fractions, seconds)."""
    kept, rejected = [], []
    for index, (t1, t2, t3, t4) in enumerate(exchanges):
        if out_of_order(t1, t2, t3, t4):
            rejected.append(index)
            continue
        local = Fraction(t1) + Fraction(t4 - t1, 2)
        kept.append((local / NS, Fraction(t3 - t4, NS), Fraction(t2 - t1, NS)))  # (local, lower, upper) in s
        kept = kept[-48:]
    locals_ = [k[0] for k in kept]
    c = (min(locals_) + max(locals_)) / 2
    slope = Fraction(0)
    if max(locals_) - min(locals_) >= 20:
        weights = [1 / max(upper - lower, Fraction(1, 10_000)) ** 2 for _, lower, upper in kept]
        xs = [local - c for local in locals_]
        ys = [(lower + upper) / 2 for _, lower, upper in kept]
        total = sum(weights)
        mx = sum(w * x for w, x in zip(weights, xs)) / total
        my = sum(w * y for w, y in zip(weights, ys)) / total
        num = sum(w * (x - mx) * (y - my) for w, x, y in zip(weights, xs, ys))
        den = sum(w * (x - mx) ** 2 for w, x in zip(weights, xs))
        slope = min(Fraction(1, 1000), max(Fraction(-1, 1000), num / den))
    low = max(lower - slope * (local - c) for local, lower, _ in kept)
    high = min(upper - slope * (local - c) for local, _, upper in kept)
    offset_at_c = (low + high) / 2

    def offset(local_ns):
        return offset_at_c + slope * (Fraction(local_ns, NS) - c)

    return rejected, slope, offset, high - low, kept


def exchange(t1, d1, p, d2, theta):
    """An exchange whose request takes d1, handling p and reply d2 (local ns); theta(l) is the true offset
    (group - local, ns) at local time l."""
    arrive, leave = t1 + d1, t1 + d1 + p
    return (t1, arrive + theta(arrive), leave + theta(leave), leave + d2)


def exchange_bounds(t1, upper, lower, processing):
    """An exchange with the given upper bound t2 - t1, lower bound t3 - t4 and t3 - t2 (ns)."""
    t2 = t1 + upper
    t3 = t2 + processing
    return (t1, t2, t3, t3 - lower)


def linear_theta(theta0, drift, origin):
    def theta(local):
        value = theta0 + drift * (local - origin)
        assert value.denominator == 1, value
        return int(value)
    return theta


def build():
    vectors = []

    def add(kind, name, description, **fields):
        vectors.append(dict(name=name, description=description, kind=kind, **fields))

    # ==== 1. messages =====================================================================================
    def message(name, description, type_name, values, expect_hex=None):
        data = ENCODERS[type_name](values)
        if expect_hex is not None:
            assert data.hex() == expect_hex, (name, data.hex(), expect_hex)
        add("message", name, description, type=type_name, typeID=TYPE_IDS[type_name],
            fields=json_fields(values), hex=data.hex())

    message("timeline-play", "ana starts 'movie-42' at 600.25 s, group instant 1,234,567,890,123 ns, Lamport clock 7: "
            "0a 08 'movie-42'; 11 + rate 1.0 (000000000000f03f); 19 + 600.25 (0000000000c28240); 20 + zigzag "
            "2,469,135,780,246; 28 07; 32 10 + the author's 16 bytes in text order; 38 01 (play).",
            "PlaybackTimelineMessage",
            timeline("movie-42", 1.0, 600.25, 1_234_567_890_123, 7, ANA, "play"),
            "0a086d6f7669652d3432" "11000000000000f03f" "190000000000c28240" "209693d89fee47" "2807"
            "32106f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b" "3801")
    message("timeline-pause-rate-zero-omitted", "A pause: rate 0 is the default, so there is no field 2 (no 0x11 key).",
            "PlaybackTimelineMessage", timeline("movie-42", 0.0, 612.5, 5_000_000_000, 8, BEN, "pause"))
    message("timeline-seek", "A seek to 1,800 s at rate 1 by ben.", "PlaybackTimelineMessage",
            timeline("movie-42", 1.0, 1800.0, 9_000_000_000, 9, BEN, "seek"))
    message("timeline-rate-half", "A rate change to 0.5 (000000000000e03f).", "PlaybackTimelineMessage",
            timeline("movie-42", 0.5, 30.0, 10_250_000_000, 10, ANA, "rate"))
    message("timeline-rate-16", "A rate change to 16, the largest rate the checks accept (0000000000003040).",
            "PlaybackTimelineMessage", timeline("movie-42", 16.0, 30.0, 10_250_000_000, 11, ANA, "rate"))
    message("timeline-item-change", "An item change to 'episode-2': rate 0 and mediaTime 0.0 (its start) are both "
            "defaults and not written.", "PlaybackTimelineMessage",
            timeline("episode-2", 0.0, 0.0, 20_000_000_000, 12, ANA, "item"))
    message("timeline-item-none", "An item change to none: the optional item is absent (no field 1), rate and "
            "position default.", "PlaybackTimelineMessage", timeline(None, 0.0, 0.0, 21_000_000_000, 13, BEN, "item"))
    message("timeline-item-empty-string", "An item that is present but empty: an optional field is written when "
            "present even when it equals the default (0a 00).", "PlaybackTimelineMessage",
            timeline("", 1.0, 2.0, 3, 14, ANA, "item"),
            "0a00" "11000000000000f03f" "190000000000000040" "2006" "280e" "32106f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b" "3805")
    message("timeline-wait", "The group waits: rate 0 (not written), change wait (38 06).", "PlaybackTimelineMessage",
            timeline("movie-42", 0.0, 700.0, 30_000_000_000, 15, BEN, "wait"))
    message("timeline-resume", "The group goes on after the wait at the rate before it (1).", "PlaybackTimelineMessage",
            timeline("movie-42", 1.0, 700.0, 31_000_000_000, 16, BEN, "resume"))
    message("timeline-change-none-omitted", "Change none is enum case 0, the default: no field 7.",
            "PlaybackTimelineMessage", timeline("movie-42", 1.0, 5.0, 1_000_000_000, 1, ANA, "none"))
    message("timeline-negative-group-time", "A group instant before the group clock's zero, -1,500,000,000 ns: zigzag "
            "2,999,999,999 (20 ff bb c1 96 0b).", "PlaybackTimelineMessage",
            timeline("movie-42", 1.0, 0.5, -1_500_000_000, 2, ANA, "play"),
            "0a086d6f7669652d3432" "11000000000000f03f" "19000000000000e03f" "20ffbbc1960b" "2802"
            "32106f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b" "3801")
    message("timeline-group-time-minus-one", "groupTime -1: zigzag 1 (20 01).", "PlaybackTimelineMessage",
            timeline(None, 0.0, 0.25, -1, 1, ANA, "seek"))
    message("timeline-extreme-integers", "clock 2^64 - 1 (ten-byte varint ff..ff 01) and groupTime 2^63 - 1 (zigzag "
            "2^64 - 2: fe ff ff ff ff ff ff ff ff 01).", "PlaybackTimelineMessage",
            timeline("movie-42", 1.0, 1.0, I64_MAX, U64_MAX, BEN, "play"))
    message("timeline-group-time-min", "groupTime -2^63: zigzag 2^64 - 1 (ff ff ff ff ff ff ff ff ff 01).",
            "PlaybackTimelineMessage", timeline("movie-42", 0.0, 1.0, I64_MIN, 3, BEN, "pause"))
    message("timeline-non-ascii-item", "An item with two-, three- and four-byte UTF-8 sequences: its length is "
            "counted in bytes (%d), not characters." % len("Amélie – 天気の子 🎬".encode()), "PlaybackTimelineMessage",
            timeline("Amélie – 天気の子 🎬", 1.0, 0.0, 2_000_000_000, 4, ANA, "item"))
    message("timeline-negative-zero-media-time", "mediaTime -0.0: floats compare with the default by bit pattern "
            "(FORMAT.md, Canonical writing 2), so -0.0 is written (19 0000000000000080). JSON -0.0.",
            "PlaybackTimelineMessage", timeline("movie-42", 0.0, -0.0, 1, 5, ANA, "pause"))
    message("timeline-all-default", "Every field at its default and no item (the all-zero author included): an empty "
            "payload.", "PlaybackTimelineMessage", timeline(), "")
    message("suspension-stall", "ana's first suspension message: stallRecovery, active: 0a 0d 'stallRecovery', "
            "10 01, 18 01.", "PlaybackSuspensionMessage",
            {"reason": "stallRecovery", "active": True, "sequence": 1}, "0a0d7374616c6c5265636f76657279" "1001" "1801")
    message("suspension-ended", "The end of the suspension: empty reason and active false are defaults and not "
            "written; only sequence 2 (18 02).", "PlaybackSuspensionMessage",
            {"reason": "", "active": False, "sequence": 2}, "1802")
    message("suspension-app-reason", "An app's own reason with non-ASCII text; sequence 300 (18 ac 02).",
            "PlaybackSuspensionMessage", {"reason": "buffering-ü", "active": True, "sequence": 300})
    message("suspension-all-default", "Inactive, empty reason, sequence 0: every field is a default, an empty payload.",
            "PlaybackSuspensionMessage", {"reason": "", "active": False, "sequence": 0}, "")
    message("clock-request", "Request 1 sent at local 1,000 s (1e12 ns, zigzag 2e12).", "PlaybackClockRequest",
            {"sequence": 1, "sentAt": 1_000_000_000_000}, "0801" "1080c0a8ca9a3a")
    message("clock-request-sequence-zero", "A request with sequence 0 has no field 1 (PLAYBACK.md); a negative sentAt "
            "-5 (zigzag 9).", "PlaybackClockRequest", {"sequence": 0, "sentAt": -5}, "1009")
    message("clock-reply", "The reply to request 1: echoed sequence and requestSentAt, then t2 and t3 on the group "
            "clock.", "PlaybackClockReply",
            {"sequence": 1, "requestSentAt": 1_000_000_000_000, "receivedAt": 1_123_468_789_000,
             "sentAt": 1_123_469_289_000})
    message("clock-reply-extremes", "sequence 2^64 - 1, requestSentAt -2^63, t2 = t3 = 2^63 - 1.",
            "PlaybackClockReply",
            {"sequence": U64_MAX, "requestSentAt": I64_MIN, "receivedAt": I64_MAX, "sentAt": I64_MAX},
            "08ffffffffffffffffff01" "10ffffffffffffffffff01" "18feffffffffffffffff01" "20feffffffffffffffff01")
    message("state-request", "PlaybackStateRequest has no field: an empty payload.", "PlaybackStateRequest", {}, "")

    # ==== 2. timeline order ===============================================================================
    def order(name, description, a, b, expect):
        sa = {"clock": a[0], "author": a[1]}
        sb = {"clock": b[0], "author": b[1]}
        result = compare_stamps(sa, sb)
        assert result == expect, (name, result)
        add("timeline-order", name, description, a={"clock": str(a[0]), "author": a[1]},
            b={"clock": str(b[0]), "author": b[1]}, greater=result)

    order("order-clock-decides", "The greater clock wins even though its author is the smaller.",
          (6, "00000000-0000-4000-8000-000000000001"), (5, "ffffffff-ffff-4fff-bfff-ffffffffffff"), "a")
    order("order-clock-unsigned", "Clocks are UInt64: 2^63 is greater than 2^63 - 1 (a signed comparison would say "
          "the opposite).", (I64_MAX, BEN), (1 << 63, ANA), "b")
    order("order-clock-max", "Clock 2^64 - 1 against 2^64 - 2.", (U64_MAX, ANA), (U64_MAX - 1, BEN), "a")
    order("order-author-last-byte", "Equal clocks; authors differ only in the last byte (…00 < …01).",
          (42, "3b2a1908-7766-4554-8433-221100ffee00"), (42, "3b2a1908-7766-4554-8433-221100ffee01"), "b")
    order("order-author-first-byte", "Equal clocks; the first byte decides (0x02 > 0x01) although every later byte "
          "of the other author is larger.",
          (42, "02000000-0000-0000-0000-000000000000"), (42, "01ffffff-ffff-ffff-ffff-ffffffffffff"), "a")
    order("order-author-letter-vs-digit", "Equal clocks; first bytes 0xa0 (text 'a0') and 0x90 (text '90'): bytes "
          "compare as unsigned numbers, 0xa0 is greater.",
          (7, "90ffffff-0000-4000-8000-000000000000"), (7, "a0000000-0000-4000-8000-000000000000"), "b")
    order("order-author-unsigned-bytes", "Equal clocks; bytes 0x80 and 0x7f: compared unsigned, 0x80 is greater "
          "(a signed byte comparison would say the opposite).",
          (7, "c3d2e1f0-0a1b-4c2d-9e3f-4a5b6c7d8e80"), (7, "c3d2e1f0-0a1b-4c2d-9e3f-4a5b6c7d8e7f"), "a")
    order("order-author-tail-bytes", "Equal clocks; the authors differ first in byte 9 (0x3a < 0x3b) and the "
          "other author's later bytes are smaller: the first differing byte decides.",
          (0, "6f1c2a9e-4b7d-4e0f-8a3a-ffffffffffff"), (0, "6f1c2a9e-4b7d-4e0f-8a3b-000000000000"), "b")
    order("order-equal", "Same clock, same author: equal stamps (neither is greater, so a participant holding one "
          "does not take the other).", (9, ANA), (9, ANA), "equal")

    # ==== 3. expected time ================================================================================
    def expected_time(name, description, rate, media, group_time, g):
        exact = expected_exact(rate, media, group_time, g)
        value = float(exact)
        note = "exact in binary64" if Fraction(value) == exact else "rounded to the nearest binary64"
        add("expected-time", name, description + " Reading: (g - groupTime) is in ns, '/ 1 s' divides by 10^9. "
            "Result " + note + "; compare within 1e-9.",
            timeline={"rate": rate, "mediaTime": media, "groupTime": str(group_time)}, g=str(g), expected=value)

    expected_time("expected-playing", "Rate 1, 10 s at 5 s of the group clock; at 7.5 s the item is at 12.5 s.",
                  1.0, 10.0, 5 * NS, 7_500_000_000)
    expected_time("expected-before-group-time", "The formula also holds before groupTime: 0.5 s earlier, 9.5 s.",
                  1.0, 10.0, 5 * NS, 4_500_000_000)
    expected_time("expected-clamped-to-zero", "Before groupTime the position would be -0.75 s: max(0, …) gives 0.",
                  1.0, 0.25, 5 * NS, 4 * NS)
    expected_time("expected-exactly-zero", "Rate 0.5, mediaTime 1, two seconds before groupTime: exactly 0.",
                  0.5, 1.0, 5 * NS, 3 * NS)
    expected_time("expected-paused", "Rate 0: the position does not move, here an hour after groupTime.",
                  0.0, 42.25, 5 * NS, 3605 * NS)
    expected_time("expected-paused-before", "Rate 0, an hour before groupTime: still mediaTime.",
                  0.0, 42.25, 3605 * NS, 5 * NS)
    expected_time("expected-rate-2", "Rate 2, 600.25 s, 1.5 s later: 603.25 s.", 2.0, 600.25, 10 * NS, 11_500_000_000)
    expected_time("expected-negative-group-time", "Rate 0.5, groupTime -2 s, g 2 s: 4 s later, 2 s further.",
                  0.5, 100.0, -2 * NS, 2 * NS)
    expected_time("expected-rate-16", "Rate 16 from 0, 0.125 s later: 2 s.", 16.0, 0.0, 7 * NS, 7_125_000_000)
    expected_time("expected-large-instants", "Instants near 2^62 ns (about 146 years); 0.25 s after at rate 1.",
                  1.0, 3.0, (1 << 62), (1 << 62) + 250_000_000)
    expected_time("expected-inexact", "Rate 1, 1 s, 100 ms later: 1.1 s (not exact in binary64).",
                  1.0, 1.0, 2 * NS, 2_100_000_000)
    expected_time("expected-one-nanosecond", "Rate 1, 1,000 s, 1 ns later: 1000.000000001 (not exact in binary64).",
                  1.0, 1000.0, 2 * NS, 2 * NS + 1)

    # ==== 4. timeline checks ==============================================================================
    def check(name, description, accepted, item_bytes=8, rate=1.0, media=600.25, group_time=5 * NS, clock=7,
              author=ANA, change=1):
        t = {"itemBytes": item_bytes, "rate": rate, "mediaTime": media, "change": change}
        assert check_timeline(t) == accepted, name
        fields = {"rate": json_float(rate), "mediaTime": json_float(media), "groupTime": str(group_time),
                  "clock": str(clock), "author": author, "change": change}
        if item_bytes is not None:
            fields["item"] = {"itemBytes": item_bytes}
        add("timeline-check", name, description, timeline=fields, accepted=accepted)

    check("check-typical", "An ordinary timeline: rate 1, 600.25 s, an 8-byte item, change play (1).", True)
    check("check-lower-edges", "Rate 0, mediaTime 0, no item, change 0: every lower edge is inside.", True,
          item_bytes=None, rate=0.0, media=0.0, change=0)
    check("check-rate-16", "Rate 16, the upper edge: accepted.", True, rate=16.0)
    check("check-rate-above-16", "Rate 16.000000000000004, the next binary64 above 16: rejected.", False,
          rate=math.nextafter(16.0, math.inf))
    check("check-rate-negative", "Rate -0.5: outside 0 … 16, rejected.", False, rate=-0.5)
    check("check-rate-negative-zero", "Rate -0.0. Reading: compared as numbers (IEEE 754), -0.0 equals 0 and is "
          "inside 0 … 16, accepted.", True, rate=-0.0, change=2)
    check("check-rate-nan", "Rate NaN: not finite, rejected.", False, rate=math.nan)
    check("check-rate-infinite", "Rate +infinity: not finite, rejected.", False, rate=math.inf)
    check("check-media-time-1e9", "mediaTime 1e9 s, the upper edge: accepted.", True, media=1e9)
    check("check-media-time-above-1e9", "mediaTime 1000000000.0000001, the next binary64 above 1e9: rejected.",
          False, media=math.nextafter(1e9, math.inf))
    check("check-media-time-negative", "mediaTime -0.001: outside 0 … 1e9, rejected.", False, media=-0.001)
    check("check-media-time-smallest-negative", "mediaTime -5e-324, the negative binary64 nearest 0: rejected.",
          False, media=-5e-324)
    check("check-media-time-nan", "mediaTime NaN: not finite, rejected.", False, media=math.nan)
    check("check-media-time-minus-infinity", "mediaTime -infinity: not finite, rejected.", False, media=-math.inf)
    check("check-item-1024-bytes", "An item of 1,024 UTF-8 bytes: not longer than 1,024, accepted.", True,
          item_bytes=1024)
    check("check-item-1025-bytes", "An item of 1,025 UTF-8 bytes: longer than 1,024, rejected.", False,
          item_bytes=1025)
    check("check-change-7", "Change 7 (resume), the last case: accepted.", True, change=7)
    check("check-change-8", "Change 8, a number without a case (kept by the open enum): outside 0 … 7, rejected.",
          False, change=8)
    check("check-integers-unchecked", "groupTime -2^63, clock 2^64 - 1 and the all-zero author are not checked: "
          "accepted.", True, group_time=I64_MIN, clock=U64_MAX, author=NIL)

    # ==== 5. clock estimates ==============================================================================
    readings = ("Readings: a sample's local time t1 + (t4 - t1) / 2 is exact (t4 - t1 is even in every vector); "
                "the drift is the slope of a weighted least-squares line fitted with an intercept; "
                "'uncertainty' is min(upper - s x) - max(lower - s x), the full width, not half of it; "
                "none of the results depends on how c is chosen. Tolerance: 1e-9 s for offsets and uncertainty, "
                "1e-12 for drift.")

    def clock_estimate(name, description, exchanges, probes):
        for t1, t2, t3, t4 in exchanges:
            assert (t4 - t1) % 2 == 0
        rejected, slope, offset, uncertainty, kept = estimate(exchanges)
        assert uncertainty >= 0, (name, float(uncertainty))
        add("clock-estimate", name, description + " " + readings,
            exchanges=[{"t1": str(t1), "t2": str(t2), "t3": str(t3), "t4": str(t4)} for t1, t2, t3, t4 in exchanges],
            rejected=rejected, drift=float(slope),
            offsetAt=[{"local": str(local), "offset": float(offset(local))} for local in probes],
            uncertainty=float(uncertainty))
        return rejected, slope, offset, uncertainty

    base = 1_000 * NS  # local clock readings start at 1,000 s

    # One exchange.
    theta = linear_theta(2_500_000_000, 0, base)
    ex = [exchange(base, 12 * MS, 500 * US, 18 * MS, theta)]
    r = clock_estimate("clock-one-exchange", "One exchange: 12 ms out, 0.5 ms handling, 18 ms back, true offset 2.5 s. "
                       "Bounds [2.482, 2.512] s: offset 2.497 s everywhere (no drift), uncertainty 30 ms.",
                       ex, [base + 15_250_000, base + 10 * NS, base - 600 * NS])
    assert r[1] == 0 and r[3] == Fraction(3, 100)

    # Symmetric delays.
    theta = linear_theta(123_456_789_000, 0, base)
    delays = [20, 8, 15, 30, 6, 12, 25, 10]
    ex = [exchange(base + i * 250 * MS, d * MS, 200 * US, d * MS, theta) for i, d in enumerate(delays)]
    r = clock_estimate("clock-symmetric-delays", "Eight exchanges 250 ms apart (the burst), each with equal delays "
                       "both ways (20, 8, 15, 30, 6, 12, 25, 10 ms), true offset 123.456789 s: the estimate is the true "
                       "offset, uncertainty 12 ms (from the 6 ms exchange).", ex, [base, base + 2 * NS, base + 60 * NS])
    assert r[2](base) == Fraction(123_456_789, 1_000_000) and r[3] == Fraction(12, 1000)

    # Asymmetric delays: the tightest bounds come from different exchanges.
    theta = linear_theta(-500_000_000, 0, base)
    pairs = [(2, 30), (25, 3), (10, 10), (15, 20)]
    ex = [exchange(base + i * 250 * MS, a * MS, 400 * US, b * MS, theta) for i, (a, b) in enumerate(pairs)]
    r = clock_estimate("clock-asymmetric-delays", "True offset -0.5 s (group behind local). Exchanges with delays "
                       "out/back 2/30, 25/3, 10/10, 15/20 ms: the tightest upper bound (-0.498) is the first's, the "
                       "tightest lower bound (-0.503) the second's, though no exchange is narrower than 20 ms: offset "
                       "-0.5005 s, uncertainty 5 ms.", ex, [base, base + 30 * NS])
    assert r[2](base) == Fraction(-5005, 10000) and r[3] == Fraction(5, 1000)

    # A span under 20 s: no drift although the clocks drift by 100 ppm.
    theta = linear_theta(750_000_000, Fraction(1, 10_000), base)
    starts = [0, 5 * NS, 10 * NS, 15 * NS, 19_990 * MS]
    ex = [exchange(base + s, 10 * MS, 200 * US, 10 * MS, theta) for s in starts]
    r = clock_estimate("clock-span-under-20s", "Five exchanges spanning 19.99 s of local time (equal round trips, so "
                       "the span is that of t1), true drift 100 ppm: under 20 s the drift is 0 and the bounds are "
                       "taken flat.", ex, [base, base + 10 * NS, base + 20 * NS])
    assert r[1] == 0

    starts = [0, 5 * NS, 10 * NS, 15 * NS, 20 * NS]
    ex = [exchange(base + s, 10 * MS, 200 * US, 10 * MS, theta) for s in starts]
    r = clock_estimate("clock-span-exactly-20s", "The same with the last exchange at 20 s: a span of exactly 20 s is "
                       "not less than 20 s, so the drift is estimated: exactly 1e-4 (the middles lie on a line).",
                       ex, [base, base + 10 * NS, base + 100 * NS])
    assert r[1] == Fraction(1, 10_000)

    # 200 s with a 100 ppm drift, uneven delays.
    ex = []
    for i in range(41):
        d1 = 4 * MS + ((i * 7919) % 1200) * 10 * US
        d2 = 4 * MS + ((i * 104729 + 3) % 1200) * 10 * US
        p = 100 * US + (i % 5) * 60 * US
        ex.append(exchange(base + i * 5 * NS, d1, p, d2, theta))
    r = clock_estimate("clock-200s-100ppm", "41 exchanges every 5 s over 200 s, the group clock 100 ppm fast "
                       "(true offset 0.75 s at local 1,000 s, 0.77 s at 1,200 s), delays 4 to 16 ms each way, "
                       "uneven: the weighted slope is near 1e-4 and the offset follows it.",
                       ex, [base, base + 100 * NS, base + 200 * NS, base + 300 * NS])
    assert abs(r[1] - Fraction(1, 10_000)) < Fraction(1, 100_000)

    # More than 48 exchanges: the oldest are dropped.
    theta = linear_theta(42 * NS, 0, base)
    ex = []
    for i in range(60):
        if i < 12:
            d1, d2 = 500 * US, 15 * MS  # skewed and tight on the upper side: would move the offset and tilt the drift
        elif i == 12:
            d1 = d2 = 1 * MS  # the tightest kept exchange: only the 48th from the end
        else:
            d1 = d2 = 3 * MS + (i % 7) * MS
        ex.append(exchange(base + i * 5 * NS, d1, 200 * US, d2, theta))
    r = clock_estimate("clock-more-than-48", "60 exchanges every 5 s, true offset 42 s, no drift. Only the last 48 "
                       "(indexes 12 to 59) are kept: the first 12 (0.5 ms out, 15 ms back) would pull the offset down "
                       "and tilt the drift; index 12, the oldest kept, has the tightest bounds (1 ms each way). "
                       "Result: drift 0, offset 42 s, uncertainty 2 ms.", ex, [base + 60 * NS, base + 300 * NS])
    assert r[1] == 0 and r[2](base) == 42 and r[3] == Fraction(2, 1000)

    # Out-of-order exchanges are rejected.
    theta = linear_theta(3 * NS, 0, base)
    good = [exchange(base + i * 250 * MS, d * MS, 300 * US, d * MS, theta) for i, d in enumerate([9, 7, 11, 8, 10, 12])]
    t1 = base + 1_600 * MS
    bad_t4 = (t1, t1 + 3 * NS + 1 * MS, t1 + 3 * NS + 1 * MS, t1 - 2 * MS)  # t4 < t1
    t1 = base + 1_700 * MS
    bad_t3 = (t1, t1 + 3 * NS + 5 * MS, t1 + 3 * NS + 4 * MS, t1 + 10 * MS)  # t3 < t2
    t1 = base + 1_800 * MS
    bad_rtt = (t1, t1 + 3 * NS + 1 * MS, t1 + 3 * NS + 1 * MS + 4 * MS + 2, t1 + 4 * MS)  # t4 - t1 < t3 - t2 by 2 ns
    ex = good[:2] + [bad_t4] + good[2:4] + [bad_t3] + good[4:] + [bad_rtt]
    r = clock_estimate("clock-out-of-order-rejected", "Six good exchanges (equal delays 7 to 12 ms, true offset 3 s) "
                       "and three out of order: index 2 has t4 < t1, index 5 t3 < t2, index 8 (t4 - t1) < (t3 - t2) by "
                       "2 ns. Each would tighten a bound if used; ignored, the estimate is 3 s with uncertainty 14 ms.",
                       ex, [base, base + 5 * NS])
    assert r[0] == [2, 5, 8] and r[2](base) == 3 and r[3] == Fraction(14, 1000)

    # Round trip equal to the handling time: accepted, zero width.
    t1 = base + 500 * MS
    zero = (t1, t1 + 3 * NS, t1 + 3 * NS + 2 * MS, t1 + 2 * MS)  # t4 - t1 == t3 - t2: not out of order
    t1 = base + 750 * MS
    same = (t1, t1 + 3 * NS, t1 + 3 * NS, t1)  # t4 == t1 and t3 == t2: not out of order either
    ex = good[:2] + [zero, same]
    r = clock_estimate("clock-zero-width-accepted", "Two exchanges with equal delays (9 and 7 ms) and two edges: index "
                       "2 with t4 - t1 equal to t3 - t2 (2 ms) and index 3 with t4 = t1 and t3 = t2. Neither is out "
                       "of order (the rule is strictly less); both give lower = upper = 3 s: offset 3 s, uncertainty 0.",
                       ex, [base, base + 10 * NS])
    assert r[0] == [] and r[3] == 0 and r[2](base) == 3

    # The weight floor of 0.1 ms.
    theta0 = 8 * NS
    spec = [(0, 10 * US, -10 * US), (10 * NS, 50 * US, 0), (20 * NS, 80 * US, -20 * US), (30 * NS, 400 * US, 200 * US)]
    ex = []
    for start, half, skew in spec:
        # upper = theta0 + skew + half, lower = theta0 + skew - half: width 2 * half, middle theta0 + skew
        ex.append(exchange_bounds(base + start, theta0 + skew + half, theta0 + skew - half, 100 * US))
    r = clock_estimate("clock-weight-floor", "Four exchanges 10 s apart with widths 20, 100, 160 and 800 us and middles "
                       "8 s - 10 us, 8 s, 8 s - 20 us, 8 s + 200 us: widths under 0.1 ms weigh as 0.1 ms, so the "
                       "first two weigh the same (without the floor the first would weigh 25 times the second).",
                       ex, [base, base + 15 * NS, base + 30 * NS])

    # Drift beyond 1,000 ppm is clamped.
    theta = linear_theta(-2 * NS, Fraction(2, 1000), base)
    ex = [exchange(base + i * 5 * NS, 15 * MS, 200 * US, 15 * MS, theta) for i in range(5)]
    r = clock_estimate("clock-drift-clamped-positive", "Five exchanges over 20 s, the group clock 2,000 ppm fast, "
                       "15 ms each way: the fitted slope 0.002 is clamped to 0.001, and the bounds are taken along "
                       "0.001 (still consistent: uncertainty 10 ms).", ex, [base, base + 10 * NS, base + 20 * NS])
    assert r[1] == Fraction(1, 1000)
    theta = linear_theta(5 * NS, Fraction(-15, 10_000), base)
    ex = [exchange(base + i * 5 * NS, 15 * MS, 200 * US, 15 * MS, theta) for i in range(5)]
    r = clock_estimate("clock-drift-clamped-negative", "The same with the group clock 1,500 ppm slow: the slope "
                       "-0.0015 is clamped to -0.001.", ex, [base, base + 10 * NS, base + 20 * NS])
    assert r[1] == Fraction(-1, 1000)
    return vectors


def main():
    write_vectors(OUT, build())


if __name__ == "__main__":
    main()
