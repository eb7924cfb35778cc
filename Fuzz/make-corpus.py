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
FuzzDynamicCodec from the example messages. Each target's input format is
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
    generated_types_corpus()
    dynamic_codec_corpus()


def dynamic_codec_corpus():
    """FuzzDynamicCodec input: selector (bit 0: keep unknown fields), PlaybackState payload."""
    folder = os.path.join(HERE, "corpus", "FuzzDynamicCodec")
    payload = bytes.fromhex(DEMO_PAYLOADS["playback-state"])
    write(folder, "demo-playback-state.bin", b"\x00" + payload)
    write(folder, "demo-playback-state-keep-unknown.bin", b"\x01" + payload)
    # An unknown field 20 (LEN) and a map entry (field 14: {1: "k", 2: "v"}).
    extra = bytes([0xA2, 0x01, 0x02, 0x68, 0x69]) + bytes([0x72, 0x06, 0x0A, 0x01, 0x6B, 0x12, 0x01, 0x76])
    write(folder, "unknown-field-and-map.bin", b"\x00" + payload + extra)
    write(folder, "unknown-field-and-map-keep-unknown.bin", b"\x01" + payload + extra)
    write(folder, "empty.bin", b"\x00")


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


def pcapng(records, header=True):
    """A pcapng file as CaptureWriter writes it (Spec/CAPTURE.md): records are
    (direction, local, peer, room, frame)."""
    def block(kind, body):
        return struct.pack("<II", kind, len(body) + 12) + body + struct.pack("<I", len(body) + 12)
    out = b""
    if header:
        out += block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) + struct.pack("<I", 0))
        out += block(1, struct.pack("<HHI", 147, 0, 0) + struct.pack("<HHB3x", 9, 1, 9) + struct.pack("<I", 0))
    for index, (direction, local, peer, room, frame) in enumerate(records):
        room = room.encode()
        data = struct.pack("<BBHI", 1, direction, 41 + len(room), 0) + local + peer + bytes([len(room)]) + room + frame
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
        for direction, local, peer, room, frame in records:
            room = room.encode()
            data = struct.pack("<BBHI", 1, direction, 41 + len(room), 0) + local + peer + bytes([len(room)]) + room + frame
            pcap += struct.pack("<IIII", 1764000000, 0, len(data), len(data)) + data
        write(folder, "classic-pcap.bin", b"\x00" + pcap)
        write(folder, "raw-frames.bin", b"\x00" + b"".join(valid[name] for name in names))


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
    """FuzzDelivery input: records `op, a, b, n, bytes(n)` (see _DeliveryFuzzing in
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
    """FuzzRelayMessage input: a relay message; FuzzAccessToken input: a selector byte (bit 0:
    empty secret; the rest: leeway) and a token. Both from Spec/vectors/relay."""
    messages = os.path.join(HERE, "corpus", "FuzzRelayMessage")
    tokens = os.path.join(HERE, "corpus", "FuzzAccessToken")
    for folder in (messages, tokens):
        if os.path.isdir(folder):
            shutil.rmtree(folder)
    for path in sorted(glob.glob(os.path.join(VECTORS, "..", "relay", "*.json"))):
        with open(path) as f:
            vector = json.load(f)
        if vector["kind"] == "message" and len(vector["hex"]) <= 8192:
            write(messages, vector["name"] + ".bin", bytes.fromhex(vector["hex"]))
        elif vector["kind"] == "token" and bytes.fromhex(vector["secret"]) == b"correct horse battery staple":
            write(tokens, vector["name"] + ".bin", bytes([vector["leeway"] << 1]) + vector["token"].encode())


def spec_corpus():
    folder = os.path.join(HERE, "corpus", "FuzzSpecCompiler")
    sources = sorted(glob.glob(os.path.join(ROOT, "Spec", "Examples", "**", "*.gwspec"), recursive=True))
    sources += sorted(glob.glob(os.path.join(ROOT, "Tests", "Specs", "*.gwspec")))
    os.makedirs(folder, exist_ok=True)
    for path in sources:
        shutil.copyfile(path, os.path.join(folder, os.path.basename(path)))


if __name__ == "__main__":
    main()
