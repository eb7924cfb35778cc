#!/usr/bin/env python3
"""Writes the fragment frame test vectors in this folder (Spec/FORMAT.md, "Fragment frames").

Written from the document alone, independently of the Swift code: the fragment layout and
the uniform-layout rules are recomputed here, with the CRC32C and varint functions of the
frame vector generator (Spec/vectors/generate.py). The Swift tests replay every
vector: frame-level vectors through the frame decoder, and vectors with a "reassembly"
verdict through the reassembler as the first fragment of their message.

Same schema as Spec/vectors/frames, plus one key:
  "reassembly": null            the fragment is acceptable as the first of its message
  "reassembly": {"drop": KIND}  the frame decodes, but a reassembler drops the message
                                (KIND is a DropReason name)

Usage: python3 Spec/vectors/generate.py   (this module is run from there)
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import crc32c, uvarint  # noqa: E402


FIELDS = ("messageID", "index", "count", "totalLength", "offset")


def fragment_frame(type_id, fragment, body, compression=None, cut=None):
    """A fragment frame; `cut` keeps only that many bytes of the kind header (then CRC)."""
    header = uvarint(type_id) + b"".join(uvarint(fragment[k]) for k in FIELDS)
    if compression is not None:
        header += bytes([compression["codec"]]) + uvarint(compression["dictionaryID"]) + uvarint(compression["contentSize"])
    if cut is not None:
        header, body = header[:cut], b""
    inner = bytes([0x02 | (0x10 if compression else 0)]) + header + body
    covered = bytes([0xC7, 0x01]) + uvarint(len(inner) + 4) + inner
    return covered + struct.pack("<I", crc32c(covered))


def info(message_id, index, count, total, offset):
    return dict(zip(FIELDS, (message_id, index, count, total, offset)))


vectors = []


def valid(name, description, type_id, fragment, body, compression=None, drop=None):
    vectors.append({
        "name": name, "description": description, "valid": True,
        "hex": fragment_frame(type_id, fragment, body, compression).hex(),
        "frame": {"kind": "fragment", "typeID": type_id, "body": body.hex(), "compression": compression, "fragment": fragment},
        "reassembly": None if drop is None else {"drop": drop},
    })


def invalid(name, description, raw, kind, offset):
    vectors.append({"name": name, "description": description, "valid": False, "hex": raw.hex(),
                    "error": {"kind": kind, "offset": offset}})


def build():
    """Every fragment vector, in file order."""
    vectors.clear()
    message = bytes(range(0x40, 0x4A))  # 10 bytes cut into 4 + 4 + 2
    valid("uniform-first", "First of three fragments of a 10-byte message; message id 300 (two-byte varint).",
          9, info(300, 0, 3, 10, 0), message[0:4])
    valid("uniform-middle", "Middle fragment: offset = index x fragment body size (1 x 4).",
          9, info(300, 1, 3, 10, 4), message[4:8])
    valid("uniform-last", "Last fragment: the remaining 2 bytes, ending exactly at the total length.",
          9, info(300, 2, 3, 10, 8), message[8:10])
    valid("compressed-middle", "Fragment of a compressed body: the compression header follows the fragment header "
          "and repeats on every fragment; totalLength counts compressed bytes, contentSize the decompressed message.",
          4, info(7, 1, 2, 6, 3), bytes.fromhex("2fb5fd"), {"codec": 1, "dictionaryID": 0, "contentSize": 4000})
    valid("wide-varints", "Fragment 200 of 250 of a 1,000-byte message in 4-byte pieces: index, count, total and offset "
          "all take two-byte varints.", 77, info(1 << 35, 200, 250, 1000, 800), bytes.fromhex("deadbeef"))

    # Frame-level rejections (the frame decoder, before any reassembly state exists). Each
    # points at the field whose value is wrong (kind byte at 3, type id at 4, message id at
    # 5, then index, count, totalLength, offset).
    invalid("count-over-limit", "Fragment count 4,097 is over maxFragmentCount (4,096).",
            fragment_frame(9, info(1, 0, 4097, 8194, 0), b"\x00\x01"), "limitExceeded", 7)
    invalid("total-over-limit", "Total length 16 MiB + 1 is over maxMessageSize.",
            fragment_frame(9, info(1, 0, 2, (16 << 20) + 1, 0), b"\x00"), "limitExceeded", 8)
    invalid("index-far-past-count", "Index 70,000 of count 3.",
            fragment_frame(9, info(1, 70000, 3, 10, 0), b"\x00"), "invalidFragment", 6)
    invalid("offset-past-total", "Offset 11 lies beyond the 10-byte total.",
            fragment_frame(9, info(1, 1, 3, 10, 11), b"\x00"), "invalidFragment", 9)
    invalid("header-truncated", "The fragment header stops after the message id and index (the checksum is valid).",
            fragment_frame(9, info(300, 1, 3, 10, 4), b"", cut=4), "truncated", 8)

    # Frames that decode, but break the uniform layout: a reassembler drops the message
    # before allocating anything.
    valid("overlapping-offset", "Index 1 with 4 bytes at offset 3: overlaps fragment 0 (offset must be 1 x 4).",
          9, info(2, 1, 3, 10, 3), message[3:7], drop="invalidFragment")
    valid("total-lies", "Two fragments of 4 bytes cannot hold the claimed 100 bytes.",
          9, info(3, 0, 2, 100, 0), message[0:4], drop="invalidFragment")
    valid("last-longer-than-others", "The last of two fragments carries 6 bytes at offset 4: more than the 4 of the others.",
          9, info(4, 1, 2, 10, 4), message[4:10], drop="invalidFragment")
    valid("empty-middle", "An empty non-last fragment: every fragment carries at least one byte.",
          9, info(5, 0, 3, 10, 0), b"", drop="invalidFragment")
    return list(vectors)
