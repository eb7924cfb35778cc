import GroupWire
import GroupWireJSON
import GroupWireSpec

/// Writes a checked payload's JSON in pieces, without building its value (the streaming
/// half of ``DynamicCodec/writeJSON(_:as:writer:indent:emit:)``).
///
/// A container is read twice: once to note where each field's values lie, then once per
/// field, in the order its JSON members are written (sorted by name, as ``JSONWriter``
/// sorts), to write them. Nested containers, in single fields or arrays, are written the
/// same way, so memory holds the field offsets of the containers being written and the
/// output not yet handed on, never the values of a large array.
struct DynamicJSONStreamer {
    let decoder: DynamicDecoder
    let payload: [UInt8]
    let writer: JSONWriter
    /// Receives the text in pieces of about ``chunk`` bytes.
    let emit: ([UInt8]) -> Void
    var output: [UInt8] = []
    /// How much text is gathered before it is handed on.
    static let chunk = 1 << 16

    private var schema: DynamicSchema { decoder.schema }
    private var limits: Limits { decoder.limits }

    mutating func flushIfLarge() {
        if output.count >= Self.chunk {
            emit(output)
            output.removeAll(keepingCapacity: true)
        }
    }

    /// A reader over `range` of the payload, `depth` levels deep.
    private func reader(_ range: Range<Int>, depth: Int) throws(WireError) -> PayloadReader {
        PayloadReader(reader: try ByteReader(payload, range: range), limits: limits, depth: depth)
    }

    /// Writes the object of `container`, whose fields fill `range`, `indent` levels deep.
    mutating func writeContainer(_ container: DynamicSchema.Container, range: Range<Int>, depth: Int, indent: Int)
        throws(WireError)
    {
        // Pass 1: where each field's values start (at their keys), and the kept unknown fields.
        var offsets: [[Int]] = Array(repeating: [], count: container.fields.count)
        var unknown: [UInt8] = []
        var scan = try reader(range, depth: depth)
        while true {
            let keyOffset = scan.reader.position
            guard let key = try scan.nextKey() else { break }
            if let index = container.index(ofNumber: key.number) {
                offsets[index].append(keyOffset)
                try scan.skip(key)
            } else if decoder.keepsUnknownFields {
                unknown.append(contentsOf: try scan.captureUnknown(key))
            } else {
                try scan.skip(key)
            }
        }
        // The members, in the order JSONWriter writes an object's keys.
        var members: [(name: String, field: Int?)] = []
        for (index, field) in container.fields.enumerated() {
            if case .single = field.shape, offsets[index].isEmpty, field.isOptional { continue }
            members.append((field.name, index))
        }
        if !unknown.isEmpty { members.append((DynamicCodec.unknownFieldsKey, nil)) }
        members.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        guard !members.isEmpty else {
            output.append(contentsOf: "{}".utf8)
            return
        }
        output.append(UInt8(ascii: "{"))
        for (position, member) in members.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            writer.appendNewline(indent: indent + 1, to: &output)
            writer.appendKey(member.name, to: &output)
            guard let index = member.field else {
                writer.append(.string(Base64.encode(unknown)), indent: indent + 1, to: &output)
                continue
            }
            try writeField(container, index, at: offsets[index], range: range, depth: depth, indent: indent + 1)
            flushIfLarge()
        }
        writer.appendNewline(indent: indent, to: &output)
        output.append(UInt8(ascii: "}"))
    }

    /// Writes field `index` of `container` from the values whose keys are at `offsets`.
    private mutating func writeField(
        _ container: DynamicSchema.Container, _ index: Int, at offsets: [Int], range: Range<Int>, depth: Int, indent: Int
    ) throws(WireError) {
        let field = container.fields[index]
        let label = container.labels[index]
        switch field.shape {
        case .single(let slot):
            // The last occurrence wins, as in decoding.
            guard let last = offsets.last else {
                writer.append(try decoder.defaultJSON(field.type, field.defaultValue, depth: 0), indent: indent, to: &output)
                return
            }
            var value = try reader(last..<range.upperBound, depth: depth)
            guard let key = try value.nextKey() else { return }
            try writeValue(slot, key: key, label: label, depth: depth, indent: indent, from: &value)
        case .array(let element, let packed):
            var first = true
            output.append(UInt8(ascii: "["))
            for offset in offsets {
                var value = try reader(offset..<range.upperBound, depth: depth)
                guard let key = try value.nextKey() else { continue }
                if let packed, key.wireType == .lengthDelimited, packed != .lengthDelimited {
                    let (decoder, writer) = (decoder, writer)
                    try value.readPacked { (nested) throws(WireError) in
                        if !first { output.append(UInt8(ascii: ",")) }
                        first = false
                        writer.appendNewline(indent: indent + 1, to: &output)
                        writer.append(try decoder.readPackedElement(element, from: &nested), indent: indent + 1, to: &output)
                    }
                } else {
                    if !first { output.append(UInt8(ascii: ",")) }
                    first = false
                    writer.appendNewline(indent: indent + 1, to: &output)
                    try writeValue(element, key: key, label: label, depth: depth, indent: indent + 1, from: &value)
                }
                flushIfLarge()
            }
            if !first { writer.appendNewline(indent: indent, to: &output) }
            output.append(UInt8(ascii: "]"))
        case .map(let keyScalar, let valueSlot):
            // Maps are written from their entries' values (a later entry of a key replaces an earlier one).
            var map: [String: JSONValue] = [:]
            for offset in offsets {
                var value = try reader(offset..<range.upperBound, depth: depth)
                guard let key = try value.nextKey() else { continue }
                try decoder.readEntry(
                    keyScalar, valueSlot, field: index, of: container, key: key, label: label, depth: depth,
                    into: &map, from: &value)
            }
            writer.append(.object(map), indent: indent, to: &output)
        }
    }

    /// Writes one value whose key has just been read: a nested container in pieces, any
    /// other value whole (scalars, enums and unions are small).
    private mutating func writeValue(
        _ slot: DynamicSchema.Slot, key: FieldKey, label: String, depth: Int, indent: Int, from reader: inout PayloadReader
    ) throws(WireError) {
        if case .declared(.container(let nested)) = slot {
            try reader.expect(key, .lengthDelimited, field: label)
            let enclosing = try reader._enterNested(depth: depth)
            try writeContainer(
                schema.containers[nested], range: reader.reader.position..<reader.reader.end, depth: depth + 1, indent: indent)
            reader._leaveNested(restoring: enclosing)
            return
        }
        writer.append(
            try decoder.readSingle(slot, key: key, label: label, depth: depth, from: &reader), indent: indent, to: &output)
    }
}

extension DynamicCodec {
    /// Writes the JSON of the payload of the message or struct called `typeName`, exactly
    /// as `writer` would write ``decode(_:as:)``'s value, without building that value.
    ///
    /// The payload is checked first as ``validate(_:as:)`` checks it, so a payload that
    /// does not decode throws before any text is written. The text is then handed to
    /// `emit` in pieces of about 64 KiB. Memory is bounded by the payload's size (its field
    /// offsets), not by what its values would expand to: what `groupwire decode` and
    /// `inspect --format jsonl` print large messages with.
    /// - Parameters:
    ///   - payload: the message payload.
    ///   - typeName: the message or struct to read it as.
    ///   - writer: the JSON writer (compact or pretty-printed).
    ///   - indent: the nesting level the value stands at in the document being written.
    ///   - emit: receives the text, in order.
    /// - Throws: what ``decode(_:as:)`` would throw for the same payload.
    public func writeJSON(_ payload: [UInt8], as typeName: String, writer: JSONWriter, indent: Int = 0, emit: ([UInt8]) -> Void)
        throws(WireError)
    {
        try validate(payload, as: typeName)
        guard case .container(let container)? = schema.declaration(typeName) else {
            throw WireError(.unknownType, "the spec declares no message or struct named \(typeName)")
        }
        let decoder = DynamicDecoder(schema: schema, limits: limits, keepsUnknownFields: options.keepsUnknownFields)
        try withoutActuallyEscaping(emit) { (emit) throws(WireError) in
            var streamer = DynamicJSONStreamer(decoder: decoder, payload: payload, writer: writer, emit: emit)
            try streamer.writeContainer(container, range: 0..<payload.count, depth: 0, indent: indent)
            if !streamer.output.isEmpty { emit(streamer.output) }
        }
    }
}
