#!/usr/bin/env python3
"""Writes the version 1 frame test vectors in this folder.

This is a second, independent implementation of the frame layout in Spec/FORMAT.md,
written from the document alone (CRC32C, varints and layout are recomputed here, not
taken from the Swift code). The Swift tests replay every vector it writes; if the two
implementations disagree, a test fails.

Usage: python3 Spec/vectors/generate.py   (rewrites Spec/vectors/frames/*.json and
Spec/vectors/fragments/*.json through generate_fragments.py,
Spec/vectors/compression/* through generate_compression.py, which needs the zstd tool,
Spec/vectors/streams/*.json through generate_streams.py and its stream reader,
Spec/vectors/payloads/*.json through generate_payloads.py, Spec/vectors/hello/*.json
through generate_hello.py, Spec/vectors/relay/*.json through generate_relay.py,
Spec/vectors/cluster/*.json through generate_cluster.py,
Spec/vectors/playback/*.json through generate_playback.py, and
Spec/vectors/timestamps/*.json through generate_timestamps.py)
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import crc32c, playback_state, uvarint, write_vectors  # noqa: E402
import generate_fragments  # noqa: E402
import generate_compression  # noqa: E402
import generate_timestamps  # noqa: E402
import generate_streams  # noqa: E402
import generate_payloads  # noqa: E402
import generate_session  # noqa: E402
import generate_delivery  # noqa: E402
import generate_hello  # noqa: E402
import generate_relay  # noqa: E402
import generate_cluster  # noqa: E402
import generate_playback  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "frames")


KINDS = {"data": 0, "control": 1, "fragment": 2}


def frame(kind="data", type_id=1, body=b"", compression=None, fragment=None, session=None, delivery=None,
          version=1, flags_extra=0, kind_raw=None, length_override=None, crc_override=None,
          magic=0xC7, length_encoding=None, type_id_encoding=None, delivery_encoding=None):
    kind_byte = (KINDS[kind] if kind_raw is None else kind_raw) | flags_extra
    if compression is not None:
        kind_byte |= 0x10
    if session is not None:
        kind_byte |= 0x20
    if delivery is not None or delivery_encoding is not None:
        kind_byte |= 0x40
    inner = bytearray([kind_byte])
    # The delivery header (flag 0x40) follows the kind byte, before the kind header.
    if delivery is not None:
        inner += uvarint(delivery["stream"]) + uvarint(delivery["sequence"])
    elif delivery_encoding is not None:
        inner += delivery_encoding
    inner += uvarint(type_id) if type_id_encoding is None else type_id_encoding
    if fragment is not None:
        for key in ("messageID", "index", "count", "totalLength", "offset"):
            inner += uvarint(fragment[key])
    # The session header (flag 0x20) follows the kind header, before the compression header.
    if session is not None:
        inner += uvarint(session)
    if compression is not None:
        inner.append(compression["codec"])
        inner += uvarint(compression["dictionaryID"])
        inner += uvarint(compression["contentSize"])
    inner += body
    length = len(inner) + 4 if length_override is None else length_override
    prelude = bytes([magic, version]) + (uvarint(length) if length_encoding is None else length_encoding)
    covered = prelude + bytes(inner)
    crc = crc32c(covered) if crc_override is None else crc_override
    return covered + struct.pack("<I", crc)


def payload_field(number, wire_type, value: bytes) -> bytes:
    return uvarint(number << 3 | wire_type) + value


def ld(b: bytes) -> bytes:
    return uvarint(len(b)) + b


UUID = bytes.fromhex("6f1c2a9e4b7d4e0f8a3b5c6d7e8f9a0b")

# UpsertStroke-like payload: 1: id (UUID), 2: color (varint enum), 3: point {1: x f64, 2: y f64}
point = payload_field(1, 1, struct.pack("<d", 12.5)) + payload_field(2, 1, struct.pack("<d", -3.25))
upsert = payload_field(1, 2, ld(UUID)) + payload_field(2, 0, uvarint(2)) + payload_field(3, 2, ld(point))
# A PlaybackState payload (WatchTogether.gwspec, message @10) with a non-ASCII title.
playback = playback_state(UUID, "Ponyo 崖の上", bytes(range(16)), 93.75, 1.5, True, 1, bytes(range(16, 32)), "Ana",
                          1_700_000_000_000_000_000, bytes(range(16)), {"audio": "ja"})


def valid(name, description, raw, **fields):
    return {"name": name, "description": description, "hex": raw.hex(), "valid": True, "frame": fields}


def invalid(name, description, raw, kind, offset):
    return {"name": name, "description": description, "hex": raw.hex(), "valid": False,
            "error": {"kind": kind, "offset": offset}}


def describe(kind="data", type_id=1, body=b"", compression=None, fragment=None, session=None, delivery=None):
    fields = dict(kind=kind, typeID=type_id, body=body.hex(), compression=compression, fragment=fragment, session=session)
    if delivery is not None:
        fields["delivery"] = delivery
    return fields


vectors = []


def add_valid(name, description, **kw):
    vectors.append(valid(name, description, frame(**kw), **describe(**kw)))


add_valid("data-empty-body", "Smallest data frame: type id 1, empty body (5 header bytes + 4 checksum bytes).", type_id=1)
add_valid("data-one-byte", "Data frame with a one-byte body.", type_id=7, body=b"\x2a")
add_valid("data-upsert-stroke", "UpsertStroke-shaped payload: UUID, enum colour, nested point.", type_id=1, body=upsert)
add_valid("data-playback-state", "A PlaybackState payload (Spec/Examples/WatchTogether.gwspec, message @10) with a non-ASCII title.",
          type_id=10, body=playback)
add_valid("data-type-id-127", "Largest one-byte type id.", type_id=127, body=b"\x08\x01")
add_valid("data-type-id-128", "Smallest two-byte type id.", type_id=128, body=b"\x08\x01")
add_valid("data-type-id-max", "Largest type id, 2^32-1 (five-byte varint).", type_id=0xFFFFFFFF, body=b"")
add_valid("data-length-two-bytes", "Body of 200 bytes: the length field takes two bytes.", type_id=3, body=bytes(range(200)))
add_valid("data-length-three-bytes", "Body of 20,000 bytes: the length field takes three bytes.", type_id=3,
          body=bytes((i * 7) & 0xFF for i in range(20000)))
add_valid("control-short", "Control frame, control id 1 (the session-control range), short body.", kind="control", type_id=1, body=b"\x08\x01\x10\x01")
add_valid("compressed-zstd-header", "Compressed flag with zstd codec, no dictionary, content size 1000.",
          type_id=2, body=b"\x28\xb5\x2f\xfd", compression={"codec": 1, "dictionaryID": 0, "contentSize": 1000})
add_valid("compressed-with-dictionary", "Compressed with dictionary id 300 (two-byte varint).",
          type_id=2, body=b"\x28\xb5\x2f\xfd", compression={"codec": 1, "dictionaryID": 300, "contentSize": 70})
add_valid("fragment-first", "First of three fragments of a 10-byte message.", kind="fragment", type_id=2,
          body=b"\x00\x01\x02\x03", fragment={"messageID": 5, "index": 0, "count": 3, "totalLength": 10, "offset": 0})
add_valid("fragment-last", "Last of three fragments of a 10-byte message.", kind="fragment", type_id=2,
          body=b"\x08\x09", fragment={"messageID": 5, "index": 2, "count": 3, "totalLength": 10, "offset": 8})

good = frame(type_id=1, body=upsert)

vectors.append(invalid("bad-magic", "First byte is not 0xC7.", b"\x47" + good[1:], "badMagic", 0))
# `truncated` points at the first byte of what the input ends inside: here, the frame.
vectors.append(invalid("truncated-prelude", "Only magic and version.", good[:2], "truncated", 0))
vectors.append(invalid("truncated-body", "Frame cut one byte short of its checksum's end.", good[:-1], "truncated", 0))
bad_crc = bytearray(good)
bad_crc[10] ^= 0x01
vectors.append(invalid("checksum-mismatch-body", "One body bit flipped.", bytes(bad_crc), "checksumMismatch", len(good) - 4))
bad_crc2 = bytearray(good)
bad_crc2[-1] ^= 0x80
vectors.append(invalid("checksum-mismatch-stored", "One bit of the stored checksum flipped.", bytes(bad_crc2), "checksumMismatch", len(good) - 4))
vectors.append(invalid("unsupported-version-2", "Version 2 frame with a valid checksum: skipped, not misread.",
                       frame(type_id=1, body=b"\x01\x02", version=2), "unsupportedVersion", 1))
vectors.append(invalid("unsupported-version-0", "Version 0 is never valid.",
                       frame(type_id=1, body=b"", version=0), "unsupportedVersion", 1))
vectors.append(invalid("unknown-kind-3", "Kind 3 is reserved.", frame(kind_raw=3, type_id=1, body=b"\x00"), "unknownKind", 3))
vectors.append(invalid("unknown-kind-15", "Kind 15 is reserved.", frame(kind_raw=15, type_id=1, body=b""), "unknownKind", 3))
# Flag 0x40 was reserved in earlier revisions; the same bytes now read the type id 01 as a
# delivery stream of 1, below the smallest stream value, 2.
vectors.append(invalid("delivery-stream-one", "Flag 0x40 on a frame without a delivery header: its type id byte 01 reads as stream 1, outside 2...2^32-1.",
                       frame(type_id=1, body=b"", flags_extra=0x40), "invalidValue", 4))
vectors.append(invalid("unknown-flag-0x80", "Reserved flag bit 0x80 set.", frame(type_id=1, body=b"", flags_extra=0x80), "unknownFlags", 3))
vectors.append(invalid("type-id-zero", "Type id 0 is invalid.", frame(type_id=0, body=b""), "invalidTypeID", 4))
vectors.append(invalid("type-id-too-large", "Type id 2^32 does not fit 32 bits.", frame(type_id=1 << 32, body=b""), "invalidTypeID", 4))
vectors.append(invalid("length-too-small", "Length 4 cannot hold kind byte and checksum.",
                       bytes([0xC7, 0x01, 0x04, 0x00, 0, 0, 0, 0]), "frameTooSmall", 2))
vectors.append(invalid("length-over-limit", "Length 70,000 is over the default maxFrameSize of 65,536.",
                       bytes([0xC7, 0x01]) + uvarint(70000) + b"\x00\x01", "frameTooLarge", 2))
vectors.append(invalid("length-not-minimal", "Length varint 0x85 0x00 is not minimally encoded.",
                       frame(type_id=1, body=b"", length_encoding=b"\x85\x00"), "malformedVarint", 2))
vectors.append(invalid("type-id-varint-overlong", "Type id varint of eleven bytes.",
                       frame(type_id=1, type_id_encoding=b"\xff" * 10 + b"\x01"), "malformedVarint", 4))
vectors.append(invalid("unknown-codec", "Compressed flag with codec 9.", frame(type_id=2, body=b"\x00",
                       compression={"codec": 9, "dictionaryID": 0, "contentSize": 1}), "unknownCodec", 5))
vectors.append(invalid("content-size-over-limit", "Declared decompressed size 1 GiB is over maxMessageSize: rejected before allocating.",
                       frame(type_id=2, body=b"\x00", compression={"codec": 1, "dictionaryID": 0, "contentSize": 1 << 30}), "limitExceeded", 7))
vectors.append(invalid("fragment-index-not-below-count", "Fragment index 3 of count 3.", frame(kind="fragment", type_id=2, body=b"\x00",
                       fragment={"messageID": 1, "index": 3, "count": 3, "totalLength": 10, "offset": 0}), "invalidFragment", 6))
vectors.append(invalid("fragment-count-one", "A message of one fragment is sent as a data frame.", frame(kind="fragment", type_id=2, body=b"\x00",
                       fragment={"messageID": 1, "index": 0, "count": 1, "totalLength": 1, "offset": 0}), "invalidFragment", 7))
vectors.append(invalid("fragment-past-total", "Fragment bytes run past the declared total length.", frame(kind="fragment", type_id=2, body=b"\x00\x01\x02",
                       fragment={"messageID": 1, "index": 1, "count": 2, "totalLength": 4, "offset": 2}), "invalidFragment", 9))
# Which check wins when a frame breaks two rules (FORMAT.md, "Reading frames").
vectors.append(invalid("unknown-kind-and-flag", "Reserved kind 3 and reserved flag 0x80 at once: the kind is checked first.",
                       frame(kind_raw=3, type_id=1, body=b"", flags_extra=0x80), "unknownKind", 3))
vectors.append(invalid("fragment-count-one-unknown-codec", "A fragment count of 1 and codec 9: fragment rule 2 comes before the compression header.",
                       frame(kind="fragment", type_id=2, body=b"\x00", compression={"codec": 9, "dictionaryID": 0, "contentSize": 1},
                             fragment={"messageID": 1, "index": 0, "count": 1, "totalLength": 1, "offset": 0}), "invalidFragment", 7))
vectors.append(invalid("fragment-past-total-unknown-codec", "Fragment bytes past the total length and codec 9: the compression header comes before fragment rule 3.",
                       frame(kind="fragment", type_id=2, body=b"\x00\x01\x02", compression={"codec": 9, "dictionaryID": 0, "contentSize": 1},
                             fragment={"messageID": 1, "index": 1, "count": 2, "totalLength": 4, "offset": 2}), "unknownCodec", 10))
bad_then_more = bytearray(frame(type_id=1, body=b"\x01"))
bad_then_more[5] ^= 0x01
vectors.append(invalid("checksum-mismatch-before-trailing-bytes", "A damaged frame followed by a stray byte: the frame's own error wins, trailingBytes is the last check.",
                       bytes(bad_then_more) + b"\x00", "checksumMismatch", len(bad_then_more) - 4))
vectors.append(invalid("trailing-bytes", "A complete frame followed by a stray byte (single-frame decode).",
                       frame(type_id=1, body=b"") + b"\x00", "trailingBytes", len(frame(type_id=1, body=b""))))

# Session headers (FORMAT.md, "Sessions"): flag 0x20, the session id right after the kind header.
add_valid("data-in-session", "UpsertStroke in session 7: flag 0x20 and a one-byte session header.", type_id=1, body=upsert, session=7)
add_valid("data-in-session-max-id", "Largest session id, 2^32-1 (five-byte varint).", type_id=1, body=b"\x08\x01", session=0xFFFFFFFF)
add_valid("compressed-in-session", "Session header before the compression header.", type_id=2, body=b"\x28\xb5\x2f\xfd",
          compression={"codec": 1, "dictionaryID": 300, "contentSize": 70}, session=300)
add_valid("fragment-in-session", "Fragment header, then session header.", kind="fragment", type_id=2, body=b"\x00\x01\x02\x03",
          fragment={"messageID": 5, "index": 0, "count": 3, "totalLength": 10, "offset": 0}, session=2)
vectors.append(invalid("session-id-zero", "Session id 0 is reserved: invalidValue at the session header.",
                       frame(type_id=1, body=b"", flags_extra=0x20, type_id_encoding=uvarint(1) + uvarint(0)), "invalidValue", 5))
vectors.append(invalid("session-id-over-32-bits", "Session id 2^32: invalidValue at the session header.",
                       frame(type_id=1, body=b"", flags_extra=0x20, type_id_encoding=uvarint(1) + uvarint(1 << 32)), "invalidValue", 5))
vectors.append(invalid("session-header-cut", "Flag 0x20 set but the header ends inside the session id: truncated at its first byte.",
                       frame(type_id=1, body=b"", flags_extra=0x20, type_id_encoding=uvarint(1) + b"\x80"), "truncated", 5))

# Delivery headers (FORMAT.md, "Delivery header"): flag 0x40, stream and sequence right after the kind byte.
add_valid("delivery-example", "FORMAT.md's example: type 1, body 2a, the 1st frame of reliable stream 0x0b (incarnation 5).",
          type_id=1, body=b"\x2a", delivery={"stream": 0x0B, "sequence": 1})
add_valid("delivery-unreliable", "UpsertStroke as frame 300 of unreliable stream 0x0a (incarnation 5): a two-byte sequence.",
          type_id=1, body=upsert, delivery={"stream": 0x0A, "sequence": 300})
add_valid("delivery-random-incarnation", "A random 31-bit incarnation makes a five-byte stream (reliable, 0x9e3779b9).",
          type_id=1, body=b"\x08\x01", session=7, delivery={"stream": 0x9E3779B9, "sequence": 127})
add_valid("delivery-every-header", "Delivery, fragment, session and compression headers at once, largest stream and sequence.",
          kind="fragment", type_id=2, body=b"\x28\xb5", compression={"codec": 1, "dictionaryID": 300, "contentSize": 70},
          fragment={"messageID": 5, "index": 0, "count": 3, "totalLength": 10, "offset": 0}, session=0xFFFFFFFF,
          delivery={"stream": 0xFFFFFFFF, "sequence": (1 << 64) - 1})
add_valid("delivery-control", "A control frame numbered in a reliable stream (session control travels reliably).",
          kind="control", type_id=2, body=b"\x08\x07", delivery={"stream": 3, "sequence": 2})
vectors.append(invalid("delivery-stream-zero", "Stream 0: invalidValue at the stream.",
                       frame(type_id=1, body=b"", delivery_encoding=b"\x00\x01"), "invalidValue", 4))
vectors.append(invalid("delivery-stream-over-32-bits", "Stream 2^32: invalidValue at the stream.",
                       frame(type_id=1, body=b"", delivery_encoding=uvarint(1 << 32) + b"\x01"), "invalidValue", 4))
vectors.append(invalid("delivery-sequence-zero", "Sequence 0 is reserved: invalidValue at the sequence.",
                       frame(type_id=1, body=b"", delivery_encoding=b"\x0b\x00"), "invalidValue", 5))
vectors.append(invalid("delivery-stream-checked-first", "Stream 1 and sequence 0: the stream is checked before the sequence is read.",
                       frame(type_id=1, body=b"", delivery_encoding=b"\x01\x00"), "invalidValue", 4))
vectors.append(invalid("delivery-header-cut", "Flag 0x40 and the frame ends inside the stream: truncated at its first byte.",
                       frame(type_id=1, body=b"", delivery_encoding=b"\x80", type_id_encoding=b""), "truncated", 4))
vectors.append(invalid("delivery-stream-varint-overlong", "A stream varint of eleven bytes.",
                       frame(type_id=1, body=b"", delivery_encoding=b"\xff" * 10 + b"\x01"), "malformedVarint", 4))

write_vectors(OUT, vectors)
write_vectors(os.path.join(HERE, "fragments"), generate_fragments.build())
write_vectors(generate_compression.OUT, generate_compression.build())
write_vectors(generate_timestamps.OUT, generate_timestamps.build())
write_vectors(generate_streams.OUT, generate_streams.build())
write_vectors(generate_payloads.OUT, generate_payloads.build())
write_vectors(generate_session.OUT, generate_session.build())
write_vectors(generate_delivery.OUT, generate_delivery.build())
write_vectors(generate_hello.OUT, generate_hello.build())
write_vectors(generate_relay.OUT, generate_relay.build())
write_vectors(generate_cluster.OUT, generate_cluster.build())
write_vectors(generate_playback.OUT, generate_playback.build())
