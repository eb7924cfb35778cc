#!/usr/bin/env python3
"""Writes the seed corpora in Fuzz/corpus/ from the frame test vectors and the example
messages, so every fuzz target starts from valid (and some invalid) inputs.

Frames come from Spec/vectors/frames/*.json (written by Spec/vectors/generate.py, which
has the independent encoder); payloads are those vectors' bodies plus the demo payloads
below, copied from `groupwire demo --hex`.

Also: FuzzCompression from Spec/vectors/compression (and frames made with the zstd CLI),
FuzzReassembler from Spec/vectors/fragments and messages split the way the Fragmenter
splits them, FuzzReceivePipeline from frame, fragment and compression vectors sent by
three peers, FuzzFrameFile from frames written as plain hex, `xxd` and `hexdump -C`
dumps, FuzzSpecCompiler from Spec/Examples and Tests/Specs, FuzzGeneratedTypes and
FuzzDynamicCodec from the example messages, FuzzCaptureReader and FuzzValidate from
pcapng and pcap files built here (both byte orders, every block type, option and length
edge CapturePacketReader handles, all four pcap magics). Each target's input format is
described in its harness, Fuzz/Harnesses/*FuzzHarness.swift.

Usage: python3 Fuzz/make-corpus.py   (rewrites Fuzz/corpus/* except FuzzWireDecoder;
files are small and committed; needs the zstd, xxd and hexdump commands)
"""
import glob
import json
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VECTORS = os.path.join(ROOT, "Spec", "vectors", "frames")
COMPRESSION_VECTORS = os.path.join(ROOT, "Spec", "vectors", "compression")
FRAGMENT_VECTORS = os.path.join(ROOT, "Spec", "vectors", "fragments")

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


# KitchenSink's Awkward (Tests/Specs/KitchenSink.gwspec) with every scalar, Fixed32 and
# Fixed64 included, in fields, packed arrays, map keys, defaults and union payloads:
# `groupwire encode --spec Tests/Specs/KitchenSink.gwspec --type Awkward --hex`, frame
# header and checksum cut off.
KITCHEN_SINK_AWKWARD = ("0a03746f70100120092a00328f020a02010012040104d7041a0afeffffffffffffffff012202ff012a02000132040000c03f"
    "3a10000000000000e03f00000000000002c04208005ed0b2000000004a020207520161520362c3a95a005a01016210000000"
    "000000400080000000000000aa6a660801100f181f201128ffffffffffffffffff0130083810402048ffffffffffffffffff"
    "01550000c03f59000000000000d0bf6202696e6a030001ff7210000000000000400080000000000000bb79003665c4ffffff"
    "ff8d01ffffffff9101efcdab896745230172020a007202100572031a0174720228017209510000000000000000720959ffff"
    "ffffffffffff7a100100000000000000ffffffffffffffff82010807000000ffffffff3aa3010a050a016110050a050a0162"
    "100812050801120161120508041201621a050807120107220b0800110000000000000000220b080111000000000000f03f2a"
    "1b0a10000000000000400080000000000000aa11040000000000000032050a016d1003420d0a016b12081a0663686f73656e"
    "4a0708011500002040520f090500000000000000120466697665520e09ffffffffffffffff12036d61785a070d0700000010"
    "0d42120800100045000000004901000000000000004a3208001000180025000000002a0032003a1000000000000040008000"
    "0000000000cc410000000000000000480052005a021017")

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
    names = ["data-upsert-stroke", "control-short", "fragment-first", "data-playback-state"]
    stream = b"".join(valid[name] for name in names)
    write(frames_dir, "stream-four-frames.bin", stream)
    corrupted = bytearray(stream)
    corrupted[len(valid[names[0]]) + 3] ^= 0x40
    write(frames_dir, "stream-corrupted-second.bin", bytes(corrupted))
    write(frames_dir, "stream-garbage-between.bin",
          valid[names[0]] + b"garbage" + valid[names[-1]] + valid[names[0]][:5])
    # Stream vectors: junk that looks like frame starts, cut and damaged frames.
    for path in sorted(glob.glob(os.path.join(VECTORS, "..", "streams", "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        if vector["hex"]:
            write(frames_dir, "stream-vector-" + vector["name"] + ".bin", bytes.fromhex(vector["hex"]))
    # Payloads: selector byte 0x00 (default limits) or with bit 7 set (small limits).
    for name, hex_text in DEMO_PAYLOADS.items():
        write(payload_dir, "demo-" + name + ".bin", b"\x00" + bytes.fromhex(hex_text))
        write(payload_dir, "demo-" + name + "-small-limits.bin", b"\x9a" + bytes.fromhex(hex_text))
    write(payload_dir, "deep-nesting.bin", b"\x00" + nested(10))
    write(payload_dir, "deep-nesting-depth-3.bin", b"\x83" + nested(10))

    compression_corpus()
    reassembler_corpus()
    receive_pipeline_corpus(valid)
    frame_file_corpus(valid)
    capture_corpus(valid)
    spec_corpus()
    session_control_corpus()
    delivery_corpus()
    hello_corpus()
    agreement_corpus()
    relay_corpus()
    nats_corpus()
    playback_corpus()
    generated_types_corpus()
    dynamic_codec_corpus()


def dynamic_codec_corpus():
    """FuzzDynamicCodec input: selector (bit 0: keep unknown fields, bit 1: pretty JSON, bit 2:
    KitchenSink's Awkward instead of PlaybackState, bit 3: DrawTogether's CanvasSnapshot), payload."""
    folder = os.path.join(HERE, "corpus", "FuzzDynamicCodec")
    payload = bytes.fromhex(DEMO_PAYLOADS["playback-state"])
    write(folder, "demo-playback-state.bin", b"\x00" + payload)
    write(folder, "demo-playback-state-keep-unknown.bin", b"\x01" + payload)
    # An unknown field 20 (LEN) and a map entry (field 14: {1: "k", 2: "v"}).
    extra = bytes([0xA2, 0x01, 0x02, 0x68, 0x69]) + bytes([0x72, 0x06, 0x0A, 0x01, 0x6B, 0x12, 0x01, 0x76])
    write(folder, "unknown-field-and-map.bin", b"\x00" + payload + extra)
    write(folder, "unknown-field-and-map-keep-unknown.bin", b"\x01" + payload + extra)
    write(folder, "empty.bin", b"\x00")
    awkward = bytes.fromhex(KITCHEN_SINK_AWKWARD)
    write(folder, "kitchen-sink-awkward.bin", b"\x04" + awkward)
    write(folder, "kitchen-sink-awkward-keep-unknown-pretty.bin", b"\x07" + awkward + extra)
    write(folder, "kitchen-sink-empty.bin", b"\x04")
    # Two strokes of points (arrays of structs of structs): what validation skims.
    snapshot = bytes.fromhex(DEMO_PAYLOADS["canvas-snapshot"])
    write(folder, "demo-canvas-snapshot.bin", b"\x08" + snapshot)
    write(folder, "demo-canvas-snapshot-keep-unknown-pretty.bin", b"\x0b" + snapshot + extra)


def generated_types_corpus():
    """FuzzGeneratedTypes input: selector (0 UpsertStroke, 1 CanvasSnapshot, 2 PlaybackState), payload."""
    folder = os.path.join(HERE, "corpus", "FuzzGeneratedTypes")
    for selector, name in enumerate(["upsert-stroke", "canvas-snapshot", "playback-state"]):
        payload = bytes.fromhex(DEMO_PAYLOADS[name])
        write(folder, "demo-" + name + ".bin", bytes([selector]) + payload)
        # The same payload read as the next type: mostly wrong wire types and unknown fields.
        write(folder, "demo-" + name + "-as-type-" + str((selector + 1) % 3) + ".bin",
              bytes([(selector + 1) % 3]) + payload)
    for selector in range(3):
        write(folder, "empty-" + str(selector) + ".bin", bytes([selector]))


def uvarint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def compression_input(dictionary_id: int, content_size: int, body: bytes) -> bytes:
    """FuzzCompression input: selector (dictionary choice, size shift), u16 size, body."""
    selector = {0: 0, 4242: 1}.get(dictionary_id, 2)
    if content_size > 0xFFFF:
        selector |= 4
        content_size = min(content_size >> 8, 0xFFFF)
    return bytes([selector]) + content_size.to_bytes(2, "little") + body


def compression_corpus():
    folder = os.path.join(HERE, "corpus", "FuzzCompression")
    for path in sorted(glob.glob(os.path.join(COMPRESSION_VECTORS, "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        frame = vector["frame"]
        info = frame.get("compression") or {}
        body = bytes.fromhex(frame.get("body", ""))
        write(folder, "vector-" + vector["name"] + ".bin",
              compression_input(info.get("dictionaryID", 0), info.get("contentSize", 0), body))
    dictionary = os.path.join(COMPRESSION_VECTORS, "playback-4242.dict")
    payloads = {name: bytes.fromhex(text) for name, text in DEMO_PAYLOADS.items()}
    payloads["repeated-strokes"] = payloads["upsert-stroke"] * 12
    for name, payload in payloads.items():
        for suffix, options, dictionary_id in [("plain", [], 0), ("dict", ["-D", dictionary], 4242)]:
            body = subprocess.run(["zstd", "-q", "-c", "-19", "--no-check"] + options, input=payload,
                                  stdout=subprocess.PIPE, check=True).stdout
            write(folder, "cli-" + name + "-" + suffix + ".bin",
                  compression_input(dictionary_id, len(payload), body))


def fragment_record(sender: int, message_id: int, index: int, count: int, total: int, offset: int,
                    body: bytes) -> bytes:
    """FuzzReassembler record: a fragment built from header fields (op bits 2-3 = 0)."""
    record = uvarint(message_id) + uvarint(index) + uvarint(count) + uvarint(total) + uvarint(offset) + body
    return bytes([sender, len(record)]) + record


def split(message: bytes, chunk: int):
    """(index, count, offset, body) of each fragment, as Fragmenter lays them out."""
    count = max(1, (len(message) + chunk - 1) // chunk)
    return [(i, count, i * chunk, message[i * chunk:(i + 1) * chunk]) for i in range(count)]


def reassembler_corpus():
    folder = os.path.join(HERE, "corpus", "FuzzReassembler")
    for path in sorted(glob.glob(os.path.join(FRAGMENT_VECTORS, "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        frame = bytes.fromhex(vector["hex"])
        if len(frame) < 256:
            write(folder, "vector-" + vector["name"] + ".bin", bytes([4, len(frame)]) + frame)
    message = bytes(range(100))
    fragments = split(message, 40)
    in_order = b"".join(fragment_record(0, 7, i, n, len(message), o, b) for i, n, o, b in fragments)
    write(folder, "split-in-order.bin", in_order)
    reverse = b"".join(fragment_record(1, 8, i, n, len(message), o, b) for i, n, o, b in reversed(fragments))
    write(folder, "split-reversed.bin", reverse)
    # Two senders interleaved, a duplicate, a clock jump past the timeout (op 2 << 2 = 8).
    a = [fragment_record(0, 1, i, n, 100, o, b) for i, n, o, b in fragments]
    b = [fragment_record(2, 1, i, n, 100, o, bb) for i, n, o, bb in split(bytes(100), 25)]
    write(folder, "interleaved-duplicate-timeout.bin",
          a[0] + b[0] + a[0] + b[1] + bytes([8, 11]) + a[1] + a[2] + b[2] + b[3])
    # Budget pressure: large messages from three senders, then a sender removed (op 3 << 2).
    big = b"".join(fragment_record(s, s + 10, 0, 4, 4000, 0, bytes(200)) for s in range(3))
    write(folder, "budget-pressure-remove-sender.bin", big + bytes([12 | 1, 0]))


def receive_pipeline_corpus(valid):
    """FuzzReceivePipeline input: records `op, length, frame`; op % 3 is the sender."""
    folder = os.path.join(HERE, "corpus", "FuzzReceivePipeline")
    def record(sender, frame):
        return bytes([sender, len(frame)]) + frame
    for name, frame in sorted(valid.items()):
        if len(frame) < 256:
            write(folder, "frame-" + name + ".bin", record(0, frame))
    for directory in (FRAGMENT_VECTORS, COMPRESSION_VECTORS):
        for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
            with open(path) as f:
                vector = json.load(f)
            frame = bytes.fromhex(vector["hex"])
            if len(frame) < 256:
                write(folder, "vector-" + vector["name"] + ".bin", record(1, frame))
    # Every fragment vector from two senders, interleaved, then a clock jump (op 4) past the timeout.
    fragments = []
    for path in sorted(glob.glob(os.path.join(FRAGMENT_VECTORS, "*.json")))[:6]:
        with open(path) as f:
            frame = bytes.fromhex(json.load(f)["hex"])
        if len(frame) < 256:
            fragments.append(frame)
    mixed = b"".join(record(0, f) + record(2, f) for f in fragments)
    write(folder, "two-senders-then-timeout.bin", mixed + bytes([4, 11]) + mixed[:2 + len(fragments[0])])


def frame_file_corpus(valid):
    folder = os.path.join(HERE, "corpus", "FuzzFrameFile")
    names = ["data-upsert-stroke", "control-short", "fragment-first"]
    frames = b"".join(valid[name] for name in names)
    write(folder, "raw-three-frames.bin", frames)
    write(folder, "plain-hex.txt", (" ".join("%02x" % b for b in frames) + "\n").encode())
    write(folder, "xxd-p-with-comment.txt", b"# three frames\n" + frames.hex().encode() + b"\n")
    for tool, args in [("xxd", []), ("hexdump", ["-C"])]:
        dump = subprocess.run([tool] + args, input=frames, stdout=subprocess.PIPE, check=True).stdout
        write(folder, tool + "-three-frames.txt", dump)
    # Repeated lines: hexdump -C writes '*' for them.
    zeros = valid["data-upsert-stroke"] + bytes(80) + valid["control-short"]
    dump = subprocess.run(["hexdump", "-C"], input=zeros, stdout=subprocess.PIPE, check=True).stdout
    write(folder, "hexdump-repeat-star.txt", dump)
    write(folder, "bad-digit.txt", b"c7 01 0g\n")


def packet_data(direction, local, peer, room, frame):
    """A capture packet: the pseudo-header (Spec/CAPTURE.md, little-endian in every file)
    and the frame."""
    room = room.encode()
    return struct.pack("<BBHI", 1, direction, 41 + len(room), 0) + local + peer + bytes([len(room)]) + room + frame


def pcapng(records, header=True):
    """A pcapng file as CaptureWriter writes it (Spec/CAPTURE.md): records are
    (direction, local, peer, room, frame)."""
    def block(kind, body):
        return struct.pack("<II", kind, len(body) + 12) + body + struct.pack("<I", len(body) + 12)
    out = b""
    if header:
        out += block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) + struct.pack("<I", 0))
        out += block(1, struct.pack("<HHI", 147, 0, 0) + struct.pack("<HHB3x", 9, 1, 9) + struct.pack("<I", 0))
    for index, record in enumerate(records):
        data = packet_data(*record)
        padded = data + bytes(-len(data) % 4)
        stamp = 1764000000000000000 + index * 1000000
        out += block(6, struct.pack("<IIIII", 0, stamp >> 32, stamp & 0xFFFFFFFF, len(data), len(data)) + padded)
    return out


def capture_corpus(valid):
    """FuzzCaptureReader and FuzzValidate input: `selector u8, bytes`; selector bit 0
    puts the writer's header before the bytes."""
    ana = bytes(15) + b"\xa1"
    ben = bytes(15) + b"\xb2"
    names = ["data-upsert-stroke", "control-short", "fragment-first"]
    records = [(0, ben, ana, "canvas", valid[name]) for name in names] + [(1, ben, bytes(16), "canvas", valid["data-upsert-stroke"])]
    whole = pcapng(records)
    packets = pcapng(records, header=False)
    for target in ["FuzzCaptureReader", "FuzzValidate"]:
        folder = os.path.join(HERE, "corpus", target)
        write(folder, "whole-file.bin", b"\x00" + whole)
        write(folder, "packets-after-header.bin", b"\x01" + packets)
        write(folder, "truncated.bin", b"\x00" + whole[:-7])
        write(folder, "huge-block-length.bin", b"\x01" + struct.pack("<II", 6, 0x7FFFFFF0) + bytes(24))
        pcap = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 147)
        for record in records:
            data = packet_data(*record)
            pcap += struct.pack("<IIII", 1764000000, 0, len(data), len(data)) + data
        write(folder, "classic-pcap.bin", b"\x00" + pcap)
        write(folder, "raw-frames.bin", b"\x00" + b"".join(valid[name] for name in names))
    capture_structure_corpus(valid)


# pcapng block types and byte-order magic (Spec/CAPTURE.md; pcapng draft, section 4).
SHB, IDB, PB, SPB, NRB, ISB, EPB, DSB, CB, CB_NO_COPY = (0x0A0D0D0A, 1, 2, 3, 4, 5, 6, 0x0A, 0x00000BAD, 0x40000BAD)
BYTE_ORDER_MAGIC = 0x1A2B3C4D


def ng_block(kind, body, order="<", length=None, trailing=None):
    """One pcapng block: type, length, body, trailing length; `length` and `trailing`
    override the lengths written (for edge and mismatched lengths)."""
    length = len(body) + 12 if length is None else length
    return struct.pack(order + "II", kind, length) + body + struct.pack(order + "I", length if trailing is None else trailing)


def ng_options(options, order="<", end=True):
    """Options `(code, value)`, each padded to 4 bytes, then opt_endofopt when `end`."""
    out = b""
    for code, value in options:
        out += struct.pack(order + "HH", code, len(value)) + value + bytes(-len(value) % 4)
    return out + (struct.pack(order + "HH", 0, 0) if end else b"")


def ng_section(order="<", major=1, minor=0, section_length=-1, options=b""):
    return ng_block(SHB, struct.pack(order + "IHHq", BYTE_ORDER_MAGIC, major, minor, section_length) + options, order)


def ng_interface(order="<", link=147, snaplen=0, options=None, raw_options=None):
    """An interface description block; `options` a list for `ng_options`, or
    `raw_options` the bytes of the options area as they are."""
    area = raw_options if raw_options is not None else ng_options(options, order) if options else b""
    return ng_block(IDB, struct.pack(order + "HHI", link, 0, snaplen) + area, order)


def ng_enhanced(data, order="<", interface=0, stamp=1764000000000000000, captured=None, original=None, options=b""):
    captured = len(data) if captured is None else captured
    original = len(data) if original is None else original
    body = struct.pack(order + "IIIII", interface, stamp >> 32, stamp & 0xFFFFFFFF, captured, original)
    return ng_block(EPB, body + data + bytes(-len(data) % 4) + options, order)


def ng_simple(data, order="<", original=None):
    original = len(data) if original is None else original
    return ng_block(SPB, struct.pack(order + "I", original) + data + bytes(-len(data) % 4), order)


def ng_obsolete(data, order="<", interface=0, drops=0, stamp=1764000000000000000, captured=None, original=None, options=b""):
    """An obsolete Packet Block (type 2): a 16-bit interface id and a drops count."""
    captured = len(data) if captured is None else captured
    original = len(data) if original is None else original
    body = struct.pack(order + "HHIIII", interface, drops, stamp >> 32, stamp & 0xFFFFFFFF, captured, original)
    return ng_block(PB, body + data + bytes(-len(data) % 4) + options, order)


def pcap_file(records, magic=0xA1B2C3D4, order="<", link=147, snaplen=262144, version=(2, 4)):
    """A classic pcap file; `records` are (seconds, fraction, packet data, captured, original),
    captured and original None for the data's length. `magic` is written in `order`, so
    0xA1B2C3D4 written big-endian is the big-endian microsecond file."""
    out = struct.pack(order + "IHHiIII", magic, version[0], version[1], 0, 0, snaplen, link)
    for seconds, fraction, data, captured, original in records:
        captured = len(data) if captured is None else captured
        original = len(data) if original is None else original
        out += struct.pack(order + "IIII", seconds, fraction, captured, original) + data
    return out


def capture_structure_corpus(valid):
    """Structure-aware FuzzCaptureReader and FuzzValidate seeds: every block and field
    CapturePacketReader reads (sections in both byte orders, interfaces with each
    if_tsresol form and option edge, enhanced, simple and obsolete packet blocks, blocks
    it skips, edge and mismatched block lengths, timestamps at both ends of the range,
    other link types, captured above and below the original length) and classic pcap in
    its four magics. Packets carry a pseudo-header and a frame, so the reader reaches
    record parsing and the validator the frames. Selector bit 0 as in capture_corpus;
    bits 1-7 vary where the harness splits the input."""
    sys.path.insert(0, os.path.join(ROOT, "Spec", "vectors"))
    from wire import crc32c  # noqa: E402
    import generate_hello as gh  # noqa: E402

    ana = bytes(15) + b"\xa1"
    ben = bytes(15) + b"\xb2"
    stroke, control, fragment = valid["data-upsert-stroke"], valid["control-short"], valid["fragment-first"]
    playback = valid["data-playback-state"]

    def frame(kind_byte, header, body):
        """A frame: kind byte (flags included), the headers after it, the body."""
        inner = bytes([kind_byte]) + header + body
        covered = bytes([0xC7, 1]) + uvarint(len(inner) + 4) + inner
        return covered + struct.pack("<I", crc32c(covered))

    stroke_body = bytes.fromhex(DEMO_PAYLOADS["upsert-stroke"])
    # Data frames of UpsertStroke (type id 1) on reliable stream 3 (incarnation 1),
    # sequences 1, 2, 4 (a gap) and 2 again (a retransmission), and unreliable stream 2.
    delivered = [frame(0x40, uvarint(3) + uvarint(sequence) + uvarint(1), stroke_body) for sequence in (1, 2, 4, 2)]
    delivered.append(frame(0x40, uvarint(2) + uvarint(1) + uvarint(1), stroke_body))
    hello = frame(0x01, uvarint(16), gh.hello(spec=("draw.together", 1), decls=gh.DRAW_V1)[0])
    received = [(0, ben, ana, "canvas", f) for f in (stroke, control, fragment, playback)]
    sent = (1, ana, bytes(16), "", stroke)

    def packets(order="<", interface=0, stamp=1764000000000000000, records=received):
        return b"".join(ng_enhanced(packet_data(*r), order, interface, stamp + i) for i, r in enumerate(records))

    def section(order="<", link=147, resolution=9, records=received):
        options = [] if resolution is None else [(9, bytes([resolution]))]
        return ng_section(order) + ng_interface(order, link, options=options) + packets(order, records=records)

    seeds = []  # (name, selector bit 0, bytes)
    # Sections: both byte orders, several per file, options on the section header.
    seeds.append(("ng-little-endian.bin", 0, section("<")))
    seeds.append(("ng-big-endian.bin", 0, section(">")))
    seeds.append(("ng-two-sections.bin", 0, section("<") + section("<", records=[sent])))
    seeds.append(("ng-sections-little-then-big.bin", 0, section("<") + section(">", records=[sent])))
    seeds.append(("ng-sections-big-then-little.bin", 0, section(">") + section("<", records=[sent])))
    # A second section forgets the first's interfaces: its packet names interface 0 of none.
    seeds.append(("ng-second-section-without-interface.bin", 0, section("<") + ng_section("<") + packets("<")))
    shb_options = ng_options([(1, b"fuzz seed"), (2, b"x86_64"), (3, b"Linux"), (4, b"groupwire"), (2988, b"\x00\x00\x7e\x45ok")])
    seeds.append(("ng-section-options.bin", 0, ng_section("<", section_length=1234, options=shb_options)
                  + ng_interface("<", options=[(9, b"\x09")]) + packets("<")))
    seeds.append(("ng-section-options-big-endian.bin", 0, ng_section(">", options=ng_options([(1, b"big")], ">"))
                  + ng_interface(">", options=[(9, b"\x09")]) + packets(">")))
    seeds.append(("ng-section-major-2.bin", 0, ng_section("<", major=2) + ng_interface("<") + packets("<")))
    seeds.append(("ng-section-minor-9.bin", 0, ng_section("<", minor=9) + ng_interface("<") + packets("<")))
    bad_magic = bytearray(section("<"))
    bad_magic[8:12] = b"\x4d\x3c\x2b\x1b"
    seeds.append(("ng-section-bad-magic.bin", 0, bytes(bad_magic)))
    seeds.append(("ng-section-length-24.bin", 0, ng_block(SHB, struct.pack("<IHHI", BYTE_ORDER_MAGIC, 1, 0, 0))))
    seeds.append(("ng-section-length-12.bin", 0, ng_block(SHB, b"")[:8] + struct.pack("<I", BYTE_ORDER_MAGIC) + section("<")))
    seeds.append(("ng-packet-before-section.bin", 0, packets("<") + section("<")))
    seeds.append(("ng-interface-before-section.bin", 0, ng_interface("<") + section("<")))

    # Interfaces: if_tsresol decimal and binary (one interface each, a packet on each at
    # time 0, at the crash's value and at the top of the range; one interface each for the
    # common ones, with more times).
    stamps = [0, 1, 1764000000000000000, 0x8970_5F41_3999_9999, 0x7FFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF]
    def resolutions(values, order="<"):
        out = ng_section(order)
        for value in values:
            out += ng_interface(order, options=[(9, bytes([value]))])
        for interface in range(len(values)):
            for stamp in (0, 0x8970_5F41_3999_9999, 0xFFFF_FFFF_FFFF_FFFF):
                out += ng_enhanced(packet_data(*received[1]), order, interface, stamp)
        return out
    seeds.append(("ng-tsresol-decimal.bin", 0, resolutions([6, 9, 3, 0, 1, 10, 12, 19, 20, 64, 127])))
    seeds.append(("ng-tsresol-binary.bin", 0, resolutions([0x80, 0x81, 0x80 | 10, 0x80 | 29, 0x80 | 30, 0x80 | 32])))
    seeds.append(("ng-tsresol-binary-wide.bin", 0, resolutions([0x80 | 53, 0x80 | 62, 0x80 | 63, 0x80 | 64, 0x80 | 65, 0xFF])))
    seeds.append(("ng-tsresol-big-endian.bin", 0, resolutions([3, 0x80 | 29, 0x80 | 64], ">")))
    for value in (3, 6, 9, 0x80 | 29, 0x80 | 63, 0x80 | 64):
        seeds.append(("ng-tsresol-%02x.bin" % value, 0, ng_section("<") + ng_interface("<", options=[(9, bytes([value]))])
                      + b"".join(ng_enhanced(packet_data(*received[0]), "<", 0, stamp) for stamp in stamps)))
    seeds.append(("ng-no-tsresol.bin", 0, section("<", resolution=None)))  # microseconds
    # if_tsresol of size 0 (ignored), of size 3 (first byte used), given twice (the last wins).
    seeds.append(("ng-option-size-zero.bin", 0, ng_section("<") + ng_interface("<", options=[(9, b""), (2, b"")])
                  + packets("<")))
    seeds.append(("ng-tsresol-three-bytes.bin", 0, ng_section("<") + ng_interface("<", options=[(9, b"\x03\x09\x06")])
                  + packets("<")))
    seeds.append(("ng-tsresol-twice.bin", 0, ng_section("<") + ng_interface("<", options=[(9, b"\x03"), (9, b"\x89")])
                  + packets("<")))
    # Every if_* option the pcapng draft names, odd sizes, custom options, end of options.
    every = [(2, b"lo"), (3, b"loopback"), (4, b"\x7f\x00\x00\x01\xff\x00\x00\x00"), (5, bytes(17)),
             (6, b"\x00\x11\x22\x33\x44\x55"), (7, bytes(8)), (8, struct.pack("<Q", 10 ** 9)), (9, b"\x06"),
             (10, b"\x00\x00\x00\x00"), (11, b"\x00tcp port 8787"), (12, b"Linux 6.1"), (13, b"\x04"),
             (14, struct.pack("<q", -3600)), (15, b"virtual"), (16, struct.pack("<Q", 1)), (17, struct.pack("<Q", 1)),
             (1, b"comment"), (2988, b"\x00\x00\x7e\x45pen"), (19372, b"\x00\x00\x7e\x45"), (0x7FFF, b"\xff")]
    seeds.append(("ng-interface-every-option.bin", 0, ng_section("<") + ng_interface("<", options=every) + packets("<")))
    seeds.append(("ng-interface-every-option-big-endian.bin", 0, ng_section(">") + ng_interface(">", options=every)
                  + packets(">")))
    # Option areas that do not end cleanly: an option running past its block (an error),
    # end of options followed by junk (ignored), a last option without end of options,
    # a last option header of size 0, an option filling the block exactly.
    seeds.append(("ng-option-past-block.bin", 0, ng_section("<")
                  + ng_interface("<", raw_options=struct.pack("<HH", 9, 8) + b"\x09\x00\x00\x00") + packets("<")))
    seeds.append(("ng-option-past-block-big-endian.bin", 0, ng_section(">")
                  + ng_interface(">", raw_options=struct.pack(">HH", 2, 0xFFFF) + b"eth0") + packets(">")))
    seeds.append(("ng-option-size-past-padding.bin", 0, ng_section("<")
                  + ng_interface("<", raw_options=struct.pack("<HH", 9, 5) + b"\x09\x00\x00\x00") + packets("<")))
    seeds.append(("ng-end-of-options-then-junk.bin", 0, ng_section("<")
                  + ng_interface("<", raw_options=struct.pack("<HHHH", 0, 0, 9, 0xFFFF) + b"\x03\x00\x00\x00") + packets("<")))
    seeds.append(("ng-options-without-end.bin", 0, ng_section("<")
                  + ng_interface("<", raw_options=ng_options([(9, b"\x03"), (2, b"abc")], end=False)) + packets("<")))
    seeds.append(("ng-option-last-header-size-zero.bin", 0, ng_section("<")
                  + ng_interface("<", raw_options=struct.pack("<HHB3xHH", 9, 1, 3, 2, 0)) + packets("<")))
    seeds.append(("ng-option-fills-block.bin", 0, ng_section("<")
                  + ng_interface("<", raw_options=struct.pack("<HH", 9, 4) + b"\x80\x00\x00\x00") + packets("<")))
    seeds.append(("ng-interface-length-20.bin", 0, ng_section("<") + ng_interface("<") + packets("<")))
    seeds.append(("ng-interface-length-16.bin", 0, ng_section("<") + ng_block(IDB, struct.pack("<HH", 147, 0)) + packets("<")))
    # A snapshot length below the packets' (not enforced by the reader).
    seeds.append(("ng-interface-snaplen-64.bin", 0, ng_section("<") + ng_interface("<", snaplen=64) + packets("<")))

    # Enhanced packet blocks: captured below and above the original length, past the
    # block, nothing captured, options after the data, interfaces past the described ones.
    data = packet_data(*received[0])
    seeds.append(("ng-captured-less-than-original.bin", 1, ng_enhanced(data, original=len(data) + 100)
                  + ng_enhanced(data[:50], original=len(data)) + ng_enhanced(data)))
    seeds.append(("ng-captured-greater-than-original.bin", 1, ng_enhanced(data, original=10) + ng_enhanced(data, original=0)))
    seeds.append(("ng-captured-past-block.bin", 1, ng_enhanced(data) + ng_enhanced(data, captured=len(data) + 4)))
    seeds.append(("ng-captured-max.bin", 1, ng_enhanced(data, captured=0xFFFFFFFF)))
    seeds.append(("ng-captured-zero.bin", 1, ng_enhanced(b"") + ng_enhanced(data, captured=0) + ng_enhanced(data)))
    seeds.append(("ng-original-max.bin", 1, ng_enhanced(data, original=0xFFFFFFFF)))
    epb_options = ng_options([(2, struct.pack("<I", 1)), (3, b"\x02" + bytes(4)), (4, struct.pack("<Q", 7)), (1, b"note")])
    seeds.append(("ng-packet-options.bin", 1, ng_enhanced(data, options=epb_options) + ng_enhanced(data)))
    seeds.append(("ng-interface-past-described.bin", 1, ng_enhanced(data) + ng_enhanced(data, interface=1)))
    seeds.append(("ng-interface-max.bin", 1, ng_enhanced(data, interface=0xFFFFFFFF)))
    seeds.append(("ng-interface-second.bin", 0, ng_section("<") + ng_interface("<") + ng_interface("<", options=[(9, b"\x06")])
                  + ng_enhanced(data, interface=1) + ng_enhanced(data, interface=0) + ng_enhanced(data, interface=2)))
    seeds.append(("ng-timestamps.bin", 1, b"".join(ng_enhanced(data, stamp=stamp) for stamp in stamps)))
    seeds.append(("ng-timestamps-microseconds.bin", 0, ng_section("<") + ng_interface("<")
                  + b"".join(ng_enhanced(data, stamp=stamp) for stamp in stamps)))
    # Pseudo-headers that are not records (each reported; the packets after them are read).
    bad = [b"", data[:40], b"\x02" + data[1:], data[:1] + b"\x02" + data[2:], data[:2] + b"\x28\x00" + data[4:],
           data[:2] + b"\xff\xff" + data[4:], data[:40] + b"\x03\xff\xfe\xfd" + data[44:],
           data[:2] + b"\x33\x00" + data[4:41] + b"canvas" + bytes(4) + stroke,
           struct.pack("<BBHI", 1, 0, 41 + 255, 7) + ana + ben + b"\xff" + b"r" * 255 + stroke]
    seeds.append(("ng-pseudo-headers.bin", 1, b"".join(ng_enhanced(packet) for packet in bad) + ng_enhanced(data)))

    # Simple packet blocks (interface 0, no timestamp): length 16 exactly, the 12-byte block
    # of the crash, records, original above and below what the block holds.
    seeds.append(("ng-simple-length-16.bin", 1, ng_simple(b"") + ng_simple(data)))
    seeds.append(("ng-simple-length-16-original-max.bin", 1, ng_simple(b"", original=0xFFFFFFFF) + ng_simple(data)))
    seeds.append(("ng-simple-length-12.bin", 1, ng_block(SPB, b"") + ng_simple(data)))
    seeds.append(("ng-simple-records.bin", 1, b"".join(ng_simple(packet_data(*r)) for r in received + [sent])))
    seeds.append(("ng-simple-original-above.bin", 1, ng_simple(data, original=len(data) + 3) + ng_simple(data, original=0xFFFFFFFF)))
    seeds.append(("ng-simple-original-below.bin", 1, ng_simple(data, original=45) + ng_simple(data, original=0)))
    seeds.append(("ng-simple-big-endian.bin", 0, ng_section(">") + ng_interface(">", options=[(9, b"\x09")])
                  + ng_simple(data, ">") + ng_simple(data, ">", original=20)))
    seeds.append(("ng-simple-before-interface.bin", 0, ng_section("<") + ng_simple(data) + ng_interface("<")))
    seeds.append(("ng-simple-ethernet.bin", 0, ng_section("<") + ng_interface("<", link=1) + ng_simple(data)))

    # Obsolete packet blocks (type 2): 16-bit interface id, drops count.
    seeds.append(("ng-obsolete-packet-block.bin", 1, b"".join(ng_obsolete(packet_data(*r), drops=i) for i, r in enumerate(received))))
    seeds.append(("ng-obsolete-packet-block-big-endian.bin", 0, ng_section(">") + ng_interface(">", options=[(9, b"\x09")])
                  + ng_obsolete(data, ">", drops=0xFFFF, stamp=0xFFFFFFFFFFFFFFFF) + ng_obsolete(data, ">", interface=0xFFFF)))
    seeds.append(("ng-obsolete-cut.bin", 1, ng_obsolete(data, original=len(data) * 2) + ng_obsolete(data, captured=len(data) + 8)))
    seeds.append(("ng-obsolete-length-28.bin", 1, ng_block(PB, bytes(16)) + ng_obsolete(data)))

    # Blocks the reader skips: name resolution, statistics, decryption secrets, custom
    # (copiable and not), systemd journal, unknown and reserved types, around packets.
    nrb = ng_block(NRB, struct.pack("<HH", 1, 8) + b"\x7f\x00\x00\x01lo\x00\x00" + struct.pack("<HH", 0, 0))
    isb = ng_block(ISB, struct.pack("<III", 0, 0, 0) + ng_options([(2, bytes(8)), (4, struct.pack("<Q", 3))]))
    dsb = ng_block(DSB, struct.pack("<II", 0x544C534B, 4) + b"key\x00")
    custom = ng_block(CB, struct.pack("<I", 32473) + b"hello\x00\x00\x00") + ng_block(CB_NO_COPY, struct.pack("<I", 32473) + b"world\x00\x00\x00")
    unknown = ng_block(9, b"journal\x00") + ng_block(0x12345678, b"") + ng_block(0x80000001, b"\xff" * 8) + ng_block(0x0A0D0A00, b"")
    seeds.append(("ng-skipped-blocks.bin", 1, nrb + ng_enhanced(data) + isb + dsb + custom + unknown + ng_enhanced(data)))
    seeds.append(("ng-skipped-blocks-first.bin", 0, ng_section("<") + custom + nrb + ng_interface("<") + unknown + packets("<")))
    seeds.append(("ng-skipped-blocks-big-endian.bin", 0, ng_section(">") + ng_block(CB, struct.pack(">I", 32473) + b"big!", ">")
                  + ng_interface(">") + ng_block(0x12345678, b"abcd", ">") + packets(">")))

    # Block lengths at the edges: below 12, not a multiple of 4, just long enough, just
    # too short for the type, past the 16 MiB the reader accepts, at 2^31 and 2^32-4,
    # and trailing lengths that differ from the leading one.
    for length in (0, 4, 12, 13, 16, 28, 0x7FFFFFF0, 0x80000000, 0xFFFFFFFC, 0xFFFFFFFF, 16 << 20, (16 << 20) + 4):
        for kind, name in ((EPB, "enhanced"), (0x12345678, "unknown")):
            body = ng_enhanced(data)[8:-4] if kind == EPB else bytes(8)
            block = struct.pack("<II", kind, length) + body[:max(0, min(len(body), length - 12))]
            if 12 <= length <= len(body) + 12:
                block += struct.pack("<I", length)
            seeds.append(("ng-length-%s-%d.bin" % (name, length), 1, block + ng_enhanced(data)))
    seeds.append(("ng-length-section-0.bin", 0, struct.pack("<II", SHB, 0) + struct.pack("<I", BYTE_ORDER_MAGIC)))
    seeds.append(("ng-length-section-2-31.bin", 0, struct.pack("<II", SHB, 0x80000000) + struct.pack("<IHHq", BYTE_ORDER_MAGIC, 1, 0, -1)))
    seeds.append(("ng-length-section-2-32-4-big-endian.bin", 0, struct.pack(">II", SHB, 0xFFFFFFFC) + struct.pack(">IHHq", BYTE_ORDER_MAGIC, 1, 0, -1)))
    seeds.append(("ng-trailing-length-mismatch.bin", 1, ng_enhanced(data) + ng_block(EPB, ng_enhanced(data)[8:-4], trailing=len(data) + 44)))
    seeds.append(("ng-trailing-length-zero.bin", 1, ng_block(0x12345678, bytes(4), trailing=0) + ng_enhanced(data)))
    seeds.append(("ng-trailing-length-big-endian.bin", 0, ng_section(">") + ng_interface(">")
                  + ng_block(EPB, ng_enhanced(data, ">")[8:-4], ">", trailing=0xFFFFFFFC)))
    seeds.append(("ng-section-trailing-mismatch.bin", 0, ng_block(SHB, struct.pack("<IHHq", BYTE_ORDER_MAGIC, 1, 0, -1), trailing=32)
                  + ng_interface("<") + packets("<")))
    whole = section("<")
    for cut in (3, 11, 12, 27, 28, 40, len(whole) - 4, len(whole) - 1):
        seeds.append(("ng-cut-at-%d.bin" % cut, 0, whole[:cut]))

    # Link types other than 147, on the packet's interface or another.
    for link in (0, 1, 101, 113, 148, 276, 0xFFFF):
        seeds.append(("ng-link-type-%d.bin" % link, 0, section("<", link=link)))
    seeds.append(("ng-link-type-other-interface.bin", 0, ng_section("<") + ng_interface("<", link=1) + ng_interface("<")
                  + ng_enhanced(data, interface=1) + ng_enhanced(data, interface=0)))

    # Frames for the validator: hellos, then delivery frames with a gap, a retransmission
    # and an unreliable stream, from ben to ana and back.
    talk = [(0, ben, ana, "canvas", hello), (1, ben, ana, "canvas", hello)] + [(0, ben, ana, "canvas", f) for f in delivered]
    talk += [(1, ben, ana, "canvas", f) for f in delivered[:2]]
    seeds.append(("ng-hellos-and-delivery.bin", 0, section("<", records=talk)))
    seeds.append(("ng-hellos-and-delivery-simple-blocks.bin", 1, b"".join(ng_simple(packet_data(*r)) for r in talk)))

    # Classic pcap: microsecond and nanosecond magics in both byte orders.
    def pcap_records(fraction=0):
        return [(1764000000 + i, fraction, packet_data(*r), None, None) for i, r in enumerate(received + [sent])]
    for magic, name in ((0xA1B2C3D4, "usec"), (0xA1B23C4D, "nsec")):
        for order, end in (("<", "le"), (">", "be")):
            seeds.append(("pcap-%s-%s.bin" % (name, end), 0, pcap_file(pcap_records(999999), magic, order)))
            seeds.append(("pcap-%s-%s-timestamps.bin" % (name, end), 0, pcap_file(
                [(0, 0, data, None, None), (0xFFFFFFFF, 0xFFFFFFFF, data, None, None), (0xFFFFFFFF, 999999999, data, None, None)],
                magic, order)))
            seeds.append(("pcap-%s-%s-ethernet.bin" % (name, end), 0, pcap_file(pcap_records(), magic, order, link=1)))
    for snaplen in (0, 1, 41, 0xFFFFFFFF):
        seeds.append(("pcap-snaplen-%d.bin" % snaplen, 0, pcap_file(pcap_records(), snaplen=snaplen)))
    for link in (0, 101, 113, 148, 276, 0x10093, 0x10000093, 0xFFFFFFFF):
        seeds.append(("pcap-link-type-%d.bin" % link, 0, pcap_file(pcap_records(), link=link)))
    seeds.append(("pcap-version-9-9.bin", 0, pcap_file(pcap_records(), version=(9, 9))))
    seeds.append(("pcap-caplen-edges.bin", 0, pcap_file(
        [(1, 0, data, None, len(data) + 100), (2, 0, data, None, 0), (3, 0, b"", None, 0), (4, 0, data[:20], None, len(data)),
         (5, 0, data, None, 0xFFFFFFFF)])))
    for caplen in ((16 << 20), (16 << 20) + 1, 0x80000000, 0xFFFFFFFF):
        seeds.append(("pcap-caplen-%d.bin" % caplen, 0, pcap_file(pcap_records()[:1] + [(9, 0, data, caplen, caplen)])))
    seeds.append(("pcap-caplen-past-end-be.bin", 0, pcap_file([(9, 0, data, len(data) + 1, len(data))], order=">")))
    full = pcap_file(pcap_records())
    for cut in (3, 4, 20, 23, 24, 30, 39, 40, len(full) - 1):
        seeds.append(("pcap-cut-at-%d.bin" % cut, 0, full[:cut]))
    seeds.append(("pcap-hellos-and-delivery.bin", 0, pcap_file(
        [(1764000000, i, packet_data(*r), None, None) for i, r in enumerate(talk)], 0xA1B23C4D)))

    splits = [0, 64, 32, 96, 127, 16, 112, 5]
    for target in ["FuzzCaptureReader", "FuzzValidate"]:
        folder = os.path.join(HERE, "corpus", target)
        for index, (name, header, content) in enumerate(seeds):
            assert len(content) < 4000, name
            write(folder, name, bytes([header | splits[index % len(splits)] << 1]) + content)


def session_control_corpus():
    """FuzzSessionControl input: records `length, selector, body`; selector & 7 is the
    control id, (selector >> 3) & 3 the sender (participant 1-4)."""
    folder = os.path.join(HERE, "corpus", "FuzzSessionControl")
    records = []
    for path in sorted(glob.glob(os.path.join(VECTORS, "..", "session", "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        body = bytes.fromhex(vector["hex"])
        if len(body) < 256:
            record = bytes([len(body), vector["controlID"]]) + body
            records.append(record)
            write(folder, "vector-" + vector["name"] + ".bin", record)
    # A whole exchange: activation, joins from three senders, a replacement, an end.
    write(folder, "exchange.bin", records[0] + bytes([2, 2 | 8, 0x08, 0x07]) + bytes([2, 2 | 16, 0x08, 0x07])
          + records[1] + records[4])
    # Joins for many sessions that are never announced.
    write(folder, "held-joins.bin", b"".join(bytes([2, 2 | (i % 4) << 3, 0x08, i + 1]) for i in range(40)))


def delivery_corpus():
    """FuzzDelivery input: records `op, a, b, n, bytes(n)` (see DeliveryFuzzing in
    Sources/GroupWireSession/Delivery/DeliveryFuzzing.swift). Peer 0 is op >> 4 == 0."""
    folder = os.path.join(HERE, "corpus", "FuzzDelivery")

    def record(op, a=0, b=0, body=b""):
        return bytes([op, a, b, len(body)]) + body

    def reliable(sequence, peer=0, incarnation=1, body=b"\x08\x01"):
        return record(peer << 4 | 0, 4 | incarnation, sequence - 1, body)

    def unreliable(sequence, peer=0, incarnation=1, body=b"\x08\x01"):
        return record(peer << 4 | 0, incarnation, sequence - 1, body)

    tick = record(4, 9, 0)  # 10 ms
    write(folder, "in-order.bin", b"".join(reliable(n) for n in range(1, 20)) + tick)
    write(folder, "duplicates.bin", reliable(1) + reliable(1) + reliable(2) + reliable(2) + unreliable(5) + unreliable(5))
    write(folder, "reordered.bin", reliable(3) + reliable(2) + reliable(5) + reliable(1) + reliable(4) + tick)
    write(folder, "beyond-window.bin", reliable(40) + reliable(18) + reliable(17) + reliable(1))
    write(folder, "new-incarnation.bin", reliable(1) + reliable(3) + reliable(1, incarnation=2) + reliable(2) + reliable(2, incarnation=2))
    write(folder, "left-and-back.bin", record(6) + reliable(1) + record(7) + record(6) + reliable(2) + reliable(1, incarnation=2))
    write(folder, "unreliable-window.bin", unreliable(250) + record(0, 8, 0) + unreliable(3) + unreliable(250))
    sends = record(6) + b"".join(record(5, 0, 0, bytes(200)) for _ in range(30))
    write(folder, "full-buffer.bin", sends + record(3, 0, 5) + record(3, 0, 5) + record(3, 0, 5) + record(5, 0, 0, bytes(200)))
    write(folder, "ack-of-unsent.bin", record(6) + record(5, 0, 0, b"\x01") + record(3, 0, 200) + record(3, 200, 1) + record(3, 0, 1))
    write(folder, "retransmit-then-remove.bin", record(6) + record(5, 0, 0, b"\x01") + b"".join(record(4, 255, 19) for _ in range(2)))
    write(folder, "corrupted.bin", record(1, 4, 5) + record(2, 0, 0, b"\xc7\x01\x05\x40") + record(8, 0, 0, b"\x01"))
    write(folder, "three-peers.bin", reliable(1, peer=0) + reliable(1, peer=1) + reliable(2, peer=2) + reliable(1, peer=2) + tick)
    # The sender's loss detection: acknowledgements holding later frames (bitmap), the time
    # threshold and probes on ticks, a duplicate report of a frame declared lost, a window
    # and pacer that hold frames back.
    small = b"".join(record(5, 0, 0, bytes(20)) for _ in range(12))
    write(folder, "loss-by-threshold.bin", record(6) + small + record(3, 0, 1, b"\x1e") + record(4, 1, 0) + record(3, 0, 1, b"\x7e")
          + record(3, 64, 1) + record(3, 0, 12))
    write(folder, "probes-and-persistent-congestion.bin", record(6) + small + b"".join(record(4, 99, 2) for _ in range(5))
          + record(3, 0, 3) + record(4, 255, 0))
    big = b"".join(record(5, 0, 0, bytes(250)) for _ in range(15))
    write(folder, "window-and-pacer.bin", record(6) + big + record(4, 0, 0) + record(3, 0, 4, b"\x05") + record(4, 9, 0)
          + record(3, 64, 6, b"\x01") + record(3, 0, 15) + record(4, 9, 0))
    # A receiver's acknowledgement by bytes (2,400, before the 16th frame): in order, then
    # held behind a gap and let out by its fill. A pacer in debt with nothing in flight:
    # frames of 250 bytes sent and acknowledged at one instant, past the 12,000-byte burst,
    # each acknowledgement covering all that went.
    large = bytes(250)
    write(folder, "acknowledged-by-bytes.bin", b"".join(reliable(n, body=large) for n in range(1, 13))
          + b"".join(reliable(n, body=large) for n in range(14, 26)) + reliable(13, body=large) + tick)
    fifteen = b"".join(record(5, 0, 0, large) for _ in range(15))
    write(folder, "pacer-in-debt.bin", record(6) + b"".join(fifteen + record(3, 0, 15 * (round + 1)) for round in range(3))
          + fifteen + b"".join(record(3, 0, through) for through in range(46, 50)))
    # A doubled repair: frame 1 declared lost twice (2 ... 5, then 2 ... 9 held, each past
    # the packet threshold and sent long enough after its copy), the same copy again at the
    # next tick, the receiver's report of it twice, then everything acknowledged.
    one = record(5, 0, 0, b"\x01")
    write(folder, "doubled-repair.bin", record(6) + one + record(4, 0, 19) + one * 4 + record(4, 0, 9)
          + record(3, 0, 0, b"\x0f") + record(4, 0, 29) + one * 4 + record(4, 0, 9) + record(3, 0, 0, b"\xff")
          + record(4, 0, 9) + record(3, 64, 0, b"\xff") + record(3, 0, 9))


def hello_corpus():
    """FuzzHello input: a hello body (Spec/vectors/hello, valid and invalid)."""
    folder = os.path.join(HERE, "corpus", "FuzzHello")
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    for path in sorted(glob.glob(os.path.join(VECTORS, "..", "hello", "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        write(folder, "vector-" + vector["name"] + ".bin", bytes.fromhex(vector["hex"]))


def agreement_corpus():
    """FuzzAgreement input: u16le length + hello A, u16le length + hello B, engine steps.
    The hellos: DrawTogether v1 as in the hello vectors, versions of it with a field added
    (v2-like) and with a field's type changed (breaking), peers without zstd or spec, and
    malformed bodies from the hello vectors."""
    sys.path.insert(0, os.path.join(ROOT, "Spec", "vectors"))
    import generate_hello as gh  # noqa: E402
    folder = os.path.join(HERE, "corpus", "FuzzAgreement")
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    digest = bytes(range(8))
    v1 = gh.DRAW_V1
    width = (4, "width", "Float32", False, 3.0)
    v2 = [dict(d, fields=d["fields"] + [width]) if d["name"] in ("Stroke", "UpsertStroke") else d for d in v1]
    v2 = [dict(d, cases=d["cases"] + [(5, "purple")]) if d["name"] == "StrokeColor" else d for d in v2]
    breaking = [dict(d, fields=[(2, "color", "String", False, None) if f[0] == 2 else f for f in d["fields"]])
                if d["name"] == "UpsertStroke" else d for d in v1]
    hellos = {
        "bare": gh.hello()[0],
        "v1": gh.hello(spec=("draw.together", 1), codecs=[(1, [(4242, digest)])], decls=v1)[0],
        "v1-plain": gh.hello(spec=("draw.together", 1), decls=v1)[0],
        "v2": gh.hello(versions=(1, 2), spec=("draw.together", 2), codecs=[(1, [(7, digest), (4242, digest)])],
                       max_frame=1200, decls=v2)[0],
        "breaking": gh.hello(spec=("draw.together", 4), codecs=[(1, [(4242, bytes(8))])], decls=breaking)[0],
        "other": gh.hello(versions=(2, 3), spec=("other.app", 1), decls=v1)[0],
    }
    for path in sorted(glob.glob(os.path.join(VECTORS, "..", "hello", "*.json")))[4:8]:
        with open(path) as f:
            vector = json.load(f)
        hellos["bad-" + vector["name"]] = bytes.fromhex(vector["hex"])
    steps = [bytes([0, 1]), bytes([0, 2 | (10 << 2), 2 | (10 << 2), 1, 1, 3, 1]), bytes([0] + [2 | (63 << 2)] * 3 + [1])]
    names = sorted(hellos)
    count = 0
    for a in names:
        for b in names:
            body = struct.pack("<H", len(hellos[a])) + hellos[a] + struct.pack("<H", len(hellos[b])) + hellos[b]
            write(folder, "%s--%s.bin" % (a, b), body + steps[count % len(steps)])
            count += 1


def relay_corpus():
    """FuzzRelayMessage input: a relay message or a cluster message; FuzzAccessToken input: a
    selector byte (bit 0: empty secret; the rest: leeway) and a token. From Spec/vectors/relay
    and Spec/vectors/cluster."""
    messages = os.path.join(HERE, "corpus", "FuzzRelayMessage")
    tokens = os.path.join(HERE, "corpus", "FuzzAccessToken")
    for folder in (messages, tokens):
        if os.path.isdir(folder):
            shutil.rmtree(folder)
    # Messages between cluster nodes go through the same target (RELAY.md, "Clustering").
    for path in sorted(glob.glob(os.path.join(VECTORS, "..", "cluster", "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        if len(vector["hex"]) <= 8192:
            write(messages, "cluster-" + vector["name"] + ".bin", bytes.fromhex(vector["hex"]))
    for path in sorted(glob.glob(os.path.join(VECTORS, "..", "relay", "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        if vector["kind"] == "message" and len(vector["hex"]) <= 8192:
            write(messages, vector["name"] + ".bin", bytes.fromhex(vector["hex"]))
        elif vector["kind"] == "token" and bytes.fromhex(vector["secret"]) == b"correct horse battery staple":
            write(tokens, vector["name"] + ".bin", bytes([vector["leeway"] << 1]) + vector["token"].encode())


def playback_corpus():
    """FuzzPlayback input: a selector byte (0-4: a playback message's payload, in
    Spec/Playback.gwspec's order; 5: a run of clock exchanges, t1..t4 as little-endian Int64
    nanoseconds) and the bytes. Every message with every field set, with defaults left out,
    and the message vectors of Spec/vectors/playback when they are there."""
    folder = os.path.join(HERE, "corpus", "FuzzPlayback")
    if os.path.isdir(folder):
        shutil.rmtree(folder)

    def key(number, wire):
        return uvarint(number << 3 | wire)

    def varint_field(number, value):
        return key(number, 0) + uvarint(value)

    def zigzag_field(number, value):
        return varint_field(number, (value << 1) ^ (value >> 63) if value >= 0 else ((-value) << 1) - 1)

    def double_field(number, value):
        return key(number, 1) + struct.pack("<d", value)

    def bytes_field(number, value):
        return key(number, 2) + uvarint(len(value)) + value

    author = bytes(range(16))
    timeline = (bytes_field(1, "film-1".encode()) + double_field(2, 1.0) + double_field(3, 600.25)
                + zigzag_field(4, 123456789012) + varint_field(5, 7) + bytes_field(6, author) + varint_field(7, 3))
    write(folder, "timeline-seek.bin", bytes([0]) + timeline)
    write(folder, "timeline-paused-no-item.bin", bytes([0]) + double_field(3, 12.5) + zigzag_field(4, -5) + bytes_field(6, author) + varint_field(7, 2))
    write(folder, "timeline-rate-too-high.bin", bytes([0]) + double_field(2, 17.0) + bytes_field(6, author))
    write(folder, "timeline-nan.bin", bytes([0]) + double_field(3, float("nan")))
    write(folder, "timeline-unknown-change.bin", bytes([0]) + varint_field(7, 9))
    write(folder, "timeline-truncated.bin", bytes([0]) + timeline[:-3])
    write(folder, "suspension-begin.bin", bytes([1]) + bytes_field(1, b"stallRecovery") + varint_field(2, 1) + varint_field(3, 1))
    write(folder, "suspension-end.bin", bytes([1]) + varint_field(3, 2))
    write(folder, "clock-request.bin", bytes([2]) + varint_field(1, 1) + zigzag_field(2, 987654321))
    write(folder, "clock-reply.bin", bytes([3]) + varint_field(1, 1) + zigzag_field(2, 987654321)
          + zigzag_field(3, 1500000000) + zigzag_field(4, 1500000100))
    write(folder, "state-request.bin", bytes([4]))
    write(folder, "state-request-unknown-field.bin", bytes([4]) + varint_field(9, 1))

    def exchange(t1, t2, t3, t4):
        return struct.pack("<qqqq", t1, t2, t3, t4)

    ordered = b"".join(exchange(i * 5_000_000_000, i * 5_000_000_000 + 500_020_000, i * 5_000_000_000 + 500_020_000,
                                i * 5_000_000_000 + 40_000_000) for i in range(30))
    write(folder, "exchanges-drifting.bin", bytes([5]) + ordered)
    write(folder, "exchanges-out-of-order.bin", bytes([5]) + exchange(10, 5, 4, 9) + exchange(0, 0, 10, 5))
    write(folder, "exchanges-extremes.bin", bytes([5]) + exchange(-2**63, 2**63 - 1, 2**63 - 1, 2**63 - 1)
          + exchange(0, -2**63, -2**63, 0))
    names = {"PlaybackTimelineMessage": 0, "PlaybackSuspensionMessage": 1, "PlaybackClockRequest": 2,
             "PlaybackClockReply": 3, "PlaybackStateRequest": 4}
    for path in sorted(glob.glob(os.path.join(VECTORS, "..", "playback", "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        if vector.get("kind") == "message" and vector.get("type") in names:
            write(folder, "vector-" + vector["name"] + ".bin", bytes([names[vector["type"]]]) + bytes.fromhex(vector["hex"]))


def nats_corpus():
    """FuzzNATSParser input: what a NATS server sends a client, as a stream: every operation
    (INFO with cluster addresses, MSG with and without a reply subject, HMSG with fields and
    a status line, PING, PONG, +OK, -ERR), lowercase names, and each error the parser has:
    an unknown operation, a line over its limit, a bare LF, wrong argument counts, a
    subscription id or size that is not a number, a size over the limit, a payload without
    its CRLF, INFO that is not JSON or lacks server_id, header blocks without the version
    line, without ':' or with a status that is not three digits."""
    folder = os.path.join(HERE, "corpus", "FuzzNATSParser")
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    info = (b'INFO {"server_id":"NB2","server_name":"n1","version":"2.9.10","proto":1,"headers":true,'
            b'"max_payload":1048576,"client_id":7,"connect_urls":["127.0.0.1:4222","[::1]:4223"],"ldm":false}\r\n')
    hmsg_block = b"NATS/1.0\r\nRoom: kitchen\r\nSource: 0a0b\r\n\r\n"
    status_block = b"NATS/1.0 503 No Responders\r\n\r\n"
    seeds = {
        "info.bin": info,
        "greeting.bin": info + b"PONG\r\n+OK\r\nPING\r\n",
        "msg.bin": b"MSG rooms.kitchen 1 5\r\nhello\r\n",
        "msg-reply.bin": b"MSG rooms.kitchen 12 _INBOX.a 3\r\nabc\r\nMSG a 1 0\r\n\r\n",
        "hmsg.bin": b"HMSG rooms.kitchen 2 %d %d\r\n%spayload\r\n" % (len(hmsg_block), len(hmsg_block) + 7, hmsg_block),
        "hmsg-status.bin": b"HMSG _INBOX.x 3 %d %d\r\n%s\r\n" % (len(status_block), len(status_block), status_block),
        "lowercase.bin": b"ping\r\npong\r\nmsg a 1 1\r\nx\r\n+ok\r\n",
        "err.bin": b"-ERR 'Authorization Violation'\r\n",
        "tabs.bin": b"MSG\ta\t1\t2\r\nab\r\n",
        "unknown-operation.bin": b"HELLO there\r\n",
        "line-too-long.bin": b"MSG " + b"a" * 600 + b" 1 1\r\nx\r\n",
        "bare-lf.bin": b"PING\n",
        "msg-arguments.bin": b"MSG a 1 2 3 4\r\n",
        "msg-sid.bin": b"MSG a x1 1\r\nx\r\n",
        "msg-size.bin": b"MSG a 1 -1\r\n",
        "msg-too-large.bin": b"MSG a 1 99999\r\n",
        "msg-no-terminator.bin": b"MSG a 1 2\r\nabcd\r\n",
        "hmsg-header-over-total.bin": b"HMSG a 1 20 10\r\n",
        "hmsg-no-version.bin": b"HMSG a 1 8 8\r\nA: b\r\n\r\n\r\n",
        "hmsg-no-colon.bin": b"HMSG a 1 16 16\r\nNATS/1.0\r\nAb\r\n\r\n\r\n",
        "hmsg-bad-status.bin": b"HMSG a 1 15 15\r\nNATS/1.0 5x\r\n\r\n\r\n",
        "info-not-json.bin": b"INFO {server_id}\r\n",
        "info-no-id.bin": b'INFO {"max_payload":1}\r\n',
        "info-bad-type.bin": b'INFO {"server_id":"a","max_payload":"big"}\r\n',
        "ping-arguments.bin": b"PING now\r\n",
    }
    for name, data in seeds.items():
        write(folder, name, data)


def spec_corpus():
    folder = os.path.join(HERE, "corpus", "FuzzSpecCompiler")
    sources = sorted(glob.glob(os.path.join(ROOT, "Spec", "Examples", "**", "*.gwspec"), recursive=True))
    sources += sorted(glob.glob(os.path.join(ROOT, "Tests", "Specs", "*.gwspec")))
    os.makedirs(folder, exist_ok=True)
    for path in sources:
        shutil.copyfile(path, os.path.join(folder, os.path.basename(path)))


if __name__ == "__main__":
    main()
