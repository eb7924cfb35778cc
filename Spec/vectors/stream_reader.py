"""A stream reader for version 1 frames, written from Spec/FORMAT.md ("Reading frames",
"Reading a stream", "Error offsets") alone, independently of the Swift code.

read_stream(data) returns the events a conforming stream reader reports for `data`:
  {"offset": O, "length": N, "frame": {...}}            a valid frame
  {"offset": O, "length": N, "error": {"kind": K, "offset": E}}
Every byte belongs to exactly one event. The generator (generate_streams.py) writes these
lists into Spec/vectors/streams/, and the Swift tests replay them.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import crc32c  # noqa: E402

MAGIC = 0xC7
MAX_FRAME_SIZE = 65536
MAX_MESSAGE_SIZE = 16 << 20
MAX_FRAGMENT_COUNT = 4096
KIND_NAMES = {0: "data", 1: "control", 2: "fragment"}


class Rejected(Exception):
    def __init__(self, kind, offset):
        super().__init__(kind)
        self.kind = kind
        self.offset = offset


def read_varint(data, position, end):
    """(value, next position); Rejected for a cut-off or malformed varint (at its first byte)."""
    value, shift, index = 0, 0, position
    while True:
        if index >= end:
            raise Rejected("truncated", position)
        byte = data[index]
        index += 1
        if shift == 63 and byte > 1:
            raise Rejected("malformedVarint", position)
        value |= (byte & 0x7F) << shift
        if byte & 0x80 == 0:
            if byte == 0 and shift > 0:
                raise Rejected("malformedVarint", position)
            return value, index
        shift += 7


def parse_confirmed(data, start, kind_at, end):
    """Checks a candidate whose checksum matched; returns the frame's fields or raises."""
    if data[start + 1] != 1:
        raise Rejected("unsupportedVersion", start + 1)
    header_end = end - 4
    if kind_at >= header_end:
        raise Rejected("truncated", kind_at)
    kind_byte = data[kind_at]
    kind, flags = kind_byte & 0x0F, kind_byte & 0xF0
    if kind not in KIND_NAMES:
        raise Rejected("unknownKind", kind_at)
    if flags & 0x80:
        raise Rejected("unknownFlags", kind_at)
    position = kind_at + 1
    delivery = None
    if flags & 0x40:
        # The delivery header: stream 2 ... 2^32-1, then sequence 1 ... 2^64-1.
        stream_at = position
        stream, position = read_varint(data, position, header_end)
        if not 2 <= stream <= 0xFFFFFFFF:
            raise Rejected("invalidValue", stream_at)
        sequence_at = position
        sequence, position = read_varint(data, position, header_end)
        if sequence == 0:
            raise Rejected("invalidValue", sequence_at)
        delivery = {"stream": stream, "sequence": sequence}
    type_at = position
    type_id, position = read_varint(data, position, header_end)
    if not 1 <= type_id <= 0xFFFFFFFF:
        raise Rejected("invalidTypeID", type_at)
    fragment = None
    at = {}
    if kind == 2:
        values = {}
        for name in ("messageID", "index", "count", "totalLength", "offset"):
            at[name] = position
            values[name], position = read_varint(data, position, header_end)
        if values["count"] > MAX_FRAGMENT_COUNT:
            raise Rejected("limitExceeded", at["count"])
        if values["totalLength"] > MAX_MESSAGE_SIZE:
            raise Rejected("limitExceeded", at["totalLength"])
        if values["count"] < 2:
            raise Rejected("invalidFragment", at["count"])
        if values["index"] >= values["count"]:
            raise Rejected("invalidFragment", at["index"])
        fragment = values
    session = None
    if flags & 0x20:
        session_at = position
        session, position = read_varint(data, position, header_end)
        if not 1 <= session <= 0xFFFFFFFF:
            raise Rejected("invalidValue", session_at)
    compression = None
    if flags & 0x10:
        if position >= header_end:
            raise Rejected("truncated", position)
        codec_at = position
        codec = data[position]
        position += 1
        if codec != 1:
            raise Rejected("unknownCodec", codec_at)
        dictionary_at = position
        dictionary_id, position = read_varint(data, position, header_end)
        if dictionary_id > 0xFFFFFFFF:
            raise Rejected("invalidValue", dictionary_at)
        size_at = position
        content_size, position = read_varint(data, position, header_end)
        if content_size > MAX_MESSAGE_SIZE:
            raise Rejected("limitExceeded", size_at)
        compression = {"codec": codec, "dictionaryID": dictionary_id, "contentSize": content_size}
    body = bytes(data[position:header_end])
    if fragment is not None and fragment["offset"] + len(body) > fragment["totalLength"]:
        raise Rejected("invalidFragment", at["offset"])
    fields = {"kind": KIND_NAMES[kind], "typeID": type_id, "body": body.hex(),
              "compression": compression, "fragment": fragment}
    # Written only when present, so frames without these headers read as before.
    if session is not None:
        fields["session"] = session
    if delivery is not None:
        fields["delivery"] = delivery
    return fields


def examine(data, start):
    """What starts at `start` (data[start] is 0xC7):
    ("frame", fields, end), ("confirmed-error", kind, offset, end),
    or ("unconfirmed", kind, offset) for a candidate whose length is not trusted."""
    if start + 2 >= len(data):
        return ("unconfirmed", "truncated", start)
    try:
        length, kind_at = read_varint(data, start + 2, len(data))
    except Rejected as rejected:
        if rejected.kind == "truncated":
            return ("unconfirmed", "truncated", start)
        return ("unconfirmed", rejected.kind, start + 2)
    if length < 5:
        return ("unconfirmed", "frameTooSmall", start + 2)
    if (kind_at - start) + length > MAX_FRAME_SIZE:
        return ("unconfirmed", "frameTooLarge", start + 2)
    end = kind_at + length
    if end > len(data):
        return ("unconfirmed", "truncated", start)
    stored = struct.unpack("<I", bytes(data[end - 4:end]))[0]
    if stored != crc32c(bytes(data[start:end - 4])):
        return ("unconfirmed", "checksumMismatch", end - 4)
    try:
        return ("frame", parse_confirmed(data, start, kind_at, end), end)
    except Rejected as rejected:
        return ("confirmed-error", rejected.kind, rejected.offset, end)


def next_magic(data, position):
    index = data.find(bytes([MAGIC]), position)
    return len(data) if index < 0 else index


def read_stream(data: bytes):
    events = []
    position = 0
    while position < len(data):
        if data[position] != MAGIC:
            end = next_magic(data, position)
            events.append({"offset": position, "length": end - position,
                           "error": {"kind": "badMagic", "offset": position}})
            position = end
            continue
        found = examine(data, position)
        if found[0] == "frame":
            events.append({"offset": position, "length": found[2] - position, "frame": found[1]})
            position = found[2]
        elif found[0] == "confirmed-error":
            events.append({"offset": position, "length": found[3] - position,
                           "error": {"kind": found[1], "offset": found[2]}})
            position = found[3]
        else:
            end = next_magic(data, position + 1)
            events.append({"offset": position, "length": end - position,
                           "error": {"kind": found[1], "offset": found[2]}})
            position = end
    return events
