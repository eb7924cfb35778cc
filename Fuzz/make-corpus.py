#!/usr/bin/env python3
"""Writes the seed corpora in Fuzz/corpus/ from the frame test vectors and the example
messages, so every fuzz target starts from valid (and some invalid) inputs.

Usage: python3 Fuzz/make-corpus.py   (rewrites Fuzz/corpus/FuzzFrameDecoder and
Fuzz/corpus/FuzzPayloadDump; files are small and committed)
"""
import glob
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VECTORS = os.path.join(ROOT, "Spec", "vectors", "frames")


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def uvarint(v: int) -> bytes:
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def key(number, wire_type):
    return uvarint(number << 3 | wire_type)


def f64(number, value):
    return key(number, 1) + struct.pack("<d", value)


def var(number, value):
    return key(number, 0) + uvarint(value)


def ld(number, content: bytes):
    return key(number, 2) + uvarint(len(content)) + content


def data_frame(type_id, body):
    inner = bytes([0]) + uvarint(type_id) + body
    head = bytes([0xC7, 0x01]) + uvarint(len(inner) + 4) + inner
    return head + struct.pack("<I", crc32c(head))


STROKE_ID = bytes.fromhex("6ba7b8109dad11d180b400c04fd430c8")
CONTENT_ID = bytes.fromhex("c0ffee001234456789abcdef01234567")
POINT = f64(1, 10.5) + f64(2, 20.25)
UPSERT = ld(1, STROKE_ID) + var(2, 1) + ld(3, POINT)
SNAPSHOT = ld(1, ld(1, STROKE_ID) + var(2, 1) + ld(3, POINT) + ld(3, f64(1, 11) + f64(2, 21.5))) + var(2, 2)
PLAYBACK = ld(1, b"Movie night") + ld(2, CONTENT_ID) + f64(3, 42.5) + f64(4, 1.0) + var(5, 1)
FIXED32 = key(1, 5) + struct.pack("<f", 0.5) + ld(2, b"") + ld(3, bytes([0xFF, 0x00, 0x80]))
DEEP = b""
for level in range(10):
    DEEP = ld(1, DEEP + var(2, level))


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def main():
    frames_dir = os.path.join(HERE, "corpus", "FuzzFrameDecoder")
    payload_dir = os.path.join(HERE, "corpus", "FuzzPayloadDump")
    valid = []
    for path in sorted(glob.glob(os.path.join(VECTORS, "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        data = bytes.fromhex(vector["hex"])
        write(frames_dir, "vector-" + vector["name"] + ".bin", data)
        if vector.get("valid"):
            valid.append(data)
            body = vector["frame"].get("body", "")
            if body:
                write(payload_dir, "vector-body-" + vector["name"] + ".bin", b"\x00" + bytes.fromhex(body))
    examples = {"upsert-stroke": (1, UPSERT), "canvas-snapshot": (2, SNAPSHOT), "playback-state": (10, PLAYBACK)}
    stream = b""
    for name, (type_id, body) in examples.items():
        frame = data_frame(type_id, body)
        write(frames_dir, "example-" + name + ".bin", frame)
        stream += frame
        write(payload_dir, "example-" + name + ".bin", b"\x00" + body)
        write(payload_dir, "example-" + name + "-small-limits.bin", b"\x9a" + body)
    write(frames_dir, "stream-examples.bin", stream)
    corrupted = bytearray(stream)
    corrupted[len(data_frame(1, UPSERT)) + 10] ^= 0x40
    write(frames_dir, "stream-corrupted-middle.bin", bytes(corrupted))
    write(frames_dir, "stream-garbage-between.bin", valid[0] + b"garbage" + valid[-1] + valid[0][:5])
    write(payload_dir, "fixed32-empty-bytes.bin", b"\x00" + FIXED32)
    write(payload_dir, "deep-nesting.bin", b"\x00" + DEEP)
    write(payload_dir, "deep-nesting-depth-3.bin", b"\x83" + DEEP)


if __name__ == "__main__":
    main()
