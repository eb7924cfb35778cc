import GroupWire
import GroupWireCapture
import GroupWireJSON

/// Renders inspection entries one at a time, so a report can be printed while the frames
/// are still being read: ``start()``, then ``render(_:)`` for each entry in file order,
/// then ``end(byteCount:)``.
public struct InspectionRenderer: Sendable {
    /// The output form.
    public enum Style: Sendable {
        /// For people: a heading (`path: raw frame file`), then per frame one header line
        /// (`frame N at byte O, L bytes: …`, where N counts entries, valid or not, from 0)
        /// and its payload dump indented below it, per rejected run one diagnostic line,
        /// then `summary: V valid frames, I invalid, B bytes`.
        case text
        /// For programs, schema `groupwire.inspect/1`. One JSON object whose entries are
        /// written as they are read, one compact object a line (keys sorted); the counts,
        /// known only at the end, follow the entries:
        /// ```
        /// { "schema": "groupwire.inspect/1", "file": String, "format": "raw" | "hex",
        ///   "entries": [ {
        ///     "offset": Int, "length": Int, "valid": Bool,
        ///     "location": null | {"line": Int, "column": Int},       // hex files only
        ///     "frame": null | { "version", "lengthField", "kindByte", "kind": "data"|"control"|"fragment",
        ///                        "flags": [String], "typeID", "bodyLength", "bodyHex": String,
        ///                        "crc32c": "0x…", "session": null | Int,
        ///                        "delivery": null | {"stream", "sequence", "reliable": Bool},
        ///                        "compression": null | {"codec", "dictionaryID", "contentSize"},
        ///                        "fragment": null | {"messageID", "index", "count", "totalLength", "offset"} },
        ///     "payload": null | PayloadDump,           // see PayloadDump.json
        ///     "decompressedLength": null | Int,        // payload decompressed from the body
        ///     "payloadNotDumped": null | "compressed" | "fragment",
        ///     "decompressionError": null | {"kind", "offset", "message"},
        ///     "error": null | {"kind": String, "offset": Int | null, "message": String,
        ///                       "location": null | {"line", "column"}} } ],
        ///   "byteCount": Int, "frameCount": Int, "invalidCount": Int }
        /// ```
        case json
    }

    /// The file as the user named it.
    public let path: String
    /// The format it is read as.
    public let format: FrameFileFormat
    /// The output form.
    public let style: Style
    /// The number of valid frames rendered so far.
    public private(set) var frameCount = 0
    /// The number of rejected frames or runs rendered so far.
    public private(set) var invalidCount = 0

    /// Creates a renderer.
    public init(path: String, format: FrameFileFormat, style: Style) {
        self.path = path
        self.format = format
        self.style = style
    }

    /// Whether every entry rendered so far is a valid frame.
    public var allValid: Bool { invalidCount == 0 }

    /// The diagnostic for an invalid entry, compiler-style:
    /// `path:line:column: error: …` for hex files, `path: error: …` for raw ones.
    public func diagnostic(for entry: FrameInspection) -> String? {
        guard let error = entry.error else { return nil }
        let place = entry.errorLocation.map { "\(path):\($0.line):\($0.column)" } ?? path
        return "\(place): error: invalid bytes \(entry.offset)..<\(entry.offset + entry.length): \(error)"
    }

    /// The text before the first entry.
    public func start() -> String {
        switch style {
        case .text:
            return "\(path): \(format) frame file\n"
        case .json:
            return "{\n  \"schema\": \"groupwire.inspect/1\",\n  \"file\": \(JSONValue.string(path).rendered()),\n"
                + "  \"format\": \(JSONValue.string(format.name).rendered()),\n  \"entries\": ["
        }
    }

    /// The text of one entry.
    public mutating func render(_ entry: FrameInspection) -> String {
        let index = frameCount + invalidCount
        if entry.isValid { frameCount += 1 } else { invalidCount += 1 }
        switch style {
        case .text:
            return renderText(index, entry)
        case .json:
            return (index == 0 ? "\n    " : ",\n    ") + json(of: entry).rendered(pretty: false)
        }
    }

    /// The text after the last entry: the summary, given the number of frame bytes read.
    public func end(byteCount: Int) -> String {
        switch style {
        case .text:
            return
                "summary: \(frameCount) valid frame\(frameCount == 1 ? "" : "s"), \(invalidCount) invalid, \(byteCount) byte\(byteCount == 1 ? "" : "s")\n"
        case .json:
            return (frameCount + invalidCount == 0 ? "]" : "\n  ]")
                + ",\n  \"byteCount\": \(byteCount),\n  \"frameCount\": \(frameCount),\n  \"invalidCount\": \(invalidCount)\n}\n"
        }
    }

    // MARK: Text

    private func renderText(_ index: Int, _ entry: FrameInspection) -> String {
        var lines: [String] = []
        guard let frame = entry.frame else {
            return diagnostic(for: entry).map { $0 + "\n" } ?? ""
        }
        lines.append(headerLine(index, entry, frame))
        if let delivery = frame.delivery {
            lines.append(
                "  delivery: \(delivery.isReliable ? "reliable" : "unreliable") stream \(delivery.stream) (incarnation \(delivery.incarnation)), sequence \(delivery.sequence)"
            )
        }
        if let session = frame.session {
            lines.append("  session: \(session)")
        }
        if let compression = frame.compression {
            lines.append(
                "  compression: codec \(compression.codec)\(compression.codec == CompressionInfo.zstdCodec ? " (zstd)" : ""), dictionary \(compression.dictionaryID), content size \(compression.contentSize)"
            )
        }
        if let fragment = frame.fragment {
            lines.append(
                "  fragment: message \(fragment.messageID), index \(fragment.index) of \(fragment.count), offset \(fragment.offset), total length \(fragment.totalLength)"
            )
        }
        if let payload = entry.payload {
            let source = entry.decompressedLength.map { " (decompressed, \($0) bytes)" } ?? ""
            if payload.fields.isEmpty, payload.isComplete {
                lines.append("  payload\(source): empty")
            } else {
                lines.append("  payload\(source):")
                lines.append(payload.renderText(indent: 2, prefix: "    "))
            }
        } else if let reason = entry.payloadNotShownReason {
            let why = entry.decompressionError.map { ": \($0)" } ?? ""
            lines.append("  payload: not dumped (\(reason) body\(why)), body " + Hex.string(frame.body))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func headerLine(_ index: Int, _ entry: FrameInspection, _ frame: Frame) -> String {
        var parts: [String] = []
        let at = entry.location.map { " (line \($0.line))" } ?? ""
        if let header = entry.header {
            parts.append("version \(header.version)")
            parts.append("length \(header.lengthField)")
            parts.append("kind \(frame.kind) (byte \(Hex.literal(header.kindByte, width: 2)))")
        } else {
            parts.append("kind \(frame.kind)")
        }
        parts.append("flags \(flagNames(frame.flags).joined(separator: "+").nonEmpty ?? "none")")
        parts.append("type id \(frame.typeID)")
        parts.append("body \(frame.body.count) byte\(frame.body.count == 1 ? "" : "s")")
        if let header = entry.header {
            parts.append("crc32c \(Hex.literal(header.crc32c, width: 8))")
        }
        return "frame \(index) at byte \(entry.offset)\(at), \(entry.length) bytes: " + parts.joined(separator: ", ")
    }

    // MARK: JSON

    private func json(of entry: FrameInspection) -> JSONValue {
        var object: [String: JSONValue] = [
            "offset": .int(Int64(entry.offset)),
            "length": .int(Int64(entry.length)),
            "valid": .bool(entry.isValid),
            "location": json(of: entry.location),
            "payload": entry.payload?.json ?? .null,
            "payloadNotDumped": entry.payloadNotShownReason.map(JSONValue.string) ?? .null,
            "decompressedLength": entry.decompressedLength.map { .int(Int64($0)) } ?? .null,
            "decompressionError": entry.decompressionError.map(PayloadDump.json(of:)) ?? .null,
            "frame": .null,
            "error": .null,
        ]
        if let frame = entry.frame {
            var fields: [String: JSONValue] = [
                "kind": .string(frame.kind.description),
                "flags": .array(flagNames(frame.flags).map(JSONValue.string)),
                "typeID": .uint(frame.typeID),
                "bodyLength": .int(Int64(frame.body.count)),
                "bodyHex": .string(Hex.string(frame.body)),
                "compression": frame.compression.map { info in
                    .object([
                        "codec": .uint(UInt64(info.codec)), "dictionaryID": .uint(UInt64(info.dictionaryID)),
                        "contentSize": .uint(info.contentSize),
                    ])
                } ?? .null,
                "fragment": frame.fragment.map { info in
                    .object([
                        "messageID": .uint(info.messageID), "index": .uint(UInt64(info.index)),
                        "count": .uint(UInt64(info.count)), "totalLength": .uint(info.totalLength),
                        "offset": .uint(info.offset),
                    ])
                } ?? .null,
                "session": frame.session.map { .uint(UInt64($0)) } ?? .null,
                "delivery": frame.delivery.map { header in
                    .object([
                        "stream": .uint(UInt64(header.stream)), "sequence": .uint(header.sequence),
                        "reliable": .bool(header.isReliable),
                    ])
                } ?? .null,
                "version": .null, "lengthField": .null, "kindByte": .null, "crc32c": .null,
            ]
            if let header = entry.header {
                fields["version"] = .uint(UInt64(header.version))
                fields["lengthField"] = .uint(header.lengthField)
                fields["kindByte"] = .uint(UInt64(header.kindByte))
                fields["crc32c"] = .string(Hex.literal(header.crc32c, width: 8))
            }
            object["frame"] = .object(fields)
        }
        if let error = entry.error {
            guard case .object(var fields) = PayloadDump.json(of: error) else { return .object(object) }
            fields["location"] = json(of: entry.errorLocation)
            object["error"] = .object(fields)
        }
        return .object(object)
    }

    private func json(of location: HexDump.Location?) -> JSONValue {
        guard let location else { return .null }
        return .object(["line": .int(Int64(location.line)), "column": .int(Int64(location.column))])
    }
}

private func flagNames(_ flags: FrameFlags) -> [String] {
    var names: [String] = []
    if flags.contains(.compressed) { names.append("compressed") }
    if flags.contains(.session) { names.append("session") }
    if flags.contains(.delivery) { names.append("delivery") }
    let unknown = flags.subtracting(.known).rawValue
    if unknown != 0 { names.append(Hex.literal(unknown, width: 2)) }
    return names
}

extension String {
    /// Nil when empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
