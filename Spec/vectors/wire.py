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


def field(number: int, wire_type: int, value: bytes) -> bytes:
    """A payload field: key uvarint(number << 3 | wire_type), then the value's bytes."""
    return uvarint(number << 3 | wire_type) + value


def length_delimited(value: bytes) -> bytes:
    return uvarint(len(value)) + value


def playback_state(state_id: bytes, title: str, content_id: bytes, position: float, rate: float,
                   playing: bool, event: int, who_id: bytes, who_name: str, changed_at_ns: int,
                   catalog_id: bytes, metadata=None) -> bytes:
    """A canonical PlaybackState payload (message @10 of Spec/Examples/WatchTogether.gwspec):
    ascending field numbers, non-optional scalars equal to their default omitted (rate 1,
    audioLanguage "en"), structs and unions always written, map entries sorted by key."""
    import struct
    out = field(1, 2, length_delimited(state_id))
    out += field(3, 2, length_delimited(title.encode()))
    out += field(5, 2, length_delimited(content_id))
    if struct.pack("<d", position) != bytes(8):
        out += field(6, 1, struct.pack("<d", position))
    if rate != 1.0:
        out += field(7, 1, struct.pack("<d", rate))
    if playing:
        out += field(8, 0, uvarint(1))
    if event:
        out += field(9, 0, uvarint(event))
    participant = field(1, 2, length_delimited(who_id)) + field(2, 2, length_delimited(who_name.encode()))
    out += field(10, 2, length_delimited(participant))
    if changed_at_ns:
        out += field(11, 1, struct.pack("<q", changed_at_ns))
    catalog_item = field(1, 2, length_delimited(catalog_id))
    out += field(12, 2, length_delimited(field(1, 2, length_delimited(catalog_item))))
    for key, value in sorted((metadata or {}).items(), key=lambda item: item[0].encode()):
        entry = field(1, 2, length_delimited(key.encode())) + field(2, 2, length_delimited(value.encode()))
        out += field(14, 2, length_delimited(entry))
    return out
