#!/usr/bin/env python3
"""Writes the session control vectors in Spec/vectors/session/: bodies of the control
messages of Spec/FORMAT.md ("Session control"), encoded here from the document alone, with
the fields a reader makes of them, or the error kind and offset of a malformed body.

  {"name", "description", "controlID", "hex", "message": {...}}   or   "error": {"kind", "offset"}

`message` names the kind ("activate", "join", "leave", "replace", "end") and its fields;
UUIDs are lowercase hex of their 16 bytes.

Usage: python3 Spec/vectors/generate.py   (this module is run from there)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import field, length_delimited, uvarint  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "session")

ALICE = bytes.fromhex("00000000000040008000000000000001")
BOB = bytes.fromhex("00000000000040008000000000000002")


def string(number, text):
    return field(number, 2, length_delimited(text.encode("utf-8")))


def announcement(session, clock, activator, identifier, title, activity, activity_clock, setter,
                 subtitle=None, kind="generic", url=None):
    metadata = string(1, title)
    if subtitle is not None:
        metadata += string(2, subtitle)
    metadata += string(3, kind)
    if url is not None:
        metadata += string(4, url)
    body = field(1, 0, uvarint(session)) + field(2, 0, uvarint(clock)) + field(3, 2, length_delimited(activator))
    body += string(4, identifier) + field(5, 2, length_delimited(metadata)) + field(6, 2, length_delimited(activity))
    body += field(7, 0, uvarint(activity_clock)) + field(8, 2, length_delimited(setter))
    fields = {"session": session, "clock": clock, "activator": activator.hex(), "activityIdentifier": identifier,
              "title": title, "subtitle": subtitle, "type": kind, "fallbackURL": url, "activity": activity.hex(),
              "activityClock": activity_clock, "activitySetBy": setter.hex()}
    return body, fields


def build():
    vectors = []

    def valid(name, description, control_id, body, kind, fields):
        vectors.append({"name": name, "description": description, "controlID": control_id, "hex": body.hex(),
                        "message": dict(kind=kind, **fields)})

    def error(name, description, control_id, body, kind, offset):
        vectors.append({"name": name, "description": description, "controlID": control_id, "hex": body.hex(),
                        "error": {"kind": kind, "offset": offset}})

    body, fields = announcement(7, 3, ALICE, "com.example.draw-together", "Draw together", b"\x02\x01\x61", 3, ALICE,
                                kind="createTogether")
    valid("activate", "Alice activates session 7 at clock 3.", 1, body, "activate", fields)
    body, fields = announcement(300, 9, ALICE, "com.example.watch", "Film", b"", 12, BOB, subtitle="Ponyo 崖の上",
                                kind="watchTogether", url="https://example.com/watch")
    valid("replace-with-every-metadata-field", "Bob replaces the activity of Alice's session 300 at clock 12.", 4, body,
          "replace", fields)
    valid("join", "Join session 7.", 2, field(1, 0, uvarint(7)), "join", {"session": 7})
    valid("leave-largest-id", "Leave session 2^32-1.", 3, field(1, 0, uvarint(0xFFFFFFFF)), "leave", {"session": 0xFFFFFFFF})
    valid("end", "End session 300 at clock 2.", 5, field(1, 0, uvarint(300)) + field(2, 0, uvarint(2)), "end",
          {"session": 300, "clock": 2})
    valid("join-with-an-unknown-field", "A later revision's field 9 is skipped.", 2,
          field(9, 2, length_delimited(b"new")) + field(1, 0, uvarint(5)), "join", {"session": 5})
    error("join-session-zero", "Session id 0 is reserved: invalidValue at the varint.", 2, field(1, 0, uvarint(0)),
          "invalidValue", 1)
    error("end-session-over-32-bits", "Session id 2^32: invalidValue at the varint.", 5, field(1, 0, uvarint(1 << 32)),
          "invalidValue", 1)
    error("leave-without-session", "No session field: missingField at the end of the body.", 3, b"", "missingField", 0)
    error("join-session-as-string", "Field 1 with wire type len: typeMismatch at its key.", 2,
          field(1, 2, length_delimited(b"7")), "typeMismatch", 0)
    body, _ = announcement(7, 3, ALICE, "a.b", "T", b"", 3, ALICE)
    error("activate-without-identifier", "An announcement without field 4: missingField at the end.", 1,
          body[:body.index(bytes([0x22]))] + body[body.index(bytes([0x2A])):], "missingField", None)
    error("activate-activator-not-16-bytes", "The activator UUID is 3 bytes: invalidValue at its length.", 1,
          field(1, 0, uvarint(7)) + field(3, 2, length_delimited(b"abc")), "invalidValue", 3)
    # The missingField offset is the body's length, filled in once the body is known.
    for vector in vectors:
        if vector.get("error", {}).get("offset", 0) is None:
            vector["error"]["offset"] = len(bytes.fromhex(vector["hex"]))
    return vectors
