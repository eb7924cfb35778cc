#!/usr/bin/env python3
"""Writes the stream test vectors in Spec/vectors/streams/ (Spec/FORMAT.md, "Reading a
stream"): input bytes and the exact list of events, computed by the independent stream
reader in stream_reader.py. The Swift tests feed every stream whole, byte by byte and in
chunks, and compare the events.

Usage: python3 Spec/vectors/generate.py   (this module is run from there)
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import crc32c, uvarint  # noqa: E402
from stream_reader import read_stream  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "streams")


def frame(type_id=1, body=b"", kind=0, version=1, fragment=None, session=None, delivery=None):
    kind_byte = kind | (0x20 if session is not None else 0) | (0x40 if delivery is not None else 0)
    inner = bytes([kind_byte])
    if delivery is not None:  # (stream, sequence), written as given
        inner += uvarint(delivery[0]) + uvarint(delivery[1])
    inner += uvarint(type_id)
    if fragment is not None:
        inner += b"".join(uvarint(v) for v in fragment)
    if session is not None:  # written as given, 0 included
        inner += uvarint(session)
    inner += body
    covered = bytes([0xC7, version]) + uvarint(len(inner) + 4) + inner
    return covered + struct.pack("<I", crc32c(covered))


def flipped(raw, index, bit=0):
    out = bytearray(raw)
    out[index] ^= 1 << bit
    return bytes(out)


def build():
    first = frame(1, b"first message")
    second = frame(2, bytes(range(40)))
    third = frame(3, b"\x08\x01")
    streams = [
        ("empty", "No bytes: no events.", b""),
        ("three-frames", "Three valid frames back to back.", first + second + third),
        ("stray-candidate-before-frame",
         "c7 01 30 between two frames: the stray candidate claims 48 bytes that run into the second frame, its "
         "checksum fails, and only its own three bytes are passed over.", first + bytes([0xC7, 0x01, 0x30]) + second),
        ("candidate-past-the-end",
         "A candidate whose length (127) runs past the end of the stream: it is truncated, and the two frames "
         "inside the bytes it claimed are still read.", bytes([0xC7, 0x01, 0x7F]) + third + third),
        ("garbage-then-frames", "Bytes without a magic byte before and between frames: one badMagic event per run.",
         b"\x00\x11\x22" + first + b"hello" + third),
        ("damaged-frame-with-magic-in-body",
         "A frame with one flipped bit whose body holds c7 01 05: the candidate at its magic byte and the one "
         "inside its body are each reported, and the frames around it survive.",
         third + flipped(frame(4, bytes([0xC7, 0x01, 0x05, 0x00, 0x01, 0x99])), 4) + third),
        ("version-two-frame-is-skipped-whole",
         "A version 2 frame with a valid checksum, whose body holds a version 1 frame: the checksum confirmed "
         "the length, so the whole frame is skipped and the inner frame is not read.",
         frame(7, third, version=2) + first),
        ("bad-lengths-then-frame",
         "A length below 5, a non-minimal length and a length over maxFrameSize, each followed by a frame.",
         bytes([0xC7, 0x01, 0x04]) + third + bytes([0xC7, 0x01, 0x85, 0x00]) + third
         + bytes([0xC7, 0x01]) + uvarint(70000) + third),
        ("unknown-kind-skipped-by-length",
         "A frame of reserved kind 5 with a valid checksum is skipped by its length.",
         frame(1, b"\xc7\x01\x05", kind=5) + third),
        ("fragment-field-error-skipped-by-length",
         "A fragment frame whose index is not below its count, with a valid checksum: reported at its index "
         "field and skipped by its length.",
         frame(2, b"\x00", kind=2, fragment=(1, 3, 3, 10, 0)) + third),
        ("frame-cut-at-the-end", "A stream that ends inside its last frame.", first + second[:-3]),
        ("lone-magic-byte", "A stream of one 0xC7 byte.", b"\xc7"),
    ]
    # Appended after the seeded mix so that the earlier vectors keep their numbers.
    later = [
        ("delivery-and-session-errors-skipped-by-length",
         "A frame with delivery and session headers, then two frames with valid checksums whose delivery stream is 1 "
         "and whose session id is 0: each is one event at its header field, skipped by its length.",
         frame(1, b"\x08\x01", session=7, delivery=(0x0B, 1)) + frame(1, b"\x08\x02", delivery=(1, 2))
         + frame(1, b"\x08\x03", session=0) + third),
    ]
    rng = random.Random(9)
    mixed = b""
    for _ in range(12):
        choice = rng.randrange(5)
        body = bytes(rng.choice([0xC7, rng.randrange(256)]) for _ in range(rng.randrange(30)))
        if choice == 0:
            mixed += bytes([0xC7, rng.randrange(3), rng.randrange(5, 128)])
        elif choice == 1:
            cut = frame(rng.randrange(1, 200), body)
            mixed += cut[:rng.randrange(1, len(cut))]
        elif choice == 2:
            whole = frame(rng.randrange(1, 200), body)
            mixed += flipped(whole, rng.randrange(len(whole)), rng.randrange(8))
        elif choice == 3:
            mixed += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        mixed += frame(rng.randrange(1, 200), body)
    streams.append(("seeded-mix", "Twelve valid frames with seeded junk between them (stray candidates, cut frames, "
                    "flipped bits, random bytes).", mixed))
    streams += later
    return [{"name": name, "description": description, "hex": data.hex(), "events": read_stream(data)}
            for name, description, data in streams]
