#!/usr/bin/env python3
"""Writes the payload vectors in Spec/vectors/payloads/: payloads of message Edge of
EdgeCases.gwspec (in that folder) and what a reader makes of them, the error kind and
offset worked out by hand from Spec/FORMAT.md ("Payload encoding", "Error offsets",
"Error kinds for edge cases"), independently of the Swift code.

  {"name", "description", "spec": "EdgeCases.gwspec", "type": "Edge", "hex",
   "error": {"kind", "offset"}}   or   "json": the decoded value (keys sorted)

A valid vector whose spelling matters also has "jsonText": the exact compact text of the
decoded value (keys sorted, no whitespace), numbers spelled as FORMAT.md's "JSON form" says.

Usage: python3 Spec/vectors/generate.py   (this module is run from there)
"""
import json
import os
import struct
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import field, length_delimited, uvarint, zigzag  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "payloads")


def reads_back_as_float32(text: str, value: float) -> bool:
    """Whether the decimal `text`, rounded to nearest binary32 (ties to even), is `value`
    (finite, not zero), decided exactly: it lies between the midpoints to the neighbours."""
    magnitude = abs(value)
    raw = struct.unpack("<I", struct.pack("<f", magnitude))[0]
    below = Fraction(struct.unpack("<f", struct.pack("<I", raw - 1))[0]) if raw > 1 else Fraction(0)
    above = Fraction(2) ** 128 if raw == 0x7F7FFFFF else Fraction(struct.unpack("<f", struct.pack("<I", raw + 1))[0])
    low, high = (below + Fraction(magnitude)) / 2, (Fraction(magnitude) + above) / 2
    decimal = abs(Fraction(text))
    if raw & 1 == 0:
        return low <= decimal <= high
    return low < decimal < high


def float32_text(value: float) -> str:
    """A binary32 value in the JSON form (FORMAT.md, "JSON form"): the fewest significant
    digits that read back as the same binary32 (the correctly rounded ones of that length),
    plain decimal when the magnitude is at most 2^24 and the digits spell at least 0.0001,
    else exponent form with a sign and at least two exponent digits."""
    bits = struct.pack("<f", value)
    assert struct.unpack("<f", bits)[0] == value or value != value, "not a binary32 value"
    if value == 0:
        return "-0" if bits[3] & 0x80 else "0"
    for precision in range(1, 10):
        text = "%.*e" % (precision - 1, value)
        if reads_back_as_float32(text, value):
            break
    mantissa, exponent = text.split("e")
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "").rstrip("0") or "0"
    exponent = int(exponent)
    if abs(value) > 2.0 ** 24 or exponent < -4:
        rest = "." + digits[1:] if len(digits) > 1 else ""
        return "%s%s%se%s%02d" % (sign, digits[0], rest, "+" if exponent >= 0 else "-", abs(exponent))
    if exponent >= len(digits) - 1:
        return sign + digits + "0" * (exponent - len(digits) + 1)
    if exponent >= 0:
        return sign + digits[:exponent + 1] + "." + digits[exponent + 1:]
    return sign + "0." + "0" * (-exponent - 1) + digits


def build():
    vectors = []

    def error(name, description, payload, kind, offset, type_name="Edge"):
        vectors.append({"name": name, "description": description, "spec": "EdgeCases.gwspec", "type": type_name,
                        "hex": payload.hex(), "error": {"kind": kind, "offset": offset}})

    def valid(name, description, payload, json_value, type_name="Edge"):
        vectors.append({"name": name, "description": description, "spec": "EdgeCases.gwspec", "type": type_name,
                        "hex": payload.hex(), "json": json_value})

    valid("unknown-enum-number-kept", "An enum number the spec does not declare is kept as its number; every "
          "non-optional field is written in the JSON form, defaults included.",
          field(2, 0, uvarint(7)) + field(3, 2, length_delimited(field(2, 2, length_delimited(b"hi")))),
          {"small": 0, "level": 7, "choice": {"text": "hi"}, "samples": [], "times": [], "tiny": 0,
           "inner": {"count": 0, "label": ""}})
    # Unions: the union field's content starts at offset 2 (key 1a, length byte).
    error("union-without-a-field", "A union whose content is empty: missingField, where its field would start.",
          field(3, 2, length_delimited(b"")), "missingField", 2)
    error("union-with-two-fields", "A union holding two fields: invalidValue at the second field's key.",
          field(3, 2, length_delimited(field(1, 0, uvarint(zigzag(1))) + field(2, 2, length_delimited(b"a")))),
          "invalidValue", 4)
    error("union-unknown-case", "A union field numbered 4, which is no case of Choice: invalidValue at its key.",
          field(3, 2, length_delimited(field(4, 0, uvarint(1)))), "invalidValue", 2)
    # Keys.
    error("field-number-over-limit", "Field number 2^29 (one over the largest): invalidValue at the key.",
          uvarint((1 << 29) << 3 | 0) + uvarint(0), "invalidValue", 0)
    error("undefined-wire-type", "Wire type 6 is undefined: unknownWireType at the key, before its number is judged.",
          uvarint(0 << 3 | 6), "unknownWireType", 0)
    # Values that do not fit their type: the varint starts at offset 1.
    error("uint8-over-range", "UInt8 field holding 256: invalidValue at the varint.",
          field(1, 0, uvarint(256)), "invalidValue", 1)
    error("int8-over-range", "Int8 field holding 128 (zigzag 256): invalidValue at the varint.",
          field(6, 0, uvarint(zigzag(128))), "invalidValue", 1)
    error("enum-over-32-bits", "An enum value of 2^32: invalidValue at the varint.",
          field(2, 0, uvarint(1 << 32)), "invalidValue", 1)
    # Packed fixed-width arrays: elements start at offset 2; the cut element is truncated.
    error("packed-float32-not-a-multiple-of-4", "Six bytes of packed Float32: the second element is cut; truncated at its first byte.",
          field(4, 2, length_delimited(struct.pack("<f", 1.0) + b"\x00\x00")), "truncated", 6)
    error("packed-timestamp-not-a-multiple-of-8", "Ten bytes of packed Timestamp: the second element is cut; truncated at its first byte.",
          field(5, 2, length_delimited(struct.pack("<q", 5) + b"\x00\x00")), "truncated", 10)
    # Wire types: the key names the wrong wire type, so the error points at the key.
    error("wire-type-mismatch", "Field 1 (UInt8, a varint) written as Float32 (wire type 5): typeMismatch at its key.",
          field(1, 5, struct.pack("<f", 1.0)), "typeMismatch", 0)
    error("nested-wire-type-mismatch", "Inside the nested Inner (content at offset 2), field 2 (String) written as a "
          "varint: typeMismatch at its key.",
          field(7, 2, length_delimited(field(2, 0, uvarint(1)))), "typeMismatch", 2)
    error("union-second-field-malformed", "A union whose first field is followed by a key with an undefined wire type: "
          "invalidValue at that second key, which is never read.",
          field(3, 2, length_delimited(field(1, 0, uvarint(zigzag(1))) + uvarint(1 << 3 | 7))), "invalidValue", 4)
    # Nested values are separate inputs: nothing inside one is read past its end, even
    # when the enclosing payload has bytes there. Inner's content starts at offset 2.
    error("nested-varint-past-its-end", "Inner's content is the key of count and the first byte of a two-byte "
          "varint (0x80), whose second byte lies after Inner: truncated at the varint's first byte.",
          field(7, 2, length_delimited(bytes([0x08, 0x80]))) + b"\x01" + field(6, 0, uvarint(0)), "truncated", 3)
    error("nested-string-past-its-end", "Inner's label claims 5 bytes but Inner's content ends after 2 of them "
          "(the enclosing payload goes on): truncated at the string's first content byte.",
          field(7, 2, length_delimited(field(2, 2, uvarint(5) + b"ab"))) + field(6, 0, uvarint(0)) * 3, "truncated", 4)
    error("nested-key-past-its-end", "Inner's content ends inside a two-byte key (field 16): truncated at the key.",
          field(7, 2, length_delimited(bytes([0x80]))) + b"\x01" + field(6, 0, uvarint(0)), "truncated", 2)
    # Appended last, so the earlier vectors keep their numbers. JSON spelling of floats:
    # integers without a fraction, plain decimal up to 2^24 for a Float32, exponent form
    # above it. Every value here is exactly the decimal it is spelled with, so the value
    # comparison of "json" holds however a JSON writer spells it.
    samples = [1.0, 1.5, -2.5, 0.0625, 100000.0, 16777216.0, 33554432.0, 1e10, -0.0]
    texts = [float32_text(value) for value in samples]
    defaults = {"small": 0, "level": "low", "choice": {"number": 0}, "times": [], "tiny": 0,
                "inner": {"count": 0, "label": ""}}
    text = json.dumps(dict(defaults, samples=0), sort_keys=True, separators=(",", ":"))
    vectors.append({"name": "float32-json-spelling", "description": "Packed Float32 samples decoded to JSON: 1, 1.5, "
                    "-2.5, 0.0625, 100000 and 16777216 (2^24) in plain decimal, 33554432 (2^25) and 1e10 in exponent "
                    "form (3.3554432e+07, 1e+10), negative zero as -0; every non-optional field at its default.",
                    "spec": "EdgeCases.gwspec", "type": "Edge",
                    "hex": field(4, 2, length_delimited(b"".join(struct.pack("<f", value) for value in samples))).hex(),
                    "json": dict(defaults, samples=[float(text) for text in texts]),
                    "jsonText": text.replace('"samples":0', '"samples":[' + ",".join(texts) + "]")})
    # Fixed32 and Fixed64: 4 and 8 bytes, little-endian; packed in arrays; map keys in the
    # entry's field 1, entries in ascending key order, JSON object keys in decimal.
    def entry(key, text):
        return field(4, 2, length_delimited(field(1, 5, struct.pack("<I", key)) + field(2, 2, length_delimited(text.encode()))))

    valid("fixed-width-integers", "Fixed64 2^64-1, Fixed32 2^32-1, a packed Fixed64 array and a map keyed by "
          "Fixed32, as JSON integers (map keys as decimal strings).",
          field(1, 1, struct.pack("<Q", 2**64 - 1)) + field(2, 5, struct.pack("<I", 2**32 - 1))
          + field(3, 2, length_delimited(struct.pack("<Q", 1) + struct.pack("<Q", 2**63)))
          + entry(7, "seven") + entry(2**32 - 1, "max"),
          {"digest": 2**64 - 1, "tag": 2**32 - 1, "digests": [1, 2**63], "byTag": {"7": "seven", "4294967295": "max"}},
          "Hashes")
    error("packed-fixed64-not-a-multiple-of-8", "Ten bytes of packed Fixed64: the second element is cut; truncated "
          "at its first byte.", field(3, 2, length_delimited(struct.pack("<Q", 5) + b"\x00\x00")), "truncated", 10,
          "Hashes")
    error("fixed32-written-as-varint", "Field 2 (Fixed32, wire type 5) written as a varint: typeMismatch at its key.",
          field(2, 0, uvarint(1)), "typeMismatch", 0, "Hashes")
    error("fixed64-value-cut", "Field 1 (Fixed64) with 3 of its 8 bytes: truncated at the value's first byte.",
          field(1, 1, b"\x01\x02\x03"), "truncated", 1, "Hashes")
    return vectors
