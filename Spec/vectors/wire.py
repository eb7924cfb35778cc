"""Shared pieces of the vector generators: CRC32C, varints and writing vector files.

Written from Spec/FORMAT.md alone, independently of the Swift implementation.
"""
import json
import os


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


def zigzag(v: int) -> int:
    return (v << 1) ^ (v >> 63) if v >= 0 else ((-v) << 1) - 1


def write_vectors(folder, vectors):
    """Replaces the JSON vectors in `folder` with `vectors`, numbered in order."""
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        if old.endswith(".json"):
            os.remove(os.path.join(folder, old))
    for number, vector in enumerate(vectors, start=1):
        path = os.path.join(folder, f"{number:03d}-{vector['name']}.json")
        with open(path, "w") as handle:
            json.dump(vector, handle, indent=2, sort_keys=True, ensure_ascii=False)
            handle.write("\n")
    print(f"wrote {len(vectors)} vectors to {os.path.relpath(folder)}")
