#!/usr/bin/env python3
"""Writes the relay cluster vectors in Spec/vectors/cluster/: the messages relay nodes
exchange through NATS (Spec/RELAY.md, "Clustering", "Cluster messages"), encoded here from
the document alone, independently of the Swift implementation, with what a reader makes of
them or the error kind and offset of a malformed one.

  {"name", "description", "hex", "message": {...}}   or   {"name", "description", "hex", "error": {"kind", "offset"}}

`message` by type (ids as uppercase UUID text; an incarnation, a fixed64 that may exceed
2^53, as a decimal string; reasons and entries by name; frames and deliver messages as hex):

  {"type": "heartbeat", "node", "incarnation"}
  {"type": "forward", "room", "source", "recipients": null or [id, ...], "frame"}
  {"type": "join", "room", "member": {"id", "identity"}, "holder": {"node", "connection"}}
  {"type": "leave", "room", "member": id, "holder", "reason"}
  {"type": "holdings", "room", "node", "members": [{"id", "identity", "connection"}], "known": [{"id", "identity"}]}
  {"type": "event", "room", "owner", "incarnation", "sequence", "event": E}, E one of
    {"kind": "deliver", "recipients", "deliver"}
    {"kind": "entered", "member", "holder", "entry", "members": [{"id", "identity"}, ...]}
    {"kind": "replaced", "member": id, "holder"}
    {"kind": "left", "member": id, "reason"}

Limits are RELAY.md's defaults: frames up to 65,536 bytes (`--max-frame`), 1,024
recipients, 4,096 members or holdings, names up to 128 bytes, node names up to 64.

Usage: python3 Spec/vectors/generate.py   (or python3 Spec/vectors/generate_cluster.py for
this family alone)
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import uvarint, write_vectors  # noqa: E402
from generate_relay import participant, uuid_text  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "cluster")

HEARTBEAT, FORWARD, JOIN, LEAVE, HOLDINGS, EVENT = 0x01, 0x10, 0x11, 0x12, 0x13, 0x20
DELIVER, ENTERED, REPLACED, LEFT = 0x01, 0x02, 0x03, 0x04
RELAY_DELIVER = 0x02
REASONS = ["closed", "lost", "tooSlow", "violation", "replaced", "shutdown"]
ENTRIES = ["joined", "resumed", "replaced"]
MAX_FRAME = 65536

ROOM = "canvas-7"


def name(value):
    data = value.encode() if isinstance(value, str) else value
    return uvarint(len(data)) + data


node = name  # a node is encoded like a name; only its alphabet and limit differ


def fixed64(value):
    return struct.pack("<Q", value)


def holder(node_name, connection):
    return node(node_name) + uvarint(connection)


def member(identity, room=ROOM):
    return participant(room, identity) + name(identity)


def pid(identity, room=ROOM):
    return participant(room, identity)


def recipients(ids):
    if ids is None:
        return b"\x00"
    return b"\x01" + uvarint(len(ids)) + b"".join(ids)


def header(kind, room=ROOM):
    return bytes([kind]) + name(room)


def event_header(owner, incarnation, sequence, room=ROOM):
    return header(EVENT, room) + node(owner) + fixed64(incarnation) + uvarint(sequence)


# What a reader makes of the fields, for the "message" objects.
def j_member(identity, room=ROOM):
    return {"id": uuid_text(pid(identity, room)), "identity": identity}


def j_holder(node_name, connection):
    return {"node": node_name, "connection": connection}


def j_recipients(ids):
    return None if ids is None else [uuid_text(r) for r in ids]


def build():
    vectors = []
    frame = bytes.fromhex("4757010a0105ffeeddccbb")  # bytes the relay never reads; any frame will do
    big_incarnation = 0xFEDCBA9876543210  # above 2^53: kept as a decimal string
    ada, bo, cy = pid("ada"), pid("bo"), pid("cy")

    def message(name_, description, data, fields):
        vectors.append({"name": name_, "description": description, "hex": data.hex(), "message": fields})

    def bad(name_, description, data, kind, offset):
        assert 0 <= offset <= len(data), (name_, offset, len(data))
        vectors.append({"name": name_, "description": description, "hex": data.hex(),
                        "error": {"kind": kind, "offset": offset}})

    # --- heartbeat ---------------------------------------------------------------------------
    heartbeat = bytes([HEARTBEAT]) + node("relay-1") + fixed64(123)
    message("heartbeat", "relay-1 is alive, incarnation 123: type byte, node, fixed64 little-endian.",
            heartbeat, {"type": "heartbeat", "node": "relay-1", "incarnation": "123"})
    message("heartbeat-every-character-class", "A node name with lower and upper case letters, a digit, '-' and '_'; "
            "an incarnation above 2^53.",
            bytes([HEARTBEAT]) + node("eu-West_2") + fixed64(big_incarnation),
            {"type": "heartbeat", "node": "eu-West_2", "incarnation": str(big_incarnation)})
    long_node = "n" * 63 + "9"
    message("heartbeat-node-64-bytes", "The longest node name, 64 bytes; incarnation 2^64 - 1.",
            bytes([HEARTBEAT]) + node(long_node) + fixed64((1 << 64) - 1),
            {"type": "heartbeat", "node": long_node, "incarnation": str((1 << 64) - 1)})

    # --- forward -----------------------------------------------------------------------------
    forward_head = header(FORWARD) + ada
    message("forward-to-everyone", "ada's frame for everyone else in canvas-7: recipients byte 0, then the frame.",
            forward_head + recipients(None) + frame,
            {"type": "forward", "room": ROOM, "source": uuid_text(ada), "recipients": None, "frame": frame.hex()})
    message("forward-to-two", "ada's frame for bo and cy: recipients byte 1, count 2, two ids, then the frame.",
            forward_head + recipients([bo, cy]) + frame,
            {"type": "forward", "room": ROOM, "source": uuid_text(ada), "recipients": j_recipients([bo, cy]),
             "frame": frame.hex()})
    message("forward-to-nobody", "An empty recipient list is nobody, not everyone.",
            forward_head + recipients([]) + frame,
            {"type": "forward", "room": ROOM, "source": uuid_text(ada), "recipients": [], "frame": frame.hex()})
    message("forward-one-byte-frame", "The shortest frame, one byte.",
            forward_head + recipients(None) + b"\x2a",
            {"type": "forward", "room": ROOM, "source": uuid_text(ada), "recipients": None, "frame": "2a"})

    # --- join --------------------------------------------------------------------------------
    join = header(JOIN) + member("ada") + holder("relay-1", 7)
    message("join", "relay-1 asks a place for ada on its connection 7.", join,
            {"type": "join", "room": ROOM, "member": j_member("ada"), "holder": j_holder("relay-1", 7)})
    message("join-multibyte-connection", "Connection number 1,000,000: a three-byte varint.",
            header(JOIN) + member("bo") + holder("eu-West_2", 1_000_000),
            {"type": "join", "room": ROOM, "member": j_member("bo"), "holder": j_holder("eu-West_2", 1_000_000)})

    # --- leave -------------------------------------------------------------------------------
    for code, reason in enumerate(REASONS):
        message("leave-" + reason, "bo's connection 300 on relay-2 ended: " + reason + " (reason byte %d)." % code,
                header(LEAVE) + bo + holder("relay-2", 300) + bytes([code]),
                {"type": "leave", "room": ROOM, "member": uuid_text(bo), "holder": j_holder("relay-2", 300),
                 "reason": reason})

    # --- holdings ----------------------------------------------------------------------------
    message("holdings-empty", "relay-2 holds nobody and knows nobody in canvas-7: two zero counts.",
            header(HOLDINGS) + node("relay-2") + uvarint(0) + uvarint(0),
            {"type": "holdings", "room": ROOM, "node": "relay-2", "members": [], "known": []})
    message("holdings", "relay-2 holds ada (connection 7) and bo (connection 300) and knows ada, bo and cy.",
            header(HOLDINGS) + node("relay-2") + uvarint(2) + member("ada") + uvarint(7) + member("bo") + uvarint(300)
            + uvarint(3) + member("ada") + member("bo") + member("cy"),
            {"type": "holdings", "room": ROOM, "node": "relay-2",
             "members": [dict(j_member("ada"), connection=7), dict(j_member("bo"), connection=300)],
             "known": [j_member("ada"), j_member("bo"), j_member("cy")]})

    # --- events ------------------------------------------------------------------------------
    deliver = bytes([RELAY_DELIVER]) + ada + frame
    message("event-deliver-everyone", "Event 1 of relay-1's stream: ada's frame as a relay deliver message, for everyone.",
            event_header("relay-1", 123, 1) + bytes([DELIVER]) + recipients(None) + deliver,
            {"type": "event", "room": ROOM, "owner": "relay-1", "incarnation": "123", "sequence": 1,
             "event": {"kind": "deliver", "recipients": None, "deliver": deliver.hex()}})
    message("event-deliver-to-two", "Event 300 (a two-byte varint), incarnation above 2^53: ada's frame for bo and cy.",
            event_header("relay-1", big_incarnation, 300) + bytes([DELIVER]) + recipients([bo, cy]) + deliver,
            {"type": "event", "room": ROOM, "owner": "relay-1", "incarnation": str(big_incarnation), "sequence": 300,
             "event": {"kind": "deliver", "recipients": j_recipients([bo, cy]), "deliver": deliver.hex()}})
    message("event-deliver-to-nobody", "A deliver event with an empty recipient list: nobody.",
            event_header("relay-1", 123, 2) + bytes([DELIVER]) + recipients([]) + deliver,
            {"type": "event", "room": ROOM, "owner": "relay-1", "incarnation": "123", "sequence": 2,
             "event": {"kind": "deliver", "recipients": [], "deliver": deliver.hex()}})
    message("event-entered-joined", "cy joined on relay-2's connection 5; the welcome's others are ada and bo.",
            event_header("relay-1", 123, 3) + bytes([ENTERED]) + member("cy") + holder("relay-2", 5) + bytes([0])
            + uvarint(2) + member("ada") + member("bo"),
            {"type": "event", "room": ROOM, "owner": "relay-1", "incarnation": "123", "sequence": 3,
             "event": {"kind": "entered", "member": j_member("cy"), "holder": j_holder("relay-2", 5), "entry": "joined",
                       "members": [j_member("ada"), j_member("bo")]}})
    message("event-entered-resumed", "ada resumed within her grace on eu-West_2's connection 1,000,000, alone in the room.",
            event_header("relay-1", 123, 4) + bytes([ENTERED]) + member("ada") + holder("eu-West_2", 1_000_000)
            + bytes([1]) + uvarint(0),
            {"type": "event", "room": ROOM, "owner": "relay-1", "incarnation": "123", "sequence": 4,
             "event": {"kind": "entered", "member": j_member("ada"), "holder": j_holder("eu-West_2", 1_000_000),
                       "entry": "resumed", "members": []}})
    sequence = 1 << 35  # a six-byte varint
    message("event-entered-replaced", "bo took his place again from a newer connection (relay-1's 8); the others: ada. "
            "Event number 2^35, a six-byte varint.",
            event_header("relay-1", 123, sequence) + bytes([ENTERED]) + member("bo") + holder("relay-1", 8) + bytes([2])
            + uvarint(1) + member("ada"),
            {"type": "event", "room": ROOM, "owner": "relay-1", "incarnation": "123", "sequence": sequence,
             "event": {"kind": "entered", "member": j_member("bo"), "holder": j_holder("relay-1", 8), "entry": "replaced",
                       "members": [j_member("ada")]}})
    message("event-replaced", "bo's older connection, relay-2's 300, is replaced.",
            event_header("relay-1", 123, 5) + bytes([REPLACED]) + bo + holder("relay-2", 300),
            {"type": "event", "room": ROOM, "owner": "relay-1", "incarnation": "123", "sequence": 5,
             "event": {"kind": "replaced", "member": uuid_text(bo), "holder": j_holder("relay-2", 300)}})
    for number, reason in [(6, "lost"), (7, "violation")]:
        message("event-left-" + reason, "bo left canvas-7: " + reason + ".",
                event_header("relay-1", 123, number) + bytes([LEFT]) + bo + bytes([REASONS.index(reason)]),
                {"type": "event", "room": ROOM, "owner": "relay-1", "incarnation": "123", "sequence": number,
                 "event": {"kind": "left", "member": uuid_text(bo), "reason": reason}})

    # --- errors: the type, and messages cut short ---------------------------------------------
    bad("empty", "No type byte.", b"", "truncated", 0)
    bad("unknown-type", "Type 0x02 is a relay deliver message, not a cluster message.",
        bytes([0x02]) + ada + frame, "unknownRelayMessage", 0)
    bad("unknown-type-zero", "Type 0x00 is not defined.", bytes([0x00]) + node("relay-1") + fixed64(123),
        "unknownRelayMessage", 0)
    incarnation_at = 1 + len(node("relay-1"))
    bad("heartbeat-cut-in-incarnation", "The message ends inside the fixed64: truncated at its first byte.",
        heartbeat[:incarnation_at + 5], "truncated", incarnation_at)
    bad("heartbeat-without-incarnation", "The message ends after the node.", heartbeat[:incarnation_at],
        "truncated", incarnation_at)
    bad("heartbeat-cut-in-node", "Node length 7, three bytes present: truncated at the name's first byte.",
        heartbeat[:5], "truncated", 2)
    bad("heartbeat-trailing", "A heartbeat with a byte after its incarnation.", heartbeat + b"\x00",
        "trailingBytes", len(heartbeat))

    # --- errors: node names --------------------------------------------------------------------
    bad("heartbeat-node-empty", "A node name of zero bytes.", bytes([HEARTBEAT]) + node("") + fixed64(123),
        "invalidValue", 1)
    bad("heartbeat-node-dot", "A '.' in a node name (it would split a NATS subject): at the '.'.",
        bytes([HEARTBEAT]) + node("relay.1") + fixed64(123), "invalidValue", 2 + len("relay"))
    bad("heartbeat-node-space", "A space in a node name: at the space.",
        bytes([HEARTBEAT]) + node("relay 1") + fixed64(123), "invalidValue", 2 + len("relay"))
    bad("heartbeat-node-not-ascii", "A node name with 'é' (valid UTF-8, outside the alphabet): at its first byte.",
        bytes([HEARTBEAT]) + node("nodé") + fixed64(123), "invalidValue", 2 + len("nod"))
    bad("heartbeat-node-65-bytes", "A node name of 65 bytes, over the limit of 64: at the length.",
        bytes([HEARTBEAT]) + node("n" * 65) + fixed64(123), "limitExceeded", 1)
    bad("event-owner-node-dot", "An event whose owner name holds a '.'.",
        header(EVENT) + node("relay.1") + fixed64(123) + uvarint(1) + bytes([LEFT]) + bo + bytes([1]),
        "invalidValue", len(header(EVENT)) + 1 + len("relay"))

    # --- errors: forward -------------------------------------------------------------------------
    bad("forward-room-too-long", "A room name of 129 bytes, over the limit of 128: at its length (two-byte varint).",
        header(FORWARD, "r" * 129) + ada + recipients(None) + frame, "limitExceeded", 1)
    bad("forward-room-empty", "A room name of zero bytes.", header(FORWARD, "") + ada + recipients(None) + frame,
        "invalidValue", 1)
    source_at = len(header(FORWARD))
    bad("forward-cut-in-source", "The message ends inside the source id: truncated at its first byte.",
        header(FORWARD) + ada[:10], "truncated", source_at)
    bad("forward-without-recipients", "The message ends after the source id.", forward_head, "truncated", len(forward_head))
    bad("forward-recipients-byte-2", "A recipients byte other than 0 or 1.", forward_head + b"\x02" + frame,
        "invalidValue", len(forward_head))
    bad("forward-without-frame", "Recipients byte 0 and no frame: a forward carries at least one byte.",
        forward_head + recipients(None), "invalidValue", len(forward_head) + 1)
    bad("forward-to-two-without-frame", "Two recipients, then nothing: the frame is empty.",
        forward_head + recipients([bo, cy]), "invalidValue", len(forward_head) + 2 + 32)
    bad("forward-recipients-cut", "Count 2 needs 32 bytes of ids; 27 bytes follow (one id, an 11-byte frame): "
        "truncated at the start of the list, before any id is read.",
        forward_head + b"\x01" + uvarint(2) + bo + frame, "truncated", len(forward_head) + 2)
    bad("forward-recipients-too-many", "1,025 recipients, over the limit of 1,024: at the count.",
        forward_head + b"\x01" + uvarint(1025) + frame, "limitExceeded", len(forward_head) + 1)
    bad("forward-frame-too-large", "A frame of 65,537 bytes, over the default maximum frame size: at the frame.",
        forward_head + recipients(None) + bytes(MAX_FRAME + 1), "limitExceeded", len(forward_head) + 1)

    # --- errors: join and leave ----------------------------------------------------------------
    id_at = len(header(JOIN))
    bad("join-cut-in-member-id", "The message ends inside the member's id.", join[:id_at + 7], "truncated", id_at)
    bad("join-cut-in-identity", "Identity length 3, two bytes present: truncated at the identity's first byte.",
        join[:id_at + 16 + 1 + 2], "truncated", id_at + 17)
    connection_at = id_at + len(member("ada")) + len(node("relay-1"))
    bad("join-cut-in-connection", "The connection number's varint has its continuation bit set and ends there: "
        "truncated at its first byte.",
        header(JOIN) + member("ada") + node("relay-1") + b"\x80", "truncated", connection_at)
    bad("join-without-holder", "The message ends after the member.", header(JOIN) + member("ada"),
        "truncated", id_at + len(member("ada")))
    bad("join-identity-not-utf8", "An identity whose bytes are not UTF-8 (c3 28).",
        header(JOIN) + ada + uvarint(2) + b"\xc3\x28" + holder("relay-1", 7), "invalidUTF8", id_at + 17)
    bad("join-identity-empty", "An identity of zero bytes.",
        header(JOIN) + ada + uvarint(0) + holder("relay-1", 7), "invalidValue", id_at + 16)
    bad("join-trailing", "A join with a byte after its holder.", join + b"\x00", "trailingBytes", len(join))
    leave = header(LEAVE) + bo + holder("relay-2", 300) + bytes([1])
    bad("leave-unknown-reason", "Leave reason 6 is not defined.", leave[:-1] + b"\x06", "invalidValue", len(leave) - 1)
    bad("leave-without-reason", "The message ends after the holder.", leave[:-1], "truncated", len(leave) - 1)
    bad("leave-trailing", "A leave with a byte after its reason.", leave + b"\x01", "trailingBytes", len(leave))

    # --- errors: holdings -----------------------------------------------------------------------
    holdings_head = header(HOLDINGS) + node("relay-2")
    two_holdings = member("ada") + uvarint(7) + member("bo") + uvarint(300)  # 21 + 21 bytes
    bad("holdings-count-over-limit", "4,097 holdings, over the limit of 4,096: at the count, before the bytes are checked.",
        holdings_head + uvarint(4097) + uvarint(0), "limitExceeded", len(holdings_head))
    bad("holdings-count-bytes-missing", "Count 3 needs at least 57 bytes (19 per holding); 43 follow (two holdings, "
        "a known count): truncated at the start of the list, before any holding is read.",
        holdings_head + uvarint(3) + two_holdings + uvarint(0), "truncated", len(holdings_head) + 1)
    known_at = len(holdings_head) + 1 + len(two_holdings)
    bad("holdings-known-over-limit", "4,097 known members, over the limit of 4,096: at the count.",
        holdings_head + uvarint(2) + two_holdings + uvarint(4097), "limitExceeded", known_at)
    bad("holdings-known-bytes-missing", "Known count 2 needs at least 36 bytes (18 per member); 20 follow (ada): "
        "truncated at the start of the list.",
        holdings_head + uvarint(2) + two_holdings + uvarint(2) + member("ada"), "truncated", known_at + 1)
    bad("holdings-without-known", "The message ends after the holdings: the known count is missing.",
        holdings_head + uvarint(2) + two_holdings, "truncated", known_at)
    holdings = holdings_head + uvarint(2) + two_holdings + uvarint(1) + member("cy")
    bad("holdings-trailing", "Holdings with a byte after the known members.", holdings + b"\x00", "trailingBytes",
        len(holdings))
    bad("holdings-known-identity-not-utf8", "A known member whose identity is not UTF-8 (ff).",
        holdings_head + uvarint(0) + uvarint(1) + cy + uvarint(2) + b"\xff\x61",
        "invalidUTF8", len(holdings_head) + 2 + 17)

    # --- errors: events --------------------------------------------------------------------------
    owner_at = len(header(EVENT))
    incarnation_at = owner_at + len(node("relay-1"))
    number_at = incarnation_at + 8
    kind_at = number_at + 1
    bad("event-cut-in-incarnation", "The message ends inside the owner's incarnation.",
        event_header("relay-1", 123, 1)[:incarnation_at + 3], "truncated", incarnation_at)
    bad("event-number-zero", "Event number 0: numbers start at 1.",
        event_header("relay-1", 123, 0) + bytes([LEFT]) + bo + bytes([1]), "invalidValue", number_at)
    bad("event-without-kind", "The message ends after the event number.", event_header("relay-1", 123, 1),
        "truncated", kind_at)
    bad("event-unknown-kind", "Event kind 5 is not defined.",
        event_header("relay-1", 123, 1) + b"\x05" + bo + bytes([1]), "unknownRelayMessage", kind_at)
    bad("event-unknown-kind-zero", "Event kind 0 is not defined.",
        event_header("relay-1", 123, 1) + b"\x00", "unknownRelayMessage", kind_at)
    deliver_head = event_header("relay-1", 123, 1) + bytes([DELIVER])
    bad("event-deliver-empty", "Recipients byte 0, then nothing: an empty deliver.",
        deliver_head + recipients(None), "invalidValue", kind_at + 2)
    bad("event-deliver-to-two-empty", "Two recipients, then nothing: an empty deliver.",
        deliver_head + recipients([bo, cy]), "invalidValue", kind_at + 1 + 2 + 32)
    bad("event-deliver-without-recipients", "The message ends after the kind byte.", deliver_head, "truncated", kind_at + 1)
    bad("event-deliver-recipients-byte-2", "A recipients byte other than 0 or 1.",
        deliver_head + b"\x02" + deliver, "invalidValue", kind_at + 1)
    bad("event-deliver-recipients-cut", "Count 3 needs 48 bytes of ids; 44 follow (one id, a 28-byte deliver): "
        "truncated at the start of the list.",
        deliver_head + b"\x01" + uvarint(3) + bo + deliver, "truncated", kind_at + 3)
    bad("event-deliver-recipients-too-many", "1,025 recipients: at the count.",
        deliver_head + b"\x01" + uvarint(1025) + deliver, "limitExceeded", kind_at + 2)
    bad("event-deliver-too-large", "A deliver of 65,554 bytes (0x02, id, a 65,537-byte frame), over max frame size + 17: "
        "at the deliver's first byte.",
        deliver_head + recipients(None) + bytes([RELAY_DELIVER]) + ada + bytes(MAX_FRAME + 1), "limitExceeded", kind_at + 2)

    entered_head = event_header("relay-1", 123, 3) + bytes([ENTERED])
    after_holder = len(entered_head) + len(member("cy")) + len(holder("relay-2", 5))
    entered = entered_head + member("cy") + holder("relay-2", 5) + bytes([0]) + uvarint(2) + member("ada") + member("bo")
    bad("event-entered-unknown-entry", "Entry 3 is not defined.",
        entered_head + member("cy") + holder("relay-2", 5) + bytes([3]) + uvarint(0), "invalidValue", after_holder)
    bad("event-entered-without-entry", "The message ends after the holder.",
        entered_head + member("cy") + holder("relay-2", 5), "truncated", after_holder)
    bad("event-entered-members-over-limit", "4,097 members, over the limit of 4,096: at the count, before the bytes "
        "are checked.",
        entered_head + member("cy") + holder("relay-2", 5) + bytes([0]) + uvarint(4097), "limitExceeded", after_holder + 1)
    bad("event-entered-members-bytes-missing", "Count 3 needs at least 54 bytes (18 per member); 39 follow (ada, bo): "
        "truncated at the start of the list, before any member is read.",
        entered_head + member("cy") + holder("relay-2", 5) + bytes([0]) + uvarint(3) + member("ada") + member("bo"),
        "truncated", after_holder + 2)
    cut_name_at = after_holder + 2 + len(member("ada")) + 16 + 1
    bad("event-entered-member-cut-in-name", "Count 2 with 39 bytes after it (enough for two members), but the second "
        "identity says 5 bytes and 2 follow: truncated at that identity's first byte.",
        entered_head + member("cy") + holder("relay-2", 5) + bytes([0]) + uvarint(2) + member("ada") + bo + uvarint(5)
        + b"bo", "truncated", cut_name_at)
    bad("event-entered-member-identity-not-utf8", "A listed member whose identity is not UTF-8 (c3 28).",
        entered_head + member("cy") + holder("relay-2", 5) + bytes([0]) + uvarint(1) + ada + uvarint(2) + b"\xc3\x28",
        "invalidUTF8", after_holder + 2 + 17)
    bad("event-entered-trailing", "An entered event with a byte after its member list.", entered + b"\x00",
        "trailingBytes", len(entered))
    replaced = event_header("relay-1", 123, 5) + bytes([REPLACED]) + bo + holder("relay-2", 300)
    bad("event-replaced-trailing", "A replaced event with a byte after its holder.", replaced + b"\x00",
        "trailingBytes", len(replaced))
    bad("event-replaced-cut-in-member-id", "The message ends inside the member id.",
        replaced[:kind_at + 1 + 4], "truncated", kind_at + 1)
    left = event_header("relay-1", 123, 6) + bytes([LEFT]) + bo + bytes([1])
    bad("event-left-unknown-reason", "Reason 6 is not defined.", left[:-1] + b"\x06", "invalidValue", len(left) - 1)
    bad("event-left-trailing", "A left event with a byte after its reason.", left + b"\x00", "trailingBytes", len(left))
    return vectors


if __name__ == "__main__":
    write_vectors(OUT, build())
