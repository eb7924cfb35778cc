#!/usr/bin/env python3
"""Writes the seed corpora in Fuzz/corpus/ from the frame test vectors and the example
messages, so every fuzz target starts from valid (and some invalid) inputs.

Frames come from Spec/vectors/frames/*.json (written by Spec/vectors/generate.py, which
has the independent encoder); payloads are those vectors' bodies plus the demo payloads
below, copied from `groupwire demo --hex`.

Usage: python3 Fuzz/make-corpus.py   (rewrites Fuzz/corpus/FuzzFrameDecoder and
Fuzz/corpus/FuzzPayloadDump; files are small and committed)
"""
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(os.path.dirname(HERE), "Spec", "vectors", "frames")

# Bodies of the three frames `groupwire demo` writes (Sources/GroupWireCapture/Demo).
DEMO_PAYLOADS = {
    "upsert-stroke": "0a106ba7b8109dad11d180b400c04fd430c810011a12090000000000002540110000000000403440",
    "canvas-snapshot": "0a3c0a106ba7b8109dad11d180b400c04fd430c810011a120900000000000025401100000000004034401a1209"
                       "00000000000026401100000000008035400a280a101e296a5f4c3b4e219a7d2b8c610f55e310031a12090000"
                       "00000010c011000000000000c03f1003",
    "playback-state": "0a0b4d6f766965206e696768741210c0ffee001234456789abcdef0123456719000000000040454021000000000000f03f2801",
    # field 1 fixed32 0.5, field 2 empty LEN, field 3 LEN of non-text, non-field bytes.
    "fixed32-empty-bytes": "0d0000003f12001a03ff0080",
}


def nested(levels: int) -> bytes:
    """{1: {1: ... {2: varint level} ...}}: `levels` messages deep (lengths stay < 128)."""
    inner = b""
    for level in range(levels):
        content = inner + bytes([0x10, level])
        inner = bytes([0x0A, len(content)]) + content
    return inner


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def main():
    frames_dir = os.path.join(HERE, "corpus", "FuzzFrameDecoder")
    payload_dir = os.path.join(HERE, "corpus", "FuzzPayloadDump")
    valid = {}
    for path in sorted(glob.glob(os.path.join(VECTORS, "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        data = bytes.fromhex(vector["hex"])
        write(frames_dir, "vector-" + vector["name"] + ".bin", data)
        if vector.get("valid"):
            valid[vector["name"]] = data
            body = vector["frame"].get("body", "")
            if body:
                write(payload_dir, "vector-body-" + vector["name"] + ".bin", b"\x00" + bytes.fromhex(body))
    # Streams: several frames back to back, with a corrupted one or garbage between them.
    names = ["data-upsert-stroke", "control-hello", "fragment-first", "data-playback-state"]
    stream = b"".join(valid[name] for name in names)
    write(frames_dir, "stream-four-frames.bin", stream)
    corrupted = bytearray(stream)
    corrupted[len(valid[names[0]]) + 3] ^= 0x40
    write(frames_dir, "stream-corrupted-second.bin", bytes(corrupted))
    write(frames_dir, "stream-garbage-between.bin",
          valid[names[0]] + b"garbage" + valid[names[-1]] + valid[names[0]][:5])
    # Payloads: selector byte 0x00 (default limits) or with bit 7 set (small limits).
    for name, hex_text in DEMO_PAYLOADS.items():
        write(payload_dir, "demo-" + name + ".bin", b"\x00" + bytes.fromhex(hex_text))
        write(payload_dir, "demo-" + name + "-small-limits.bin", b"\x9a" + bytes.fromhex(hex_text))
    write(payload_dir, "deep-nesting.bin", b"\x00" + nested(10))
    write(payload_dir, "deep-nesting-depth-3.bin", b"\x83" + nested(10))


if __name__ == "__main__":
    main()
