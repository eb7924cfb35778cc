/// A message's NATS headers (an HPUB or HMSG header block): an optional status line and
/// name-value fields in order, a name possibly repeated.
///
/// On the wire: `NATS/1.0`, optionally a space, a three-digit status and a description,
/// CRLF; then `Name: Value` CRLF for each field; then CRLF.
public struct NATSHeaders: Sendable, Hashable {
    /// One field.
    public struct Field: Sendable, Hashable {
        /// Its name: at least one byte, none of them whitespace, a control character or `:`.
        public var name: String
        /// Its value: no CR or LF; spaces and tabs around it are not kept.
        public var value: String

        /// A field.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The status a server puts on a message it makes itself (503: no responders), if any.
    public var status: Int?
    /// The words after the status, if any.
    public var statusDescription: String?
    /// The fields, in order.
    public var fields: [Field]

    /// Headers with `fields` and no status.
    public init(_ fields: [Field] = [], status: Int? = nil, statusDescription: String? = nil) {
        self.fields = fields
        self.status = status
        self.statusDescription = statusDescription
    }

    /// The value of the first field named `name` (names compare exactly).
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// The header block.
    /// - Throws: `invalidArgument` for a name or value the block cannot carry, or a status
    ///   outside 100...999.
    public func encoded() throws(NATSProtocolError) -> [UInt8] {
        var bytes = Array("NATS/1.0".utf8)
        if let status {
            guard (100...999).contains(status) else {
                throw NATSProtocolError(.invalidArgument, offset: nil, "a header status of \(status), not three digits")
            }
            bytes += Array(" \(status)".utf8)
            if let statusDescription {
                try Self.checkValue(statusDescription, "the status description")
                bytes += [0x20] + Array(statusDescription.utf8)
            }
        }
        bytes += [13, 10]
        for field in fields {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: ":") }) else {
                throw NATSProtocolError(.invalidArgument, offset: nil, "a header name \(String(reflecting: field.name))")
            }
            try Self.checkValue(field.value, "the value of \(field.name)")
            bytes += Array(field.name.utf8) + [UInt8(ascii: ":"), 0x20] + Array(field.value.utf8) + [13, 10]
        }
        return bytes + [13, 10]
    }

    private static func checkValue(_ value: String, _ what: String) throws(NATSProtocolError) {
        guard !value.utf8.contains(13), !value.utf8.contains(10) else {
            throw NATSProtocolError(.invalidArgument, offset: nil, "\(what) holds CR or LF")
        }
    }

    /// Reads a header block that is all of `bytes`, which start `offset` bytes into the
    /// stream (for errors).
    /// - Throws: `invalidHeaders` (at the offending line) for a block without the version
    ///   line, a line without CRLF or without `:`, a name with whitespace, a status that is
    ///   not three digits, text that is not UTF-8, or anything after the blank line;
    ///   `payloadTooLarge` for more than `limits.maxHeaderFields` fields.
    public static func decode(_ bytes: [UInt8], offset: Int, limits: NATSLimits = .default) throws(NATSProtocolError)
        -> NATSHeaders
    {
        var headers = NATSHeaders()
        var position = 0
        var first = true
        while true {
            let lineOffset = offset + position
            let found = bytes.withUnsafeBytes { NATSParser.crlf(in: $0, from: position, limit: bytes.count) }
            guard let end = found else {
                throw NATSProtocolError(.invalidHeaders, offset: lineOffset, "a header line without CRLF")
            }
            let line = bytes[position..<end]
            position = end + 2
            guard let text = String(validating: line, as: UTF8.self) else {
                throw NATSProtocolError(.invalidHeaders, offset: lineOffset, "a header line that is not UTF-8")
            }
            if first {
                first = false
                try headers.readVersionLine(text, offset: lineOffset)
                continue
            }
            if line.isEmpty {
                guard position == bytes.count else {
                    throw NATSProtocolError(
                        .invalidHeaders, offset: offset + position, "bytes after the header block's blank line")
                }
                return headers
            }
            guard headers.fields.count < limits.maxHeaderFields else {
                throw NATSProtocolError(.payloadTooLarge, offset: lineOffset, "more than \(limits.maxHeaderFields) header fields")
            }
            guard let colon = text.firstIndex(of: ":") else {
                throw NATSProtocolError(.invalidHeaders, offset: lineOffset, "a header line without ':'")
            }
            let name = String(text[..<colon])
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
                throw NATSProtocolError(.invalidHeaders, offset: lineOffset, "a header name \(String(reflecting: name))")
            }
            let value = text[text.index(after: colon)...].trimmingBlanks()
            headers.fields.append(Field(name, String(value)))
        }
    }

    private mutating func readVersionLine(_ text: String, offset: Int) throws(NATSProtocolError) {
        guard text.hasPrefix("NATS/1.0") else {
            throw NATSProtocolError(.invalidHeaders, offset: offset, "a header block not starting with NATS/1.0")
        }
        let rest = text.dropFirst(8)
        guard !rest.isEmpty else { return }
        guard rest.first == " " || rest.first == "\t" else {
            throw NATSProtocolError(.invalidHeaders, offset: offset, "NATS/1.0 followed by \(String(reflecting: String(rest)))")
        }
        let words = rest.trimmingBlanks()
        guard !words.isEmpty else { return }
        let code = words.prefix { $0 != " " && $0 != "\t" }
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(code) else {
            throw NATSProtocolError(
                .invalidHeaders, offset: offset, "a status \(String(reflecting: String(code))), not three digits")
        }
        status = number
        let description = words.dropFirst(code.count).trimmingBlanks()
        statusDescription = description.isEmpty ? nil : String(description)
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end.
    func trimmingBlanks() -> SubSequence {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}
