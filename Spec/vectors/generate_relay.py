#!/usr/bin/env python3
"""Writes the relay protocol vectors in Spec/vectors/relay/ (Spec/RELAY.md), encoded here
from the document alone: WebSocket binary messages between a client and the relay, with
what a reader makes of them or the error kind and offset; access tokens (JWT, HS256) with
the secret, the time, and the claims or the error kind; participant ids.

  message: {"name", "description", "kind": "message", "hex", "message": {...}}  or  "error": {"kind", "offset"}
  token:   {"name", "description", "kind": "token", "secret", "now", "leeway", "token", "claims": {...}}  or  "error": {"kind"}
  id:      {"name", "description", "kind": "participant", "room", "identity", "id"}

Usage: python3 Spec/vectors/generate.py   (this module is run from there)
"""
import base64
import hashlib
import hmac
import json
import os
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import uvarint  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "relay")

SEND_ALL, DELIVER, SEND_TO, WELCOME, JOINED, LEFT, ERROR = 0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x20
REASONS = ["closed", "lost", "tooSlow", "violation", "replaced", "shutdown"]
CODES = {1: "malformed", 2: "frameTooLarge", 3: "rateLimited", 4: "tooSlow", 5: "replaced", 6: "shuttingDown"}


def participant(room, identity):
    digest = bytearray(hashlib.sha256(b"groupwire.participant\x00" + room.encode() + b"\x00" + identity.encode()).digest()[:16])
    digest[6] = digest[6] & 0x0F | 0x80
    digest[8] = digest[8] & 0x3F | 0x80
    return bytes(digest)


def text(value):
    data = value.encode()
    return uvarint(len(data)) + data


def member(room, identity):
    return participant(room, identity) + text(identity)


def uuid_text(raw):
    return str(uuid.UUID(bytes=raw)).upper()


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(claims, secret, header=None):
    head = header if header is not None else {"alg": "HS256", "typ": "JWT"}
    signing = b64(json.dumps(head, separators=(",", ":")).encode()) + "." + b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
    return signing + "." + b64(hmac.new(secret, signing.encode(), hashlib.sha256).digest())


def build():
    vectors = []
    frame = bytes.fromhex("4757010a0105ffeeddccbb")  # bytes the relay never reads; any frame will do
    ada, bo, cy = ("canvas-7", "ada"), ("canvas-7", "bo"), ("canvas-7", "cy")

    def message(name, description, data, fields):
        vectors.append({"name": name, "description": description, "kind": "message", "hex": data.hex(), "message": fields})

    def bad(name, description, data, kind, offset):
        vectors.append({"name": name, "description": description, "kind": "message", "hex": data.hex(),
                        "error": {"kind": kind, "offset": offset}})

    message("send-all", "A frame for everyone else in the room: one type byte, then the frame.",
            bytes([SEND_ALL]) + frame, {"type": "send", "recipients": None, "frame": frame.hex()})
    recipients = [participant(*bo), participant(*cy)]
    message("send-to-two", "A frame for two participants: count, two ids, then the frame.",
            bytes([SEND_TO]) + uvarint(2) + b"".join(recipients) + frame,
            {"type": "send", "recipients": [uuid_text(r) for r in recipients], "frame": frame.hex()})
    message("send-to-nobody", "An empty list is nobody, not everyone.", bytes([SEND_TO]) + uvarint(0) + frame,
            {"type": "send", "recipients": [], "frame": frame.hex()})
    message("deliver", "A frame from ada, stamped by the relay.", bytes([DELIVER]) + participant(*ada) + frame,
            {"type": "deliver", "source": uuid_text(participant(*ada)), "frame": frame.hex()})
    message("welcome", "ada enters canvas-7 where bo and cy are; frames up to 65,536 bytes.",
            bytes([WELCOME]) + member(*ada) + text("canvas-7") + uvarint(65536) + uvarint(2) + member(*bo) + member(*cy),
            {"type": "welcome", "you": {"id": uuid_text(participant(*ada)), "identity": "ada"}, "room": "canvas-7",
             "maxFrameSize": 65536,
             "members": [{"id": uuid_text(participant(*bo)), "identity": "bo"}, {"id": uuid_text(participant(*cy)), "identity": "cy"}]})
    message("joined", "cy entered the room.", bytes([JOINED]) + member(*cy),
            {"type": "joined", "member": {"id": uuid_text(participant(*cy)), "identity": "cy"}})
    for code, reason in enumerate(REASONS):
        message("left-" + reason, "bo left the room: " + reason + ".", bytes([LEFT]) + participant(*bo) + bytes([code]),
                {"type": "left", "id": uuid_text(participant(*bo)), "reason": reason})
    message("error-frame-too-large", "The relay refuses a frame over the limit, then closes.",
            bytes([ERROR]) + uvarint(2) + text("a frame of 70000 bytes, over the limit of 65536"),
            {"type": "error", "code": 2, "codeName": "frameTooLarge", "text": "a frame of 70000 bytes, over the limit of 65536"})
    message("error-unknown-code", "A code this version does not name is kept as a number.",
            bytes([ERROR]) + uvarint(300) + text(""), {"type": "error", "code": 300, "codeName": None, "text": ""})

    bad("empty", "No type byte.", b"", "truncated", 0)
    bad("unknown-type", "Type 0x7f is not defined.", bytes([0x7F]) + frame, "unknownRelayMessage", 0)
    bad("send-without-frame", "A send must carry a frame.", bytes([SEND_ALL]), "invalidValue", 1)
    bad("send-to-cut-short", "Two recipients announced, one id present.",
        bytes([SEND_TO]) + uvarint(2) + participant(*bo), "truncated", 2)
    bad("send-to-too-many", "1,025 recipients, over the default limit of 1,024: at the count.",
        bytes([SEND_TO]) + uvarint(1025) + frame, "limitExceeded", 1)
    bad("deliver-frame-too-large", "A frame of 65,537 bytes, over the default limit: at the frame.",
        bytes([DELIVER]) + participant(*ada) + bytes(65537), "limitExceeded", 17)
    bad("joined-trailing", "A joined message with a byte after it.", bytes([JOINED]) + member(*cy) + b"\x00",
        "trailingBytes", 1 + len(member(*cy)))
    bad("joined-empty-identity", "An identity of zero bytes.", bytes([JOINED]) + participant(*cy) + uvarint(0),
        "invalidValue", 17)
    bad("joined-identity-not-utf8", "An identity that is not UTF-8.", bytes([JOINED]) + participant(*cy) + uvarint(2) + b"\xc3\x28",
        "invalidUTF8", 18)
    bad("left-unknown-reason", "Leave reason 9 is not defined.", bytes([LEFT]) + participant(*bo) + bytes([9]), "invalidValue", 17)
    bad("welcome-frame-size-too-small", "A relay cannot forward frames under 64 bytes.",
        bytes([WELCOME]) + member(*ada) + text("canvas-7") + uvarint(63) + uvarint(0), "invalidValue", 1 + len(member(*ada)) + 9)

    secret = b"correct horse battery staple"
    now = 1_800_000_000

    def token(name, description, value, claims, leeway=0, at=now, key=secret):
        vectors.append({"name": name, "description": description, "kind": "token", "secret": key.hex(), "now": at,
                        "leeway": leeway, "token": value, "claims": claims})

    def refused(name, description, value, kind, leeway=0, at=now, key=secret):
        vectors.append({"name": name, "description": description, "kind": "token", "secret": key.hex(), "now": at,
                        "leeway": leeway, "token": value, "error": {"kind": kind}})

    claims = {"exp": now + 3600, "room": "canvas-7", "sub": "ada"}
    token("token-valid", "ada may enter canvas-7 for an hour.", jwt(claims, secret),
          {"room": "canvas-7", "identity": "ada", "expiresAt": now + 3600, "notBefore": None, "issuedAt": None})
    full = dict(claims, nbf=now - 10, iat=now - 10, iss="issuer-ignored")
    token("token-all-claims", "nbf and iat are read; unknown claims are ignored.", jwt(full, secret),
          {"room": "canvas-7", "identity": "ada", "expiresAt": now + 3600, "notBefore": now - 10, "issuedAt": now - 10})
    token("token-within-leeway", "Expired 3 s ago, with 5 s of leeway.", jwt(dict(claims, exp=now - 3), secret),
          {"room": "canvas-7", "identity": "ada", "expiresAt": now - 3, "notBefore": None, "issuedAt": None}, leeway=5)
    refused("token-expired", "Expired one second ago.", jwt(dict(claims, exp=now - 1), secret), "tokenExpired")
    refused("token-expires-now", "exp is the first second it is no longer valid.", jwt(dict(claims, exp=now), secret), "tokenExpired")
    refused("token-not-yet-valid", "Valid from a minute from now.", jwt(dict(claims, nbf=now + 60), secret), "tokenNotYetValid")
    refused("token-other-secret", "Signed with another secret.", jwt(claims, b"another secret"), "invalidToken")
    refused("token-alg-none", "alg none, no signature: never accepted.",
            b64(b'{"alg":"none","typ":"JWT"}') + "." + b64(json.dumps(claims, separators=(",", ":")).encode()) + ".", "invalidToken")
    refused("token-alg-hs512", "Another algorithm, even with the right secret.",
            jwt(claims, secret, header={"alg": "HS512", "typ": "JWT"}), "invalidToken")
    good = jwt(claims, secret)
    parts = good.split(".")
    tampered = parts[0] + "." + b64(json.dumps(dict(claims, room="other-room"), separators=(",", ":"), sort_keys=True).encode()) + "." + parts[2]
    refused("token-tampered-room", "The claims changed after signing.", tampered, "invalidToken")
    refused("token-without-room", "No room claim.", jwt({"exp": now + 60, "sub": "ada"}, secret), "invalidToken")
    refused("token-without-exp", "No expiry: never accepted.", jwt({"room": "canvas-7", "sub": "ada"}, secret), "invalidToken")
    refused("token-exp-not-integer", "exp must be a whole number.", jwt(dict(claims, exp=now + 0.5), secret), "invalidToken")
    refused("token-room-too-long", "A room of 129 bytes.", jwt(dict(claims, room="r" * 129), secret), "invalidToken")
    refused("token-padded", "Base64url with padding is not the canonical form.", good + "=", "invalidToken")
    refused("token-two-parts", "Not three parts.", parts[0] + "." + parts[1], "invalidToken")

    for room, identity in [("canvas-7", "ada"), ("canvas-7", "bo"), ("canvas-8", "ada"), ("é", "名前")]:
        vectors.append({"name": "participant-" + identity.encode().hex() + "-in-" + room.encode().hex(),
                        "description": "The participant id of %s in %s." % (identity, room), "kind": "participant",
                        "room": room, "identity": identity, "id": uuid_text(participant(room, identity))})

    # Screening added with the relay's hardening (RELAY.md, "Tokens").
    refused("token-crit", "A crit header names extensions the relay does not understand: never accepted.",
            jwt(claims, secret, header={"alg": "HS256", "typ": "JWT", "crit": ["b64"], "b64": False}), "invalidToken")
    refused("token-issued-ahead", "Issued an hour after the relay's now.",
            jwt(dict(claims, iat=now + 3600, exp=now + 7200), secret), "tokenNotYetValid")
    refused("token-sub-c1-control", "A C1 control character (U+0085) in the identity.",
            jwt(dict(claims, sub="a\u0085b"), secret), "invalidToken")
    refused("token-room-bidi-override", "The right-to-left override U+202E in the room.",
            jwt(dict(claims, room="r\u202eevil"), secret), "invalidToken")
    refused("token-exp-out-of-range", "exp 10^20 is a whole number outside -2^63 ... 2^63-1.",
            jwt(dict(claims, exp=10**20), secret), "invalidToken")

    # A welcome's member list has no byte count to check in advance (RELAY.md, "Messages").
    you = member(*ada)
    bad("welcome-members-cut-short", "Two members announced, the second cut inside its id: truncated at that id.",
        bytes([WELCOME]) + you + text("canvas-7") + uvarint(65536) + uvarint(2) + member(*bo) + participant(*cy)[:5],
        "truncated", 1 + len(you) + 9 + 3 + 1 + len(member(*bo)))
    bad("welcome-frame-size-over-32-bits", "A max frame size of 2^32 (a five-byte varint): invalidValue at its first byte.",
        bytes([WELCOME]) + you + text("canvas-7") + uvarint(1 << 32) + uvarint(0), "invalidValue", 1 + len(you) + 9)
    return vectors
