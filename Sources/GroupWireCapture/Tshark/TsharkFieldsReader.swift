import Foundation
import GroupWireJSON

/// Reads the relay's WebSocket messages as tshark prints them from a network capture,
/// and turns each frame the relay delivered into a ``CapturePacket``.
///
/// The recipe (Spec/CAPTURE.md): `tshark -r relay.pcapng -d tcp.port==PORT,http -T fields
/// -e tcp.stream -e data.data` (or `-e data.data` alone). Each line is one TCP segment:
/// an optional TCP stream number and a tab, then the hex of the WebSocket messages in it,
/// separated by commas; each message is the relay's routing header and a frame
/// (Spec/RELAY.md).
///
/// Only deliveries (type `0x02`, relay to client) become packets: they carry the frame
/// exactly as sent and its true source, as the receiver got it. Sends (client to relay)
/// are the same frames before the relay stamped them and would count each twice;
/// membership messages carry no frames; both are counted and skipped. With the stream
/// column, a delivery's receiver is the connection (a UUID made from the stream number),
/// so a message to several participants counts once per receiver; without it, the copies
/// of one forwarded frame (same source, same bytes, one after another in the capture) are
/// counted once.
///
/// Lines are read as they arrive; a line may hold at most ``maxLineLength`` characters.
public struct TsharkFieldsReader: Sendable {
    /// The longest line accepted: 64 MiB of text.
    public static let maxLineLength = 64 << 20

    private let path: String
    private var pending: [UInt8] = []
    /// Where the unread text starts in `pending`, and how far it has been searched for a
    /// newline (so a long line is scanned once however many chunks it comes in).
    private var start = 0
    private var scanned = 0
    private var ended = false
    private var failed = false
    private var line = 0
    private var number = 0
    /// Decoded message bytes so far: the offsets reported (as for hex dumps).
    private var decodedBytes = 0
    private var queue: [CapturePacket] = []
    private var queueStart = 0
    /// The last frames delivered per source (checksum and length), to recognise copies.
    private var recent: [UUID: [UInt64]] = [:]

    /// Messages skipped: sends (counted by their deliveries) and membership messages.
    public private(set) var skippedMessages = 0
    /// Deliveries skipped as copies of the one before for another receiver.
    public private(set) var skippedCopies = 0

    /// Creates a reader.
    /// - Parameter path: the input's name in errors.
    public init(path: String) {
        self.path = path
    }

    /// Whether `prefix` looks like tshark's fields output of relay messages: its first
    /// line (after `#` comments) is hex and commas only, after an optional stream number
    /// and tab, and starts with a relay message type.
    public static func looksLikeFields(_ prefix: [UInt8]) -> Bool {
        guard
            let text = String(bytes: prefix.prefix(4096), encoding: .utf8) ?? String(bytes: prefix.prefix(4095), encoding: .utf8)
        else { return false }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            var line = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if line.isEmpty || line.hasPrefix("#") { continue }
            if let tab = line.firstIndex(of: "\t") {
                guard line[..<tab].allSatisfy(\.isNumber), !line[..<tab].isEmpty else { return false }
                line = String(line[line.index(after: tab)...])
                if line.isEmpty { continue }  // a segment without WebSocket data
            }
            guard line.count >= 4, line.allSatisfy({ $0.isHexDigit || $0 == "," }) else { return false }
            return ["01", "02", "03", "10", "11", "12", "20"].contains(line.prefix(2).lowercased())
        }
        return false
    }

    /// Adds input bytes.
    public mutating func append(_ bytes: [UInt8]) {
        if start > 0, start >= pending.count / 2 {
            pending.removeFirst(start)
            scanned -= start
            start = 0
        }
        pending += bytes
    }

    /// Says that the input has ended.
    public mutating func finish() {
        ended = true
    }

    /// The next delivered frame; nil when more input is needed, or at the end.
    /// - Throws: ``FrameFileError`` (``FrameFileError/Kind/badHexDigit``,
    ///   ``FrameFileError/Kind/oddHexDigits``, ``FrameFileError/Kind/fileTooLarge`` for an
    ///   overlong line) with its line and column; the packets before it have been returned.
    public mutating func next() throws(FrameFileError) -> CapturePacket? {
        while true {
            if queueStart < queue.count {
                defer { queueStart += 1 }
                return queue[queueStart]
            }
            queue.removeAll(keepingCapacity: true)
            queueStart = 0
            guard !failed else { return nil }
            guard let newline = pending[scanned...].firstIndex(of: 0x0A) else {
                scanned = pending.count
                if pending.count - start > Self.maxLineLength {
                    failed = true
                    throw FrameFileError(
                        .fileTooLarge, path: path, line: line + 1, column: 1,
                        "a line longer than \(Self.maxLineLength) characters")
                }
                guard ended, start < pending.count else { return nil }
                let last = pending[start...]
                start = pending.count
                try parse(last)
                continue
            }
            let text = pending[start..<newline]
            start = newline + 1
            scanned = start
            try parse(text)
        }
    }

    private mutating func parse(_ bytes: ArraySlice<UInt8>) throws(FrameFileError) {
        line += 1
        var content = bytes
        if content.last == 0x0D { content = content.dropLast() }
        if content.isEmpty || content.first == UInt8(ascii: "#") { return }
        var receiver: UUID?
        var column = 1
        if let tab = content.firstIndex(of: 0x09) {
            guard let stream = UInt64(String(decoding: content[..<tab], as: UTF8.self)) else {
                failed = true
                throw FrameFileError(
                    .badHexDigit, path: path, line: line, column: 1, "expected a TCP stream number before the tab")
            }
            receiver = Self.streamParticipant(stream)
            column += tab - content.startIndex + 1
            content = content[(tab + 1)...]
            // A segment without WebSocket data (a TCP acknowledgement, the HTTP upgrade).
            if content.isEmpty { return }
        }
        for piece in content.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let message = try decode(piece, column: column)
            column += piece.count + 1
            handle(message, receiver: receiver)
        }
    }

    private mutating func decode(_ hex: ArraySlice<UInt8>, column: Int) throws(FrameFileError) -> [UInt8] {
        guard hex.count % 2 == 0 else {
            failed = true
            throw FrameFileError(
                .oddHexDigits, path: path, line: line, column: column, "a message of \(hex.count) hex digits, not whole bytes")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            guard let high = Hex.value(of: hex[index]), let low = Hex.value(of: hex[index + 1]) else {
                failed = true
                let bad = Hex.value(of: hex[index]) == nil ? index : index + 1
                throw FrameFileError(
                    .badHexDigit, path: path, line: line, column: column + bad - hex.startIndex,
                    "'\(Character(Unicode.Scalar(hex[bad])))' is not a hex digit")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private mutating func handle(_ message: [UInt8], receiver: UUID?) {
        let start = decodedBytes
        decodedBytes += message.count
        guard message.count > 17, message[0] == 0x02 else {
            skippedMessages += 1
            return
        }
        let b = Array(message[1..<17])
        let source = UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        let frame = Array(message[17...])
        if receiver == nil {
            // The copy of a forwarded frame for another receiver: same source, same bytes.
            let fingerprint = Self.fingerprint(frame)
            var seen = recent[source, default: []]
            if seen.contains(fingerprint) {
                skippedCopies += 1
                return
            }
            seen.append(fingerprint)
            if seen.count > 64 { seen.removeFirst(seen.count - 64) }
            recent[source] = seen
        }
        number += 1
        let record = CaptureRecord(
            timestamp: 0, direction: .received, local: receiver ?? CaptureRecord.noParticipant, peer: source,
            frame: frame)
        queue.append(
            CapturePacket(
                number: number, offset: start, record: record, frameOffset: start + 17, problem: nil, problemOffset: nil))
    }

    /// A participant id standing for TCP stream `stream` (the connection of one receiver).
    public static func streamParticipant(_ stream: UInt64) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes[0] = 0x73  // "s"
        for index in 0..<8 { bytes[15 - index] = UInt8(truncatingIfNeeded: stream >> UInt64(8 * index)) }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
                bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// FNV-1a of the frame and its length: equal frames, equal fingerprints.
    private static func fingerprint(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash ^ UInt64(bytes.count) << 48
    }

}
