#!/usr/bin/env python3
"""Writes the acknowledgement vectors in Spec/vectors/delivery/: bodies of control id 32
(Spec/FORMAT.md, "Acknowledgement"), encoded here from the document alone, with the
fields a reader makes of them, or the error kind and offset of a malformed body.

  {"name", "description", "controlID", "hex", "ack": {"stream", "through", "received", "delay", "duplicate"}}
  or   "error": {"kind", "offset"}

"received" is the bitmap as lowercase hex ("" when absent); "delay" (microseconds) and
"duplicate" are 0 when absent.

Usage: python3 Spec/vectors/generate.py   (this module is run from there)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import field, length_delimited, uvarint  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "delivery")
ACK = 32


def build():
    vectors = []

    def valid(name, description, body, stream, through, received=b"", delay=0, duplicate=0):
        vectors.append({"name": name, "description": description, "controlID": ACK, "hex": body.hex(),
                        "ack": {"stream": stream, "through": through, "received": received.hex(), "delay": delay,
                                "duplicate": duplicate}})

    def error(name, description, body, kind, offset):
        vectors.append({"name": name, "description": description, "controlID": ACK, "hex": body.hex(),
                        "error": {"kind": kind, "offset": offset}})

    def ack(stream, through):
        return field(1, 0, uvarint(stream)) + field(2, 0, uvarint(through))

    valid("example", "FORMAT.md's example: stream 0x0b through 300.", ack(0x0B, 300), 0x0B, 300)
    valid("nothing-yet", "Through 0: nothing delivered yet (an acknowledgement of a gap at the start).", ack(3, 0), 3, 0)
    valid("largest", "Largest stream and through.", ack(0xFFFFFFFF, (1 << 64) - 1), 0xFFFFFFFF, (1 << 64) - 1)
    valid("fields-reversed", "Through before stream: fields may come in any order.",
          field(2, 0, uvarint(5)) + field(1, 0, uvarint(0x0B)), 0x0B, 5)
    valid("unknown-fields-skipped", "An unknown varint field 6 and an unknown bytes field 9 are skipped.",
          field(6, 0, uvarint(99)) + ack(0x0B, 7) + field(9, 2, length_delimited(b"later")), 0x0B, 7)
    valid("held-frames", "Through 1, holding 3 and 5: bits 0 and 2 of the bitmap in field 3 (sequence through + 2 + 8j + i).",
          ack(0x0B, 1) + field(3, 2, length_delimited(b"\x05")), 0x0B, 1, b"\x05")
    held = bytes([0xFF] * 7 + [0x80])
    valid("held-two-bytes-later", "Through 9, an 8-byte bitmap holding 57 frames: 11 ... 66 (every bit of bytes 0 to 6) "
          "and 74 (bit 7 of byte 7: sequence 9 + 2 + 8 x 7 + 7); 10 and 67 ... 73 are missing.",
          ack(0x0B, 9) + field(3, 2, length_delimited(held)), 0x0B, 9, held)
    longest = bytes([0x01] + [0] * 1022 + [0x80])
    valid("held-longest", "A bitmap of 1,024 bytes, the longest: holding through + 2 and through + 8,193.",
          ack(0x0B, 4) + field(3, 2, length_delimited(longest)), 0x0B, 4, longest)

    valid("delay-and-duplicate", "Through 40, held back 2,500 microseconds after 40 arrived, with sequence 17 received twice since the last acknowledgement.",
          ack(0x0B, 40) + field(4, 0, uvarint(2500)) + field(5, 0, uvarint(17)), 0x0B, 40, delay=2500, duplicate=17)
    valid("largest-delay", "A delay of 2^64 - 1 microseconds reads as it is (a sender caps what it uses at its maxAckDelay).",
          ack(0x0B, 1) + field(4, 0, uvarint((1 << 64) - 1)), 0x0B, 1, delay=(1 << 64) - 1)

    body = field(2, 0, uvarint(300))
    error("missing-stream", "No stream: missingField at the end of the body.", body, "missingField", len(body))
    body = field(1, 0, uvarint(0x0B))
    error("missing-through", "No through: missingField at the end of the body.", body, "missingField", len(body))
    error("unreliable-stream", "Stream 0x0a is unreliable (bit 0 clear): only reliable streams are acknowledged.",
          ack(0x0A, 1), "invalidValue", 1)
    error("stream-one", "Stream 1: below the smallest stream value.", ack(1, 1), "invalidValue", 1)
    error("stream-over-32-bits", "Stream 2^32 + 1.", ack((1 << 32) + 1, 1), "invalidValue", 1)
    error("stream-wrong-wire-type", "Stream as a length-delimited field.",
          field(1, 2, length_delimited(b"\x0b")) + field(2, 0, uvarint(1)), "typeMismatch", 0)
    body = ack(0x0B, 1)
    error("received-wrong-wire-type", "Field 3 (held frames) as a varint.",
          body + field(3, 0, uvarint(5)), "typeMismatch", len(body))
    error("delay-wrong-wire-type", "Field 4 (delay) as a length-delimited field.",
          body + field(4, 2, length_delimited(b"\x01")), "typeMismatch", len(body))
    error("duplicate-wrong-wire-type", "Field 5 (duplicate) as a length-delimited field.",
          body + field(5, 2, length_delimited(b"\x01")), "typeMismatch", len(body))
    error("received-too-long", "A bitmap of 1,025 bytes: limitExceeded at its length.",
          body + field(3, 2, length_delimited(bytes(1025))), "limitExceeded", len(body) + 1)
    # Appended, so the numbers above stay: what a reader accepts in a bitmap (FORMAT.md,
    # "Acknowledgement"): trailing zero bytes, which writers do not write, and no bit set.
    trailing = b"\x05\x00"
    valid("held-with-a-trailing-zero-byte", "Through 1, holding 3 and 5, the bitmap followed by a zero byte: read as "
          "it is (writers end at the byte of the highest sequence held).",
          ack(0x0B, 1) + field(3, 2, length_delimited(trailing)), 0x0B, 1, trailing)
    valid("bitmap-with-no-bit-set", "Through 2 with a one-byte bitmap holding nothing: read as it is.",
          ack(0x0B, 2) + field(3, 2, length_delimited(b"\x00")), 0x0B, 2, b"\x00")
    return vectors
