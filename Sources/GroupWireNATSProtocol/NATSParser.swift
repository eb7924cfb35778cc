/// An operation a NATS server sends (docs.nats.io, "Client Protocol").
public enum NATSServerOperation: Sendable, Hashable {
    /// `INFO {json}`.
    case info(NATSServerInfo)
    /// `MSG` or `HMSG`: a message for one of this client's subscriptions.
    case message(NATSMessageHead)
    /// `PING`: the client answers PONG.
    case ping
    /// `PONG`: the answer to the client's oldest unanswered PING.
    case pong
    /// `+OK` (verbose mode only).
    case ok
    /// `-ERR 'text'`, the quotes removed: some errors end the connection, the server says
    /// which by closing it.
    case error(String)
}

/// A MSG or HMSG up to its payload, which ``NATSParser/Parsed/payload`` locates.
public struct NATSMessageHead: Sendable, Hashable {
    /// The subject it was published to.
    public var subject: String
    /// The subscription it is for: the id this client gave in SUB (decimal digits).
    public var subscription: UInt64
    /// Where a reply goes, if the publisher asked for one.
    public var replyTo: String?
    /// The headers of an HMSG; nil for a MSG.
    public var headers: NATSHeaders?
    /// The payload's length in bytes (headers not counted).
    public var payloadLength: Int

    /// A message head.
    public init(subject: String, subscription: UInt64, replyTo: String? = nil, headers: NATSHeaders? = nil, payloadLength: Int) {
        self.subject = subject
        self.subscription = subscription
        self.replyTo = replyTo
        self.headers = headers
        self.payloadLength = payloadLength
    }
}

/// Reads what a NATS server sends, one operation at a time, from whatever part of the
/// stream has arrived: it asks for more when an operation is not whole yet, and reads
/// nothing of a message's payload but its length and the CRLF after it (the caller slices
/// the payload out of its own buffer, uncopied).
///
/// Every line ends with CRLF; operation names are case-insensitive; arguments are separated
/// by spaces or tabs. A line is refused as soon as it cannot become an operation (its first
/// bytes name none, or it passes its limit without CRLF), before the rest arrives.
public struct NATSParser: Sendable {
    /// One operation read.
    public struct Parsed: Sendable {
        /// What it is.
        public var operation: NATSServerOperation
        /// How many bytes of the input it took, payload and final CRLF included.
        public var length: Int
        /// Where the payload of a message is in the input (empty for other operations).
        public var payload: Range<Int>
    }

    /// The bounds.
    public var limits: NATSLimits
    /// Bytes of the stream taken by the operations read so far: where the next one starts.
    public private(set) var offset = 0

    /// A parser at the start of a connection's stream.
    public init(limits: NATSLimits = .default) {
        self.limits = limits
    }

    private static let names: [(name: [UInt8], operation: Name)] = [
        (Array("INFO".utf8), .info), (Array("MSG".utf8), .msg), (Array("HMSG".utf8), .hmsg), (Array("PING".utf8), .ping),
        (Array("PONG".utf8), .pong), (Array("+OK".utf8), .ok), (Array("-ERR".utf8), .err),
    ]

    private enum Name {
        case info, msg, hmsg, ping, pong, ok, err
    }

    /// The next operation at the start of `bytes` (the unread rest of the stream), or nil
    /// when `bytes` does not hold a whole one yet. ``offset`` moves past what it returns.
    /// - Throws: ``NATSProtocolError`` at its offset in the stream; the connection cannot
    ///   be read any further.
    public mutating func next(in bytes: UnsafeRawBufferPointer) throws(NATSProtocolError) -> Parsed? {
        guard !bytes.isEmpty else { return nil }
        let name = try operationName(bytes)
        guard let name else { return nil }
        let limit = name == .info ? limits.maxInfoLine : limits.maxControlLine
        guard let lineEnd = Self.lineEnd(in: bytes, limit: limit) else {
            if bytes.count > limit + 1 {
                throw NATSProtocolError(.lineTooLong, offset: offset, "a line over \(limit) bytes without CRLF")
            }
            return nil
        }
        guard lineEnd > 0, bytes[lineEnd - 1] == 13 else {
            throw NATSProtocolError(.malformedArguments, offset: offset + lineEnd, "a line ended by LF without CR")
        }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<(lineEnd - 1)])
        let arguments = Self.words(line).dropFirst()
        let lineLength = lineEnd + 1
        let operation: NATSServerOperation
        switch name {
        case .ping, .pong, .ok:
            guard arguments.isEmpty else {
                throw NATSProtocolError(.malformedArguments, offset: offset, "\(name) with arguments")
            }
            operation = name == .ping ? .ping : name == .pong ? .pong : .ok
        case .err:
            let start = arguments.first?.lowerBound ?? line.count
            var text = Array(line[start...])
            while text.last == 0x20 || text.last == 0x09 { text.removeLast() }
            if text.count >= 2, text.first == UInt8(ascii: "'"), text.last == UInt8(ascii: "'") {
                text = Array(text.dropFirst().dropLast())
            }
            operation = .error(String(decoding: text, as: UTF8.self))
        case .info:
            guard let start = arguments.first?.lowerBound else {
                throw NATSProtocolError(.invalidInfo, offset: offset, "INFO without its JSON")
            }
            operation = .info(try NATSServerInfo(json: Array(line[start...]), offset: offset + start))
        case .msg, .hmsg:
            return try message(name, line: line, arguments: Array(arguments), lineLength: lineLength, in: bytes)
        }
        offset += lineLength
        return Parsed(operation: operation, length: lineLength, payload: lineLength..<lineLength)
    }

    /// A MSG or HMSG whose line ends at `lineLength`, once its payload is in `bytes`.
    private mutating func message(
        _ name: Name, line: UnsafeRawBufferPointer, arguments: [Range<Int>], lineLength: Int, in bytes: UnsafeRawBufferPointer
    ) throws(NATSProtocolError) -> Parsed? {
        let sizes = name == .msg ? 1 : 2
        guard arguments.count == 2 + sizes || arguments.count == 3 + sizes else {
            throw NATSProtocolError(
                .malformedArguments, offset: offset,
                "\(name == .msg ? "MSG" : "HMSG") with \(arguments.count) arguments, not \(2 + sizes) or \(3 + sizes)")
        }
        let subject = try text(line, arguments[0], "subject")
        let sidRange = arguments[1]
        guard let sid = Self.decimal(line, sidRange, maximumDigits: 20) else {
            throw NATSProtocolError(
                .malformedArguments, offset: offset + sidRange.lowerBound, "a subscription id that is not a decimal number")
        }
        let replyTo = arguments.count == 3 + sizes ? try text(line, arguments[2], "reply subject") : nil
        let total = try size(line, arguments[arguments.count - 1])
        let headerLength = sizes == 2 ? try size(line, arguments[arguments.count - 2]) : 0
        guard headerLength <= total else {
            throw NATSProtocolError(
                .payloadTooLarge, offset: offset + arguments[arguments.count - 2].lowerBound,
                "a header of \(headerLength) bytes in a message of \(total)")
        }
        let end = lineLength + total
        guard bytes.count >= end + 2 else { return nil }
        guard bytes[end] == 13, bytes[end + 1] == 10 else {
            throw NATSProtocolError(.missingTerminator, offset: offset + end, "a message of \(total) bytes not followed by CRLF")
        }
        var headers: NATSHeaders?
        if name == .hmsg {
            headers = try NATSHeaders.decode(
                Array(bytes[lineLength..<(lineLength + headerLength)]), offset: offset + lineLength, limits: limits)
        }
        let head = NATSMessageHead(
            subject: subject, subscription: sid, replyTo: replyTo, headers: headers, payloadLength: total - headerLength)
        offset += end + 2
        return Parsed(operation: .message(head), length: end + 2, payload: (lineLength + headerLength)..<end)
    }

    /// The operation the line at the start of `bytes` names, nil while too few bytes have
    /// arrived to tell.
    private func operationName(_ bytes: UnsafeRawBufferPointer) throws(NATSProtocolError) -> Name? {
        var undecided = false
        for (name, operation) in Self.names {
            var matches = true
            for (index, letter) in name.enumerated() {
                guard index < bytes.count else {
                    undecided = undecided || matches
                    matches = false
                    break
                }
                let byte = bytes[index]
                // ASCII letters compare without case.
                let upper = (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
                if upper != letter {
                    matches = false
                    break
                }
            }
            guard matches else { continue }
            // The name must end at a blank or the line's end.
            guard name.count < bytes.count else { return nil }
            let after = bytes[name.count]
            if after == 0x20 || after == 0x09 || after == 13 || after == 10 { return operation }
        }
        if undecided { return nil }
        let shown = bytes.prefix(8).map { (0x21...0x7E).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }
        throw NATSProtocolError(
            .unknownOperation, offset: offset, "a line starting \(shown.joined()), no operation a server sends")
    }

    /// The index of the first LF within `limit + 2` bytes.
    private static func lineEnd(in bytes: UnsafeRawBufferPointer, limit: Int) -> Int? {
        let reach = min(bytes.count, limit + 2)
        var index = 0
        while index < reach {
            if bytes[index] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// The index of the CR of the first CRLF in `bytes[from..<limit]`.
    static func crlf(in bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int? {
        var index = start
        while index + 1 < limit {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// The blank-separated words of `line`, as ranges.
    private static func words(_ line: UnsafeRawBufferPointer) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var start: Int?
        for index in 0..<line.count {
            let blank = line[index] == 0x20 || line[index] == 0x09
            if blank, let first = start {
                words.append(first..<index)
                start = nil
            } else if !blank, start == nil {
                start = index
            }
        }
        if let first = start { words.append(first..<line.count) }
        return words
    }

    private func text(_ line: UnsafeRawBufferPointer, _ range: Range<Int>, _ what: String) throws(NATSProtocolError) -> String {
        guard let text = String(validating: line[range], as: UTF8.self) else {
            throw NATSProtocolError(.malformedArguments, offset: offset + range.lowerBound, "a \(what) that is not UTF-8")
        }
        return text
    }

    /// A byte count argument, within ``NATSLimits/maxPayload``.
    private func size(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) throws(NATSProtocolError) -> Int {
        guard let value = Self.decimal(line, range, maximumDigits: 19) else {
            if range.count > 19, line[range].allSatisfy({ (0x30...0x39).contains($0) }) {
                throw NATSProtocolError(.payloadTooLarge, offset: offset + range.lowerBound, "a size of \(range.count) digits")
            }
            throw NATSProtocolError(.malformedArguments, offset: offset + range.lowerBound, "a size that is not a decimal number")
        }
        guard value <= UInt64(limits.maxPayload) else {
            throw NATSProtocolError(
                .payloadTooLarge, offset: offset + range.lowerBound, "a message of \(value) bytes, over \(limits.maxPayload)")
        }
        return Int(value)
    }

    /// Decimal digits, at most `maximumDigits` of them, as a number that fits 64 bits.
    private static func decimal(_ line: UnsafeRawBufferPointer, _ range: Range<Int>, maximumDigits: Int) -> UInt64? {
        guard !range.isEmpty, range.count <= maximumDigits else { return nil }
        var value: UInt64 = 0
        for index in range {
            let byte = line[index]
            guard (0x30...0x39).contains(byte) else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }
}

extension NATSParser {
    /// Every whole operation at the start of `bytes`, each message with its payload copied
    /// out, how many bytes they took, and the error that stopped the reading, if one did
    /// (the operations before it are kept: what was read is not lost); for tests, tools and
    /// the fuzz target.
    public mutating func operations(in bytes: [UInt8]) -> (
        operations: [(NATSServerOperation, payload: [UInt8])], consumed: Int, error: NATSProtocolError?
    ) {
        var found: [(NATSServerOperation, payload: [UInt8])] = []
        var consumed = 0
        while true {
            let result = bytes.withUnsafeBytes { all in
                Result { () throws(NATSProtocolError) in try self.next(in: UnsafeRawBufferPointer(rebasing: all[consumed...])) }
            }
            switch result {
            case .failure(let error):
                return (found, consumed, error)
            case .success(nil):
                return (found, consumed, nil)
            case .success(let next?):
                found.append(
                    (next.operation, Array(bytes[(consumed + next.payload.lowerBound)..<(consumed + next.payload.upperBound)])))
                consumed += next.length
            }
        }
    }
}
