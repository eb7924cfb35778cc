#!/usr/bin/env python3
"""Writes the compressed-frame test vectors in Spec/vectors/compression/.

Every compressed body here is made by the reference `zstd` command-line tool (not by the
Swift code), and every frame around it by this script from Spec/FORMAT.md alone, so the
Swift tests that replay these vectors check our layer against two independent
implementations. The dictionary is trained by `zstd --train` from sample payloads this
script writes.

Each vector is a valid frame (the frame vector tests replay it like any other) with one
more key, "decompressed": the dictionaries a receiver holds, and either the payload the
body decompresses to or the error kind a receiver reports.

Usage: python3 Spec/vectors/generate.py (which runs this module), or this file alone;
needs the zstd tool 1.5.x.
"""
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wire  # noqa: E402
from wire import crc32c, uvarint, write_vectors  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "compression")
DICT_NAME = "playback-4242.dict"
# PlaybackState's type id in Spec/Examples/WatchTogether.gwspec.
PLAYBACK_TYPE_ID = 10
ZSTD = shutil.which("zstd") or "/usr/bin/zstd"


def compressed_frame(type_id: int, dictionary_id: int, content_size: int, body: bytes) -> bytes:
    """A data frame with flag 0x10: kind byte, typeID, codec 1, dictionaryID, contentSize, body."""
    inner = bytes([0x10]) + uvarint(type_id) + bytes([1]) + uvarint(dictionary_id) + uvarint(content_size) + body
    covered = bytes([0xC7, 0x01]) + uvarint(len(inner) + 4) + inner
    return covered + struct.pack("<I", crc32c(covered))


def zstd(args, data: bytes) -> bytes:
    return subprocess.run([ZSTD, "-q", "-c"] + args, input=data, stdout=subprocess.PIPE, check=True).stdout


def field(number: int, wire_type: int, value: bytes) -> bytes:
    return uvarint(number << 3 | wire_type) + value


def playback_state(rng: random.Random) -> bytes:
    """A PlaybackState payload (Spec/Examples/WatchTogether.gwspec, message @10)."""
    episode = rng.randrange(1, 25)
    show = bytes(rng.randrange(256) for _ in range(16))
    return wire.playback_state(
        bytes(rng.randrange(256) for _ in range(16)), f"The Long Way Home: Episode {episode}",
        bytes(rng.randrange(256) for _ in range(16)), rng.randrange(2_700_000) / 1000,
        rng.choice([1.0, 1.0, 1.5, 0.0]), rng.random() < 0.7, rng.randrange(6),
        bytes(rng.randrange(256) for _ in range(16)), rng.choice(["Ana", "Bo", "Chidi", "Dana"]),
        1_700_000_000_000_000_000 + rng.randrange(10 ** 15), show,
        {"season": "2", "episode": str(episode), "media": f"media:show/season-2/episode-{episode}"})


def stroke_points(rng: random.Random, points: int) -> bytes:
    x, y, out = 400.0, 300.0, b""
    for _ in range(points):
        x += rng.choice([-1.5, -1.0, 0.0, 1.0, 1.5])
        y += rng.choice([-1.0, 0.0, 0.5, 1.0])
        point = field(1, 1, struct.pack("<d", x)) + field(2, 1, struct.pack("<d", y))
        out += field(4, 2, uvarint(len(point)) + point)
    return out


def build():
    """Trains the dictionary into OUT and returns the vectors (the caller writes them)."""
    rng = random.Random(4)
    os.makedirs(OUT, exist_ok=True)

    with tempfile.TemporaryDirectory() as scratch:
        for index in range(400):
            with open(os.path.join(scratch, f"{index}.bin"), "wb") as sample:
                sample.write(playback_state(rng))
        dict_path = os.path.join(OUT, DICT_NAME)
        subprocess.run([ZSTD, "-q", "--train", "-r", scratch, "-o", dict_path, "--maxdict=2048", "--dictID=4242"],
                       check=True)
    dictionary_arg = ["-D", os.path.join(OUT, DICT_NAME)]

    strokes = stroke_points(rng, 60)
    playback = playback_state(rng)
    plain_body = zstd(["-3", "--no-check", f"--stream-size={len(strokes)}"], strokes)
    dict_body = zstd(["-3", "--no-check", "--no-dictID", f"--stream-size={len(playback)}"] + dictionary_arg, playback)
    cli_default_dict_body = zstd(dictionary_arg + [f"--stream-size={len(playback)}"], playback)
    streamed_body = zstd(["-3", "--no-check"], strokes)  # from a pipe: no content size
    # The same dictionary content stamped with id 4243 (header bytes 4..7): a body made with
    # it names dictionary 4243 in its zstd frame.
    with open(os.path.join(OUT, DICT_NAME), "rb") as source:
        dictionary_bytes = source.read()
    with tempfile.TemporaryDirectory() as scratch:
        other_path = os.path.join(scratch, "other.dict")
        with open(other_path, "wb") as other:
            other.write(dictionary_bytes[:4] + struct.pack("<I", 4243) + dictionary_bytes[8:])
        other_dict_body = zstd(["-D", other_path, "--no-check", f"--stream-size={len(playback)}"], playback)
    bomb_declared = zstd(["-19", "--no-check", f"--stream-size={32 << 20}"], bytes(32 << 20))
    bomb_streamed = zstd(["-19", "--no-check"], bytes(32 << 20))

    def reserved_block(body: bytes) -> bytes:
        # Frame header: magic (4), descriptor (1), window byte unless single segment, then the
        # content size field; the first block header follows. Block type 3 is reserved.
        descriptor = body[4]
        single = descriptor & 0x20
        fcs = [1 if single else 0, 2, 4, 8][descriptor >> 6]
        did = [0, 1, 2, 4][descriptor & 3]
        at = 5 + (0 if single else 1) + did + fcs
        return body[:at] + bytes([body[at] | 0x06]) + body[at + 1:]

    def zero_dictionary_id(body: bytes) -> bytes:
        # Sets a one-byte Dictionary_ID field holding 0 (RFC 8878: no dictionary id).
        descriptor = body[4]
        at = 5 + (0 if descriptor & 0x20 else 1)
        return body[:4] + bytes([descriptor | 0x01]) + body[5:at] + b"\x00" + body[at:]

    vectors = [
        ("zstd-stroke-points", "60 stroke points compressed by `zstd -3 --no-check`, content size in the zstd frame header.",
         2, 0, len(strokes), plain_body, [], {"payload": strokes.hex()}),
        ("zstd-playback-dictionary", "A PlaybackState payload compressed with dictionary 4242 (`--no-dictID --no-check`): what our writer produces.",
         PLAYBACK_TYPE_ID, 4242, len(playback), dict_body, [DICT_NAME], {"payload": playback.hex()}),
        ("zstd-cli-defaults-with-dictionary", "`zstd -D` with the tool's defaults: the zstd frame also carries dictionary id 4242 and an XXH64 checksum; readers accept both.",
         PLAYBACK_TYPE_ID, 4242, len(playback), cli_default_dict_body, [DICT_NAME], {"payload": playback.hex()}),
        ("zstd-streamed-no-content-size", "A body streamed from a pipe: the zstd frame declares no size, the header's contentSize bounds the output.",
         2, 0, len(strokes), streamed_body, [], {"payload": strokes.hex()}),
        ("zstd-unknown-dictionary", "The body needs dictionary 4242 but the receiver holds none: the error names the id.",
         PLAYBACK_TYPE_ID, 4242, len(playback), dict_body, [], {"error": {"kind": "unknownDictionary"}}),
        ("zstd-dictionary-id-disagrees", "The header says no dictionary but the zstd frame names dictionary 4242.",
         PLAYBACK_TYPE_ID, 0, len(playback), cli_default_dict_body, [DICT_NAME], {"error": {"kind": "unknownDictionary"}}),
        ("zstd-dictionary-mismatch", "The header names dictionary 4242, which the receiver holds, but the zstd frame was made with dictionary 4243.",
         PLAYBACK_TYPE_ID, 4242, len(playback), other_dict_body, [DICT_NAME], {"error": {"kind": "dictionaryMismatch"}}),
        ("zstd-content-size-mismatch", "The header declares one byte more than the zstd frame does.",
         2, 0, len(strokes) + 1, plain_body, [], {"error": {"kind": "contentSizeMismatch"}}),
        ("zstd-streamed-longer-than-declared", "A streamed body (no size in the zstd frame) that decompresses to more than the header's contentSize.",
         2, 0, len(strokes) - 1, streamed_body, [], {"error": {"kind": "contentSizeMismatch"}}),
        ("zstd-truncated-body", "The zstd frame is cut off 3 bytes before its end (the GroupWire CRC is computed over the cut body).",
         2, 0, len(strokes), plain_body[:-3], [], {"error": {"kind": "truncated"}}),
        ("zstd-trailing-bytes", "One byte after the zstd frame: a body is exactly one zstd frame.",
         2, 0, len(strokes), plain_body + b"\x00", [], {"error": {"kind": "trailingBytes"}}),
        ("zstd-reserved-block-type", "The first block header uses the reserved block type 3.",
         2, 0, len(strokes), reserved_block(plain_body), [], {"error": {"kind": "decompressionFailed"}}),
        ("zstd-dictionary-id-field-zero", "The zstd frame carries a Dictionary_ID field holding 0, which means no dictionary id: read like an absent field.",
         2, 0, len(strokes), zero_dictionary_id(plain_body), [], {"payload": strokes.hex()}),
        ("zstd-not-a-zstd-frame", "The body does not start with the zstd magic 28 B5 2F FD.",
         2, 0, 5, b"hello", [], {"error": {"kind": "decompressionFailed"}}),
        ("zstd-skippable-frame", "A zstd skippable frame is not a compressed body.",
         2, 0, 0, bytes.fromhex("502a4d1800000000"), [], {"error": {"kind": "decompressionFailed"}}),
        ("zstd-bomb-declared-32-mib", "32 MiB of zeros (`zstd -19`) whose zstd frame declares 32 MiB, over the 16 MiB default message limit; the header claims 1000 bytes. Rejected before allocating.",
         2, 0, 1000, bomb_declared, [], {"error": {"kind": "decompressedSizeExceeded"}}),
        ("zstd-bomb-streamed-32-mib", "32 MiB of zeros streamed with no content size; the header claims 1000 bytes. Decoding stops after 1001 bytes.",
         2, 0, 1000, bomb_streamed, [], {"error": {"kind": "contentSizeMismatch"}}),
    ]
    documents = []
    for name, description, type_id, dictionary_id, content_size, body, dictionaries, outcome in vectors:
        documents.append({
            "name": name,
            "description": description,
            "hex": compressed_frame(type_id, dictionary_id, content_size, body).hex(),
            "valid": True,
            "frame": {
                "kind": "data", "typeID": type_id, "body": body.hex(), "fragment": None,
                "compression": {"codec": 1, "dictionaryID": dictionary_id, "contentSize": content_size},
            },
            "decompressed": dict(dictionaries=dictionaries, **outcome),
        })
    return documents


if __name__ == "__main__":
    write_vectors(OUT, build())
