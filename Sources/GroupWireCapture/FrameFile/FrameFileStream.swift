import GroupWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One event of a frame file: a frame or a rejected run (see `FrameStreamReader`),
/// with where it lies in a hex file and, for a frame, its header fields as stored.
public struct FrameFileEvent: Sendable {
    /// The frame or rejected run; offsets count frame bytes (decoded bytes for hex files).
    public let event: FrameStreamEvent
    /// The line and column of the event's first byte, for hex files.
    public let location: HexDump.Location?
    /// The line and column of the error's offset, for hex files.
    public let errorLocation: HexDump.Location?
    /// The header fields as stored, for a valid frame.
    public let header: FrameHeaderFields?
    /// The capture packet the frame came in (its number, direction, participants, room),
    /// for pcapng and pcap input.
    public let packet: CapturePacket?

    init(
        event: FrameStreamEvent, location: HexDump.Location? = nil, errorLocation: HexDump.Location? = nil,
        header: FrameHeaderFields?, packet: CapturePacket? = nil
    ) {
        self.event = event
        self.location = location
        self.errorLocation = errorLocation
        self.header = header
        self.packet = packet
    }
}

/// Reads a frame file, or standard input, as a stream: raw frames back to back, a hex
/// dump of them (plain hex, the lines `groupwire demo --hex` writes, `xxd`, `hexdump -C`),
/// or a pcapng or pcap capture (one frame per packet, ``CapturePacketReader``).
///
/// Every command that reads frames reads them through this type: input is read in chunks of
/// ``chunkSize`` bytes and each frame is reported as soon as its bytes have arrived, so
/// memory stays flat however large the input (one chunk, one candidate frame of at most
/// `Limits.maxFrameSize` bytes and one hex line), and the first result is ready
/// as soon as the first frame has been read.
///
/// The format is detected from the first bytes read (``FrameFileFormat/detect(prefix:)``)
/// unless it is given.
public final class FrameFileStream {
    /// The bytes read from the input at a time (64 KiB).
    public static let chunkSize = 1 << 16

    private enum Source {
        case descriptor(Int32, closes: Bool)
        case memory([UInt8], position: Int)
    }

    /// The input as the user named it.
    public let path: String
    /// The format the input is read as.
    public private(set) var format: FrameFileFormat = .raw
    /// The number of frame bytes read so far (decoded bytes for hex input).
    public private(set) var byteCount = 0
    /// Relay messages of tshark fields input that are not deliveries, and deliveries that
    /// copy the one before for another receiver (see ``TsharkFieldsReader``).
    public var skippedRelayMessages: (messages: Int, copies: Int) {
        (fields?.skippedMessages ?? 0, fields?.skippedCopies ?? 0)
    }
    /// The first bytes of the input (up to 16), to name what it is when it is nothing known.
    public let prefix: [UInt8]
    /// Called before each read of the input after the first, when the events read so far
    /// have all been returned: a command flushes its output here, so that what it printed
    /// is seen while it waits for more input.
    public var willRead: (() -> Void)?

    private var source: Source
    private var reader: FrameStreamReader
    private var hex: HexDumpReader?
    private var packets: CapturePacketReader?
    private var fields: TsharkFieldsReader?
    private let decoder: FrameDecoder
    /// Bytes read for format detection, not yet passed on.
    private var firstChunk: [UInt8]?
    /// A problem in the input, thrown once the frames before it have been reported.
    private var failure: FrameFileError?
    /// Whether the input has reached its end.
    private var inputEnded = false
    /// Whether every byte has been passed to the frame reader and it has been told so.
    private var ended = false

    /// Opens the file at `path`.
    /// - Parameters:
    ///   - path: the file.
    ///   - format: the format to read it as; nil detects it.
    ///   - limits: the limits frames are checked against.
    /// - Throws: ``FrameFileError`` when the file is missing or cannot be read.
    public convenience init(path: String, format: FrameFileFormat? = nil, limits: Limits = .default) throws(FrameFileError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw FrameFileError(.fileNotFound, path: path, "no such file") }
            throw FrameFileError(.unreadable, path: path, "cannot open the file (\(String(cString: strerror(code))))")
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw FrameFileError(.unreadable, path: path, "is a directory, not a frame file")
        }
        let first: [UInt8]
        do throws(FrameFileError) {
            first = try Self.readFirst(descriptor, name: path, detecting: format == nil)
        } catch {
            close(descriptor)
            throw error
        }
        self.init(source: .descriptor(descriptor, closes: true), first: first, path: path, format: format, limits: limits)
    }

    /// Reads an open file descriptor (standard input is 0) to its end; it is not closed.
    /// - Parameters:
    ///   - descriptor: the descriptor to read.
    ///   - name: the input's name in diagnostics (`standard input`).
    ///   - format: the format to read it as; nil detects it.
    ///   - limits: the limits frames are checked against.
    /// - Throws: ``FrameFileError`` when the input cannot be read.
    public convenience init(descriptor: Int32, name: String, format: FrameFileFormat? = nil, limits: Limits = .default)
        throws(FrameFileError)
    {
        let first = try Self.readFirst(descriptor, name: name, detecting: format == nil)
        self.init(source: .descriptor(descriptor, closes: false), first: first, path: name, format: format, limits: limits)
    }

    /// Reads frame file contents held in memory, chunk by chunk as it would a file.
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - path: the name used in diagnostics.
    ///   - format: the format to read it as; nil detects it.
    ///   - limits: the limits frames are checked against.
    ///   - maxDumpBytes: the most bytes a hex dump may stand for (its `*` lines expanded);
    ///     more is a ``FrameFileError/Kind/badRepeat`` error.
    public convenience init(
        bytes: [UInt8], path: String, format: FrameFileFormat? = nil, limits: Limits = .default,
        maxDumpBytes: Int = HexDump.defaultMaxBytes
    ) {
        let end = min(bytes.count, Self.chunkSize)
        self.init(
            source: .memory(bytes, position: end), first: Array(bytes[..<end]), path: path, format: format,
            limits: limits, maxDumpBytes: maxDumpBytes)
    }

    /// Starts reading `source`, whose first chunk `first` has been read.
    private init(
        source: Source, first: [UInt8], path: String, format: FrameFileFormat?, limits: Limits,
        maxDumpBytes: Int = HexDump.defaultMaxBytes
    ) {
        self.source = source
        self.path = path
        prefix = Array(first.prefix(16))
        reader = FrameStreamReader(limits: limits)
        decoder = FrameDecoder(limits: limits)
        self.format = format ?? FrameFileFormat.detect(prefix: first)
        firstChunk = first
        if self.format == .hex {
            // Bounded: a `*` line may otherwise stand for 2^60 bytes of repetition.
            hex = HexDumpReader(path: path, maxBytes: maxDumpBytes)
        }
        if self.format.isCapture {
            packets = CapturePacketReader(format: self.format, path: path)
        }
        if self.format == .tsharkFields {
            fields = TsharkFieldsReader(path: path)
        }
    }

    deinit {
        closeSource()
    }

    /// The next frame or rejected run, or nil at the end of the input.
    /// - Throws: ``FrameFileError`` when the input cannot be read, or is a hex dump with a
    ///   bad digit (with its line and column); the events before it have been returned.
    public func next() throws(FrameFileError) -> FrameFileEvent? {
        try next(inPlace: { _, _, _ in false })
    }

    /// Like ``next()``, but offers each packet of a pcapng or pcap capture where it lies to
    /// `inPlace` first (``CapturePacketReader/next(inPlace:)``), with the decoder (and so
    /// the limits) ``next()`` reads its frame with; returns the event of the first packet
    /// it leaves, or of the next frame of other input. Nil at the end.
    package func next(
        inPlace: (_ buffer: [UInt8], _ packet: CapturePacketReader.LocatedPacket, _ decoder: FrameDecoder) -> Bool
    ) throws(FrameFileError) -> FrameFileEvent? {
        let decoder = decoder
        while true {
            // The readers change in place (optional chaining on the stored optional), neither
            // copied out nor back: a copy of a reader retains every buffer it holds, per packet.
            if packets != nil {
                if let packet = try packets?.next(inPlace: { buffer, packet in inPlace(buffer, packet, decoder) }) ?? nil {
                    return packetEvent(packet)
                }
            } else if fields != nil {
                if let packet = try fields?.next() ?? nil {
                    return packetEvent(packet)
                }
            } else if let event = reader.nextEvent() {
                return fileEvent(event)
            }
            if ended { return nil }
            if var dump = hex, dump.hasBytes {
                hex = nil  // keeps the dump reader uniquely referenced while it changes
                // A `*` line may stand for many bytes: pass them on a chunk at a time.
                feed(dump.takeBytes(limit: Self.chunkSize))
                hex = dump
                continue
            }
            if let failure {
                // The frames before the bad line have all been reported.
                throw failure
            }
            if inputEnded {
                packets?.finish()
                fields?.finish()
                reader.finish()
                ended = true
                continue
            }
            let chunk: [UInt8]
            if let first = firstChunk {
                chunk = first
                firstChunk = nil
            } else {
                willRead?()
                chunk = try readChunk()
            }
            if chunk.isEmpty { inputEnded = true }
            guard var dump = hex else {
                feed(chunk)
                continue
            }
            hex = nil
            defer { hex = dump }
            do throws(FrameFileError) {
                if chunk.isEmpty { try dump.finish() } else { try dump.append(chunk) }
            } catch {
                failure = error
            }
        }
    }

    private func feed(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        byteCount += bytes.count
        if packets != nil {
            packets?.append(bytes)
        } else if fields != nil {
            fields?.append(bytes)
        } else {
            reader.append(bytes)
        }
    }

    /// The frame in a capture packet, decoded; offsets are file offsets.
    private func packetEvent(_ packet: CapturePacket) -> FrameFileEvent {
        guard let record = packet.record, let frameOffset = packet.frameOffset else {
            let error = WireError(.invalidValue, offset: packet.problemOffset ?? packet.offset, packet.problem ?? "bad packet")
            return FrameFileEvent(
                event: FrameStreamEvent(offset: packet.offset, length: 0, result: .failure(error)), header: nil,
                packet: packet)
        }
        let result: Result<Frame, WireError>
        do throws(WireError) {
            result = .success(try decoder.decode(record.frame))
        } catch {
            result = .failure(error.shifted(by: frameOffset))
        }
        let event = FrameStreamEvent(offset: frameOffset, length: record.frame.count, result: result)
        let header = event.frame == nil ? nil : FrameHeaderFields(frameBytes: record.frame[...])
        return FrameFileEvent(event: event, header: header, packet: packet)
    }

    private func fileEvent(_ event: FrameStreamEvent) -> FrameFileEvent {
        let header = event.frame == nil ? nil : reader.bytes(of: event).flatMap(FrameHeaderFields.init(frameBytes:))
        var location: HexDump.Location?
        var errorLocation: HexDump.Location?
        if var dump = hex {
            location = dump.location(ofByte: event.offset)
            if let error = event.error {
                errorLocation = dump.location(ofByte: min(error.offset ?? event.offset, max(0, byteCount - 1)))
            }
            // Later events and their errors lie at or after this event's end.
            hex = nil
            dump.forgetLocations(before: event.offset + event.length)
            hex = dump
        }
        return FrameFileEvent(event: event, location: location, errorLocation: errorLocation, header: header)
    }

    /// Up to ``chunkSize`` bytes of input; empty at its end.
    private func readChunk() throws(FrameFileError) -> [UInt8] {
        switch source {
        case .memory(let bytes, let position):
            let end = min(bytes.count, position + Self.chunkSize)
            source = .memory(bytes, position: end)
            return Array(bytes[position..<end])
        case .descriptor(let descriptor, _):
            return try Self.read(descriptor, name: path)
        }
    }

    /// The first bytes of `descriptor`: one read, or when the format is to be detected, reads
    /// until the bytes decide it (``FrameFileFormat/decides(prefix:)``), reach
    /// ``FrameFileFormat/detectionLength`` or the input ends, so that a stream that arrives in
    /// small pieces (a pipe) is detected as the same bytes in a file are.
    private static func readFirst(_ descriptor: Int32, name: String, detecting: Bool) throws(FrameFileError) -> [UInt8] {
        var first = try read(descriptor, name: name)
        guard detecting else { return first }
        var decided = FrameFileFormat.decides(prefix: first)
        while !first.isEmpty, first.count < FrameFileFormat.detectionLength, !decided {
            let more = try read(descriptor, name: name)
            if more.isEmpty { break }
            // Plain ASCII text after text that ends in ASCII cannot decide anything: only
            // then is the whole prefix looked at again (a pipe that trickles text stays linear).
            let plain = more.allSatisfy { (0x20..<0x7F).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            let cleanEnd = first.suffix(3).allSatisfy { $0 < 0x80 }
            first += more
            if !(plain && cleanEnd) { decided = FrameFileFormat.decides(prefix: first) }
        }
        return first
    }

    /// Up to ``chunkSize`` bytes from `descriptor`; empty at its end.
    private static func read(_ descriptor: Int32, name: String) throws(FrameFileError) -> [UInt8] {
        while true {
            var failed = false
            // Not zeroed first: the read fills what is kept, and only that is initialized.
            let chunk = [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, initialized in
                let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
                failed = count < 0
                initialized = max(0, count)
            }
            if !failed { return chunk }
            if errno == EINTR { continue }
            throw FrameFileError(.unreadable, path: name, "cannot read (\(String(cString: strerror(errno))))")
        }
    }

    private func closeSource() {
        if case .descriptor(let descriptor, closes: true) = source {
            close(descriptor)
            source = .memory([], position: 0)
        }
    }
}

/// `read(2)`, named apart from methods called `read`; the one place the tools read a
/// descriptor.
package func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
    #else
        Darwin.read(descriptor, buffer, count)
    #endif
}

extension FrameFileStream {
    /// Opens the file at `path`, or standard input when `path` is `-`.
    /// - Throws: ``FrameFileError`` when the file is missing or cannot be read.
    public static func reading(_ path: String, format: FrameFileFormat? = nil, limits: Limits = .default) throws(FrameFileError)
        -> FrameFileStream
    {
        if path == "-" {
            return try FrameFileStream(descriptor: 0, name: "standard input", format: format, limits: limits)
        }
        return try FrameFileStream(path: path, format: format, limits: limits)
    }
}
