#!/usr/bin/env python3
"""Writes the hello vectors in Spec/vectors/hello/: bodies of the hello control message
(control id 16, Spec/FORMAT.md "The hello"), encoded here from the document alone, with
what a reader makes of them, or the error kind and offset of a malformed one.

  {"name", "description", "hex", "hello": {...}}   or   "error": {"kind", "offset"}

`hello` holds the versions, codecs (dictionary hashes as 16 hex digits), sizes and, when a
spec is announced, its package, version, fingerprint and the canonical text of every
message (whose FNV-1a 64 is the message's fingerprint).

Usage: python3 Spec/vectors/generate.py   (this module is run from there)
"""
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import field, length_delimited, uvarint, zigzag  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "hello")

SCALARS = ["Bool", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Float32", "Float64",
           "String", "Bytes", "UUID", "Timestamp"]
# Scalars that joined the language after arrays (16) and maps (17) took their codes.
LATER_SCALARS = ["Fixed32", "Fixed64"]
KINDS = {"message": 1, "struct": 2, "enum": 3, "union": 4}


def fnv1a64(data: bytes) -> int:
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


# A declaration: (name, kind, typeID, fields or cases, reserved ranges, reserved names, imported).
# Fields: (number, name, type, optional, default); types are scalar names, declaration names,
# ("array", T) or ("map", K, V); defaults are Python values of the field's type.
def type_text(t):
    if isinstance(t, tuple):
        return "[%s]" % type_text(t[1]) if t[0] == "array" else "[%s:%s]" % (type_text(t[1]), type_text(t[2]))
    return t


def default_text(value, t):
    if isinstance(value, bool):
        return "true"
    if t == "Float32":
        return "0x%08X" % struct.unpack("<I", struct.pack("<f", value))[0]
    if t == "Float64":
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
    if isinstance(value, str):
        return '"' + value + '"'
    return str(value)


def block(decl):
    name, kind, type_id = decl["name"], decl["kind"], decl.get("typeID")
    lines = ["message %s %d" % (name, type_id) if kind == "message" else "%s %s" % (kind, name)]
    for member in sorted(decl.get("fields", []), key=lambda f: f[0]):
        number, fname, t, optional, default = member
        line = "field %d %s %s%s" % (number, fname, type_text(t), "?" if optional else "")
        if default is not None:
            line += " = " + default_text(default, t)
        lines.append(line)
    for case in sorted(decl.get("cases", []), key=lambda c: c[0]):
        lines.append("case %d %s%s" % (case[0], case[1], " " + type_text(case[2]) if len(case) > 2 and case[2] else ""))
    return "\n".join(lines) + "\nend\n"


def references(decl):
    out = []

    def walk(t):
        if isinstance(t, tuple):
            for part in t[1:]:
                walk(part)
        elif t not in SCALARS:
            out.append(t)
    for member in decl.get("fields", []):
        walk(member[2])
    for case in decl.get("cases", []):
        if len(case) > 2 and case[2]:
            walk(case[2])
    return out


def closure(names, decls):
    by_name = {d["name"]: d for d in decls}
    seen, stack = set(), list(names)
    while stack:
        n = stack.pop()
        if n in seen or n not in by_name:
            continue
        seen.add(n)
        stack.extend(references(by_name[n]))
    return sorted(seen, key=lambda n: n.encode())


def canonical(names, decls):
    by_name = {d["name"]: d for d in decls}
    return "".join(block(by_name[n]) for n in closure(names, decls))


def type_codes(t, index):
    if isinstance(t, tuple):
        codes = [16 if t[0] == "array" else 17]
        for part in t[1:]:
            codes += type_codes(part, index)
        return codes
    if t in SCALARS:
        return [SCALARS.index(t) + 1]
    if t in LATER_SCALARS:
        return [18 + LATER_SCALARS.index(t)]
    return [32 + index[t]]


def packed(values):
    return length_delimited(b"".join(uvarint(v) for v in values))


def encode_default(value, t, decls):
    if isinstance(value, tuple):  # ("raw", bytes): a field 5 written as given, for the error vectors
        return value[1]
    if isinstance(value, bool):
        return field(5, 0, uvarint(1 if value else 0))
    if t in ("Int8", "Int16", "Int32", "Int64"):
        return field(5, 0, uvarint(zigzag(value)))
    if t == "Float32":
        return field(5, 5, struct.pack("<f", value))
    if t == "Fixed32":
        return field(5, 5, struct.pack("<I", value))
    if t == "Fixed64":
        return field(5, 1, struct.pack("<Q", value))
    if t == "Float64":
        return field(5, 1, struct.pack("<d", value))
    if isinstance(value, str):
        return field(5, 2, length_delimited(value.encode()))
    return field(5, 0, uvarint(value))  # unsigned integers and enum case numbers


def entry(decl, index, decls, fingerprint=None):
    out = field(1, 2, length_delimited(decl["name"].encode())) + field(2, 0, uvarint(KINDS[decl["kind"]]))
    if decl["kind"] == "message":
        fp = fingerprint if fingerprint is not None else fnv1a64(canonical([decl["name"]], decls).encode())
        out += field(3, 0, uvarint(decl["typeID"])) + field(4, 1, struct.pack("<Q", fp))
    for number, name, t, optional, default in sorted(decl.get("fields", []), key=lambda f: f[0]):
        item = field(1, 0, uvarint(number)) + field(2, 2, length_delimited(name.encode()))
        item += field(3, 2, packed(type_codes(t, index)))
        if optional:
            item += field(4, 0, uvarint(1))
        if default is not None:
            item += encode_default(default, t, decls)
        out += field(5, 2, length_delimited(item))
    for case in sorted(decl.get("cases", []), key=lambda c: c[0]):
        item = field(1, 0, uvarint(case[0])) + field(2, 2, length_delimited(case[1].encode()))
        if len(case) > 2 and case[2]:
            item += field(3, 2, packed(type_codes(case[2], index)))
        out += field(6, 2, length_delimited(item))
    if decl.get("reserved"):
        out += field(7, 2, packed([v for r in decl["reserved"] for v in r]))
    for name in decl.get("reservedNames", []):
        out += field(8, 2, length_delimited(name.encode()))
    if decl.get("imported"):
        out += field(9, 0, uvarint(1))
    out += decl.get("extra", b"")  # raw fields written as given, for the error vectors
    return field(7, 2, length_delimited(out))


def hello(versions=(1, 1), spec=None, codecs=(), max_frame=None, max_message=None, decls=(), fingerprints=None,
          spec_fingerprint=None, order=None):
    """A canonical hello body, and the fields a reader makes of it."""
    decls = sorted(decls, key=lambda d: d["name"].encode())
    index = {d["name"]: i for i, d in enumerate(decls)}
    body = field(1, 0, uvarint(versions[0])) + field(2, 0, uvarint(versions[1]))
    fields = {"minVersion": versions[0], "maxVersion": versions[1], "codecs": [], "maxFrameSize": max_frame or 65536,
              "maxMessageSize": max_message or 16 << 20, "spec": None}
    if spec is not None:
        entry_names = [d["name"] for d in decls if not d.get("imported")]
        text = "package %s %d\n" % spec + canonical(entry_names, decls)
        fp = spec_fingerprint if spec_fingerprint is not None else fnv1a64(text.encode())
        body += field(3, 2, length_delimited(field(1, 2, length_delimited(spec[0].encode())) + field(2, 0, uvarint(spec[1]))
                                             + field(3, 1, struct.pack("<Q", fp))))
        fields["spec"] = {"package": spec[0], "version": spec[1], "fingerprint": "%016x" % fp,
                          "messages": [{"name": d["name"], "typeID": d["typeID"],
                                        "fingerprint": "%016x" % fnv1a64(canonical([d["name"]], decls).encode()),
                                        "canonical": canonical([d["name"]], decls)}
                                       for d in sorted(decls, key=lambda d: d.get("typeID", 0)) if d["kind"] == "message"]}
    for codec, dictionaries in codecs:
        inner = field(1, 0, uvarint(codec))
        for dictionary_id, digest in dictionaries:
            inner += field(2, 2, length_delimited(field(1, 0, uvarint(dictionary_id)) + field(2, 1, digest[:8])))
        body += field(4, 2, length_delimited(inner))
        fields["codecs"].append({"codec": codec, "dictionaries": [{"id": i, "hash": d[:8].hex()} for i, d in dictionaries]})
    if max_frame is not None:
        body += field(5, 0, uvarint(max_frame))
    if max_message is not None:
        body += field(6, 0, uvarint(max_message))
    for decl in (decls if order is None else [decls[j] for j in order]):
        body += entry(decl, index, decls, (fingerprints or {}).get(decl["name"]))
    return body, fields


# DrawTogether version 1 (Spec/Examples/DrawTogether.gwspec), written out by hand.
DRAW_V1 = [
    {"name": "Point", "kind": "struct", "fields": [(1, "x", "Float64", False, None), (2, "y", "Float64", False, None)]},
    {"name": "StrokeColor", "kind": "enum", "cases": [(0, "black"), (1, "red"), (2, "green"), (3, "blue"), (4, "yellow")]},
    {"name": "Stroke", "kind": "struct", "fields": [(1, "id", "UUID", False, None), (2, "color", "StrokeColor", False, None),
                                                    (3, "points", ("array", "Point"), False, None)]},
    {"name": "UpsertStroke", "kind": "message", "typeID": 1,
     "fields": [(1, "id", "UUID", False, None), (2, "color", "StrokeColor", False, None), (3, "point", "Point", False, None)]},
    {"name": "CanvasSnapshot", "kind": "message", "typeID": 2,
     "fields": [(1, "strokes", ("array", "Stroke"), False, None), (2, "pointCount", "UInt64", False, None)]},
]
# Every kind of member: a union with and without payloads, a map, an imported struct,
# defaults of each kind, an optional field and reservations.
EVERYTHING = [
    {"name": "Ref", "kind": "struct", "imported": True, "fields": [(1, "id", "UUID", False, None)]},
    {"name": "Mode", "kind": "enum", "cases": [(0, "off"), (1, "on"), (7, "auto")], "reserved": [(2, 3)], "reservedNames": ["dim"]},
    {"name": "Source", "kind": "union", "cases": [(1, "ref", "Ref"), (2, "url", "String"), (3, "local")]},
    {"name": "Settings", "kind": "message", "typeID": 300, "reserved": [(9, 9), (20, 29)], "reservedNames": ["old"],
     "fields": [(1, "flag", "Bool", False, True), (2, "delta", "Int32", False, -2), (3, "count", "UInt16", False, 500),
                (4, "ratio", "Float32", False, 1.5), (5, "scale", "Float64", False, -0.0), (6, "label", "String", False, "Ünï"),
                (7, "mode", "Mode", False, 7), (8, "source", "Source", False, None), (10, "tags", ("map", "String", "Int64"), False, None),
                (11, "note", "String", True, None), (12, "when", "Timestamp", False, None), (13, "blob", "Bytes", False, None)]},
]


def build():
    vectors = []
    dictionary = open(os.path.join(HERE, "compression", "playback-4242.dict"), "rb").read()
    digest = hashlib.sha256(dictionary).digest()

    def valid(name, description, body, fields):
        vectors.append({"name": name, "description": description, "hex": body.hex(), "hello": fields})

    def error(name, description, body, kind, offset):
        vectors.append({"name": name, "description": description, "hex": body.hex(), "error": {"kind": kind, "offset": offset}})

    valid("without-zstd", "A peer without zstd and without a spec: versions only, every size at its default.", *hello())
    valid("draw-together-v1", "DrawTogether version 1 with zstd and dictionary 4242 (the compression vectors' dictionary).",
          *hello(spec=("draw.together", 1), codecs=[(1, [(4242, digest)])], decls=DRAW_V1))
    valid("every-member-kind", "Unions, maps, an imported struct, defaults of every kind, reservations; sizes announced.",
          *hello(versions=(1, 3), spec=("t.everything", 7), max_frame=1200, max_message=1 << 20, decls=EVERYTHING))
    body, fields = hello()
    valid("unknown-field-skipped", "A later revision's field 15 is skipped.", body + field(15, 2, length_delimited(b"later")), fields)

    body, _ = hello(versions=(3, 1))
    error("version-range-upside-down", "Lowest version 3, highest 1: invalidVersionRange at the key of field 2.", body,
          "invalidVersionRange", 2)
    error("version-zero", "Envelope version 0 does not exist: invalidValue at the varint.", field(1, 0, uvarint(0)) + field(2, 0, uvarint(1)),
          "invalidValue", 1)
    error("without-versions", "No version fields: missingField at the end of the body.", field(5, 0, uvarint(1200)), "missingField", 3)
    body, _ = hello(codecs=[(1, [(4242, digest), (4242, bytes(8))])])
    error("same-dictionary-id-twice", "Dictionary 4242 listed twice with different hashes: duplicateCodec at the second entry.",
          body, "duplicateCodec", body.rindex(field(1, 0, uvarint(4242))) - 2)
    twin = [dict(DRAW_V1[3]), dict(DRAW_V1[3], name="Upsert2")]
    body, _ = hello(spec=("draw.together", 1), decls=DRAW_V1[:3] + twin)
    error("duplicate-type-id", "Two messages with type id 1: duplicateTypeID at the second (by table order).", body,
          "duplicateTypeID", body.index(field(1, 2, length_delimited(b"UpsertStroke"))) - 2)
    body, _ = hello(spec=("draw.together", 1), decls=DRAW_V1, fingerprints={"UpsertStroke": 0x1234})
    error("message-fingerprint-mismatch", "UpsertStroke comes with a fingerprint its schema does not give: at its key.", body,
          "fingerprintMismatch", body.index(struct.pack("<Q", 0x1234)) - 1)
    body, _ = hello(spec=("draw.together", 1), decls=DRAW_V1, spec_fingerprint=0x5678)
    error("spec-fingerprint-mismatch", "The spec fingerprint does not match the table: at its key.", body,
          "fingerprintMismatch", body.index(struct.pack("<Q", 0x5678)) - 1)
    no_zero = [{"name": "Level", "kind": "enum", "cases": [(1, "low"), (2, "high")]},
               {"name": "Set", "kind": "message", "typeID": 5, "fields": [(1, "level", "Level", False, None)]}]
    body, _ = hello(spec=("t", 1), decls=no_zero)
    error("enum-without-case-zero", "A schema that is not a valid spec (an enum without case 0): invalidSchema at the enum's entry.",
          body, "invalidSchema", body.index(field(1, 2, length_delimited(b"Level"))) - 2)
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1, "fields": [(1, "a", "UInt8", False, None)]}])
    bad = body.replace(packed([6]), packed([32 + 5]))
    error("type-reference-past-the-table", "A field type names declaration 5 of a table of 1: invalidValue at the type's key.",
          bad, "invalidValue", bad.index(packed([37])) - 1)
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1, "fields": [(1, "a b", "UInt8", False, None)]}])
    error("name-not-an-identifier", "A field named 'a b': invalidSchema at the name's length.", body, "invalidSchema",
          body.index(b"a b") - 1)
    wrong = field(5, 1, bytes(8))
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1, "fields": [(1, "on", "Bool", False, ("raw", wrong))]}])
    error("default-of-the-wrong-wire-type", "A Bool default written as fixed64: typeMismatch at its key.", body, "typeMismatch",
          body.rindex(wrong))
    body, _ = hello(spec=("draw.together", 1), decls=DRAW_V1)
    error("types-without-spec", "A schema table without the spec field: missingField at the end of the body.",
          body[:4] + body[4 + 2 + body[5]:], "missingField", len(body) - 2 - body[5])

    # The order and the offsets of "Reading a hello", one vector a rule.
    def entry_key(body, name):
        return body.index(field(1, 2, length_delimited(name.encode()))) - 2

    def member_key(body, number, name):
        return body.index(field(1, 0, uvarint(number)) + field(2, 2, length_delimited(name.encode()))) - 2

    spec = field(3, 2, length_delimited(field(1, 2, length_delimited(b"t")) + field(2, 0, uvarint(1))))
    body = spec + field(5, 0, uvarint(1200))
    error("spec-without-fingerprint-before-versions", "A spec without its fingerprint in a body without versions: the "
          "spec's missingField, at the end of the spec, comes before the missing versions.", body, "missingField", len(spec))
    body, _ = hello(spec=("a..b", 1), codecs=[(1, [])])
    error("package-not-dotted-identifiers", "Package 'a..b': invalidSchema at the package's length, as every name, "
          "before anything after it is looked at.", body, "invalidSchema",
          body.index(bytes([4]) + b"a..b"))
    point = {"name": "Point", "kind": "struct", "fields": [(1, "x", "Float64", False, None)], "extra": field(3, 0, uvarint(9))}
    body, _ = hello(spec=("t", 1), decls=[point, {"name": "A", "kind": "message", "typeID": 1, "fields": [(1, "p", "Point", False, None)]}])
    error("struct-with-type-id", "A struct with a type id (field 3): invalidSchema at the type id's key.", body,
          "invalidSchema", body.index(field(3, 0, uvarint(9))))
    level = {"name": "Level", "kind": "enum", "cases": [(0, "low"), (1, "high")], "fields": [(1, "x", "UInt8", False, None)]}
    body, _ = hello(spec=("t", 1), decls=[level])
    error("enum-with-a-field", "An enum with a field (field 5): invalidSchema at that field's key.", body, "invalidSchema",
          member_key(body, 1, "x"))
    level = {"name": "Level", "kind": "enum", "cases": [(0, "low", "UInt8"), (1, "high")]}
    body, _ = hello(spec=("t", 1), decls=[level])
    error("enum-case-with-payload", "An enum case with a payload (field 3 of the case): invalidSchema at the payload's key.",
          body, "invalidSchema", member_key(body, 0, "low") + 2 + len(field(1, 0, uvarint(0)) + field(2, 2, length_delimited(b"low"))))
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1, "reserved": [(3, 5), (7,)],
                                            "fields": [(1, "a", "UInt8", False, None)]}])
    error("reserved-numbers-odd-count", "Reserved numbers 3, 5, 7 are not pairs: invalidValue at the key of field 7.", body,
          "invalidValue", body.rindex(field(7, 2, packed([3, 5, 7]))))
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1, "reserved": [(5, 3)],
                                            "fields": [(1, "a", "UInt8", False, None)]}])
    error("reserved-range-upside-down", "Reserved range 5 ... 3: invalidValue at the key of field 7.", body, "invalidValue",
          body.rindex(field(7, 2, packed([5, 3]))))
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1, "fields": [(1, "a", "UInt8", False, 300)]}])
    error("default-out-of-range", "A UInt8 default of 300, a rule of the spec language: invalidSchema at the default's key.",
          body, "invalidSchema", body.rindex(field(5, 0, uvarint(300))))
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1, "fields": [(1, "a", "UInt8", True, 5)]}])
    error("default-on-optional-field", "An optional field with a default: invalidSchema at the default's key.", body,
          "invalidSchema", body.rindex(field(5, 0, uvarint(5))))
    levels = {"name": "Level", "kind": "enum", "cases": [(0, "low"), (1, "high")]}
    body, _ = hello(spec=("t", 1), decls=[levels, {"name": "A", "kind": "message", "typeID": 1,
                                                   "fields": [(1, "level", "Level", False, 5)]}])
    error("enum-default-naming-no-case", "An enum default 5, no case of Level: invalidSchema at the default's key.", body,
          "invalidSchema", body.rindex(field(5, 0, uvarint(5))))
    cycle = [{"name": "A", "kind": "struct", "fields": [(1, "b", "B", False, None)]},
             {"name": "B", "kind": "struct", "fields": [(1, "a", "A", False, None)]},
             {"name": "M", "kind": "message", "typeID": 1, "fields": [(1, "a", "A", False, None)]}]
    body, _ = hello(spec=("t", 1), decls=cycle)
    error("recursion-by-value", "A holds B and B holds A by value: the search starts at A, so the field that closes the "
          "cycle is B.a: invalidSchema at its key.", body, "invalidSchema", member_key(body, 1, "a"))  # B's entry precedes M's
    levels = {"name": "Level", "kind": "enum", "cases": [(1, "low"), (1 << 32, "high")]}
    body, _ = hello(spec=("t", 1), decls=[levels])
    error("smallest-offset-wins", "An enum without case 0 whose case 2^32 is out of range: both break a rule, and the "
          "smaller offset, the enum's entry key, is reported.", body, "invalidSchema", entry_key(body, "Level"))
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1, "fields": [(0, "a", "UInt8", False, None)]}])
    error("field-number-zero", "Field number 0, a rule of the spec language (not a range of the reading pass): "
          "invalidSchema at the field's key.", body, "invalidSchema", member_key(body, 0, "a"))
    levels = {"name": "Level", "kind": "enum", "cases": [(0, "low"), (1 << 32, "high")]}
    body, _ = hello(spec=("t", 1), decls=[levels])
    error("enum-case-over-32-bits", "Enum case number 2^32: invalidSchema at the case's key.", body, "invalidSchema",
          member_key(body, 1 << 32, "high"))
    shared = {"name": "HelloImportsMessage", "kind": "struct", "imported": True, "fields": [(1, "id", "UUID", False, None)]}
    body, fields = hello(spec=("t", 1), decls=[shared, {"name": "A", "kind": "message", "typeID": 1,
                                                         "fields": [(1, "shared", "HelloImportsMessage", False, None)]}])
    valid("imported-type-named-like-the-imports-file", "An imported struct named HelloImportsMessage, a name its own file "
          "allowed: the imported part of the model has no package line and no message set enum, so no name rule of "
          "that enum applies to it.", body, fields)
    body, _ = hello(spec=("t.x", 1), decls=[{"name": "TXMessage", "kind": "message", "typeID": 1,
                                             "fields": [(1, "a", "UInt8", False, None)]}])
    error("entry-type-named-like-the-message-set-enum", "Package t.x gives the message set enum TXMessage, which a "
          "message of the entry file takes: invalidSchema at its entry's key.", body, "invalidSchema",
          entry_key(body, "TXMessage"))
    body, _ = hello(spec=("t", 1), decls=[{"name": "Hit", "kind": "message", "typeID": 0xFFFFFF05,
                                            "fields": [(1, "a", "UInt8", False, None)]}])
    error("message-with-a-groupwire-type-id", "A message of package t with type id 0xFFFFFF05, in GroupWire's own "
          "block: invalidSchema at its entry's key.", body, "invalidSchema", entry_key(body, "Hit"))
    hashes = [{"name": "Digest", "kind": "message", "typeID": 9,
               "fields": [(1, "digest", "Fixed64", False, None), (2, "tag", "Fixed32", False, 4000000000),
                          (3, "seed", "Fixed64", False, 0x8000000000000001),
                          (4, "byHash", ("map", "Fixed64", "String"), False, None),
                          (5, "tags", ("array", "Fixed32"), False, None), (6, "maybe", "Fixed64", True, None)]}]
    valid("fixed-width-integers", "Fixed32 and Fixed64 fields (type codes 18 and 19), their defaults as fixed32 and "
          "fixed64 values, a Fixed64 map key and a Fixed32 array.", *hello(spec=("t", 1), decls=hashes))
    varint = field(5, 0, uvarint(7))
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1,
                                            "fields": [(1, "digest", "Fixed64", False, ("raw", varint))]}])
    error("fixed64-default-as-varint", "A Fixed64 default written as a varint (an integer's wire type, not this "
          "integer's): typeMismatch at the default's key.", body, "typeMismatch", body.rindex(varint))
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1, "fields": [(1, "a", "UInt8", False, None)]}])
    bad = body.replace(packed([6]), packed([20]))
    error("type-code-20-undefined", "Type code 20, the first after the fixed-width integers, names no type: invalidValue "
          "at the key of the field's type.", bad, "invalidValue", bad.index(packed([20])) - 1)
    unpacked = field(7, 0, uvarint(3))
    body, _ = hello(spec=("t", 1), decls=[{"name": "A", "kind": "message", "typeID": 1,
                                            "fields": [(1, "a", "UInt8", False, None)], "extra": unpacked}])
    error("reserved-numbers-unpacked", "Reserved numbers are packed runs only: a field 7 written as a varint (as a "
          "payload's integer array may be) is typeMismatch at its key.", body, "typeMismatch", body.rindex(unpacked))
    cut = field(1, 0, uvarint(0)) + field(2, 0, uvarint(1)) + bytes([0x3A, 0x05, 0x01])
    error("range-before-truncation", "Version 0, then a field 7 whose 5 bytes are cut after one: one pass in body order "
          "reports the version (invalidValue at its varint), not the truncation after it.", cut, "invalidValue", 1)
    return vectors
