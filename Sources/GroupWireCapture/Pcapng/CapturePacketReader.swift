import GroupWireJSON

/// One packet of a pcapng or pcap capture: where it lies in the file and the record it
/// holds, or why its data is not one.
public struct CapturePacket: Sendable, Hashable {
    /// The packet's number in the file, from 1 (as Wireshark counts).
    public let number: Int
    /// The byte offset of the packet data (the pseudo-header) in the file.
    public let offset: Int
    /// The record, when the packet data starts with a good pseudo-header.
    public let record: CaptureRecord?
    /// The byte offset of the frame in the file, when there is a record.
    public let frameOffset: Int?
    /// Why the packet holds no usable record, or was captured cut short; nil when whole.
    public let problem: String?
    /// The file offset `problem` refers to.
    public let problemOffset: Int?
}

/// Cuts pcapng (any byte order, several sections and interfaces) and classic pcap
/// (microsecond or nanosecond, either byte order) input into packets as its bytes arrive.
///
/// Bytes are pushed with ``append(_:)``; ``next()`` returns a packet as soon as its block
/// is complete. At most one block is buffered, and a block may not claim more than
/// ``maxBlockLength`` bytes: the reader never allocates from a length it has read, it only
/// keeps what arrived. A structural problem (a bad block length, a file that ends inside a
/// block, a link type other than ``CaptureRecord/linkType``) ends the input with a
/// ``FrameFileError`` after every packet before it has been returned.
public struct CapturePacketReader: Sendable {
    /// The largest block (pcapng) or record (pcap) accepted: 16 MiB.
    public static let maxBlockLength = 16 << 20

    /// The container.
    public let format: FrameFileFormat
    /// `format == .pcap`, decided once: comparing formats compares their names, a string
    /// comparison the reader would otherwise make for every packet.
    private let isPcap: Bool
    private let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    /// The file offset of `buffer[0]`.
    private var base = 0
    private var ended = false
    private var failed = false
    private var number = 0
    /// The room of the packet before (most packets of a capture name one room).
    private var lastRoom: String?
    // pcapng
    private var bigEndian = false
    private var sawSection = false
    private var interfaces: [(linkType: UInt16, resolution: UInt8, snapLength: Int)] = []
    // pcap
    private var pcapHeaderRead = false
    private var pcapNanoseconds = false

    /// Creates a reader.
    /// - Parameters:
    ///   - format: ``FrameFileFormat/pcapng`` or ``FrameFileFormat/pcap``.
    ///   - path: the input's name in errors.
    public init(format: FrameFileFormat, path: String) {
        self.format = format
        isPcap = format == .pcap
        self.path = path
    }

    /// Adds input bytes.
    public mutating func append(_ bytes: [UInt8]) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            base += start
            start = 0
        }
        buffer += bytes
    }

    /// Says that the input has ended.
    public mutating func finish() {
        ended = true
    }

    /// The next packet; nil when more input is needed, or at the end.
    /// - Throws: ``FrameFileError`` of kind ``FrameFileError/Kind/badCapture`` or
    ///   ``FrameFileError/Kind/unknownLinkType`` at the first structural problem; nothing
    ///   more is returned after it.
    public mutating func next() throws(FrameFileError) -> CapturePacket? {
        guard let located = try nextLocated() else { return nil }
        return packet(located)
    }

    /// A packet's data where it lies in the reader's buffer, before anything is made of it.
    package struct LocatedPacket {
        /// The packet's number in the file, from 1.
        package var number: Int
        /// Where the packet data (pseudo-header and frame) lies in the buffer.
        package var data: Range<Int>
        /// The file offset of the packet data.
        package var dataOffset: Int
        /// The packet's original length (more than `data.count` when it was cut).
        package var original: Int
        /// Its time in nanoseconds since 1970.
        package var timestamp: UInt64
    }

    /// Like ``next()``, but first offers each packet where it lies to `handle`, which gets
    /// the reader's buffer and where the packet is in it, and returns whether it used the
    /// packet. Goes on through the packets buffered while `handle` takes them (one call
    /// for a run of them, not one per packet); returns the first one it leaves, made a
    /// ``CapturePacket``, or nil when more input is needed, or at the end.
    package mutating func next(inPlace handle: (_ buffer: [UInt8], _ packet: LocatedPacket) -> Bool) throws(FrameFileError)
        -> CapturePacket?
    {
        while let located = try nextLocated() {
            guard handle(buffer, located) else { return packet(located) }
            number = located.number
        }
        return nil
    }

    private mutating func nextLocated() throws(FrameFileError) -> LocatedPacket? {
        guard !failed else { return nil }
        do throws(FrameFileError) {
            return isPcap ? try nextPcap() : try nextPcapng()
        } catch {
            failed = true
            throw error
        }
    }

    private var available: Int { buffer.count - start }
    private var offset: Int { base + start }

    private func error(_ kind: FrameFileError.Kind, at offset: Int, _ message: String) -> FrameFileError {
        FrameFileError(kind, path: path, offset: offset, message)
    }

    /// Whether `count` bytes are buffered; at the end of input, throws when some but not
    /// all are, naming `what`.
    /// The common answer (yes) is inline; the rest is a call.
    @inline(__always) private func have(_ count: Int, what: StaticString) throws(FrameFileError) -> Bool {
        if available >= count { return true }
        return try lacking(count, what: what)
    }

    private func lacking(_ count: Int, what: StaticString) throws(FrameFileError) -> Bool {
        if ended, available > 0 {
            throw error(
                .badCapture, at: offset,
                "the file ends \(available) byte\(available == 1 ? "" : "s") into \(what) of \(count) bytes")
        }
        return false
    }

    private func u16(_ at: Int, big: Bool) -> UInt16 {
        let a = UInt16(buffer[at]), b = UInt16(buffer[at + 1])
        return big ? a << 8 | b : b << 8 | a
    }

    private func u32(_ at: Int, big: Bool) -> UInt32 {
        precondition(at >= 0 && at <= buffer.count - 4, "u32 read past the buffer")
        let raw = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
        return big ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }

    // MARK: pcapng

    private mutating func nextPcapng() throws(FrameFileError) -> LocatedPacket? {
        while true {
            guard try have(12, what: "a block header") else { return nil }
            let type = u32(start, big: bigEndian)
            if type == 0x0A0D_0D0A {
                guard try have(12, what: "a section header") else { return nil }
                let magic = u32(start + 8, big: false)
                if magic == 0x1A2B_3C4D {
                    bigEndian = false
                } else if magic == 0x4D3C_2B1A {
                    bigEndian = true
                } else {
                    throw error(
                        .badCapture, at: offset + 8,
                        "section header byte-order magic is 0x\(Hex.digits(magic, width: 8)), neither 0x1a2b3c4d nor 0x4d3c2b1a")
                }
                sawSection = true
                interfaces = []
            } else if !sawSection {
                throw error(
                    .badCapture, at: offset,
                    "a pcapng file starts with a section header block (type 0x0a0d0d0a), not type 0x\(Hex.digits(type, width: 8))"
                )
            }
            let length = Int(u32(start + 4, big: bigEndian))
            guard length >= 12, length % 4 == 0 else {
                throw error(.badCapture, at: offset + 4, "block length \(length) is not a multiple of 4 of at least 12")
            }
            guard length <= Self.maxBlockLength else {
                throw error(
                    .badCapture, at: offset + 4,
                    "block length \(length) is over the \(Self.maxBlockLength) bytes this reader accepts")
            }
            guard try have(length, what: "a block") else { return nil }
            let trailing = Int(u32(start + length - 4, big: bigEndian))
            guard trailing == length else {
                throw error(
                    .badCapture, at: offset + length - 4,
                    "the block's trailing length \(trailing) differs from its leading length \(length)")
            }
            let blockStart = start
            let blockOffset = offset
            start += length
            switch type {
            case 0x0A0D_0D0A:
                guard length >= 28 else {
                    throw error(
                        .badCapture, at: blockOffset + 4,
                        "a section header block of \(length) bytes is shorter than its 28-byte minimum")
                }
                let major = u16(blockStart + 12, big: bigEndian)
                guard major == 1 else {
                    throw error(.badCapture, at: blockOffset + 12, "pcapng major version \(major); this reader knows version 1")
                }
            case 1:
                guard length >= 20 else {
                    throw error(
                        .badCapture, at: blockOffset + 4,
                        "an interface description block of \(length) bytes is shorter than its 20-byte minimum")
                }
                let linkType = u16(blockStart + 8, big: bigEndian)
                let snapLength = Int(u32(blockStart + 12, big: bigEndian))
                var resolution: UInt8 = 6
                var option = blockStart + 16
                let end = blockStart + length - 4
                while option + 4 <= end {
                    let code = u16(option, big: bigEndian)
                    let size = Int(u16(option + 2, big: bigEndian))
                    if code == 0 { break }
                    guard size <= end - option - 4 else {
                        throw error(
                            .badCapture, at: base + option + 2,
                            "interface option \(code) claims \(size) bytes; only \(end - option - 4) are left in its block")
                    }
                    if code == 9, size >= 1 { resolution = buffer[option + 4] }
                    // safe because: size <= end - option - 4 < maxBlockLength, so this stays far below Int.max.
                    option += 4 + (size + 3) / 4 * 4
                }
                interfaces.append((linkType, resolution, snapLength))
            case 6, 2:
                guard length >= 32 else {
                    throw error(
                        .badCapture, at: blockOffset + 4, "a packet block of \(length) bytes is shorter than its 32-byte minimum")
                }
                let interface = type == 6 ? Int(u32(blockStart + 8, big: bigEndian)) : Int(u16(blockStart + 8, big: bigEndian))
                let high = UInt64(u32(blockStart + 12, big: bigEndian))
                let low = UInt64(u32(blockStart + 16, big: bigEndian))
                let captured = Int(u32(blockStart + 20, big: bigEndian))
                let original = Int(u32(blockStart + 24, big: bigEndian))
                guard captured <= length - 32 else {
                    throw error(
                        .badCapture, at: blockOffset + 20,
                        "captured length \(captured) runs past the end of its \(length)-byte block")
                }
                guard interface < interfaces.count else {
                    throw error(
                        .badCapture, at: blockOffset + 8,
                        "the packet names interface \(interface); the section describes \(interfaces.count)")
                }
                let (linkType, resolution, _) = interfaces[interface]
                try checkLinkType(linkType, at: blockOffset + 8)
                return LocatedPacket(
                    number: number + 1, data: (blockStart + 28)..<(blockStart + 28 + captured), dataOffset: blockOffset + 28,
                    original: original, timestamp: Self.nanoseconds(high << 32 | low, resolution: resolution))
            case 3:
                guard length >= 16 else {
                    throw error(
                        .badCapture, at: blockOffset + 4,
                        "a simple packet block of \(length) bytes is shorter than its 16-byte minimum")
                }
                guard interfaces.count > 0 else {
                    throw error(.badCapture, at: blockOffset, "a simple packet block before any interface description block")
                }
                try checkLinkType(interfaces[0].linkType, at: blockOffset)
                let original = Int(u32(blockStart + 8, big: bigEndian))
                // The packet as captured: its original length, cut at the interface's snap
                // length (0: none); what follows in the block is padding to 32 bits.
                let snapLength = interfaces[0].snapLength
                let captured = min(original, length - 16, snapLength > 0 ? snapLength : Int.max)
                return LocatedPacket(
                    number: number + 1, data: (blockStart + 12)..<(blockStart + 12 + captured), dataOffset: blockOffset + 12,
                    original: original, timestamp: 0)
            default:
                continue  // statistics, name resolution, custom blocks: nothing to read
            }
        }
    }

    /// Every packet's check: the common answer (ours) is inline.
    @inline(__always) private func checkLinkType(_ linkType: UInt16, at offset: Int) throws(FrameFileError) {
        guard linkType != CaptureRecord.linkType else { return }
        try refuseLinkType(linkType, at: offset)
    }

    private func refuseLinkType(_ linkType: UInt16, at offset: Int) throws(FrameFileError) {
        let names: [UInt16: String] = [
            0: "BSD loopback", 1: "Ethernet", 101: "raw IP", 113: "Linux cooked", 276: "Linux cooked v2",
        ]
        var message = "link type \(linkType)"
        if let name = names[linkType] { message += " (\(name))" }
        message += " is not GroupWire's \(CaptureRecord.linkType) (LINKTYPE_USER0)"
        if names[linkType] != nil {
            message +=
                "; for a network capture of the relay, extract its WebSocket messages with "
                + "`tshark -r FILE -d tcp.port==PORT,http -T fields -e tcp.stream -e data.data` (PORT: the relay's) and validate that (docs: Spec/CAPTURE.md)"
        }
        throw error(.unknownLinkType, at: offset, message)
    }

    private mutating func packet(_ located: LocatedPacket) -> CapturePacket {
        let (data, dataOffset, original, timestamp) = (located.data, located.dataOffset, located.original, located.timestamp)
        number = located.number
        // Parsed where it lies in the buffer: only the frame is copied out.
        switch CaptureRecord.parse(buffer, in: data, timestamp: timestamp, room: &lastRoom) {
        case .failure(let problem):
            return CapturePacket(
                number: number, offset: dataOffset, record: nil, frameOffset: nil,
                problem: "packet \(number): bad pseudo-header: \(problem.message)", problemOffset: dataOffset + problem.offset)
        case .success(let record):
            let frameOffset = dataOffset + data.count - record.frame.count
            var problem: String?
            if original > data.count {
                problem = "packet \(number) was captured cut to \(data.count) of its \(original) bytes"
            }
            return CapturePacket(
                number: number, offset: dataOffset, record: record, frameOffset: frameOffset,
                problem: problem, problemOffset: problem == nil ? nil : dataOffset + data.count)
        }
    }

    /// A timestamp in units of `resolution` (pcapng's if_tsresol) in nanoseconds, clamped.
    static func nanoseconds(_ value: UInt64, resolution: UInt8) -> UInt64 {
        let exponent = Int(resolution & 0x7F)
        if resolution & 0x80 != 0 {
            // 2^-exponent seconds.
            let seconds = exponent >= 64 ? 0 : value >> UInt64(exponent)
            let fraction = exponent >= 64 ? value : value & ((1 << UInt64(exponent)) - 1)
            let scaled =
                exponent == 0 ? 0 : UInt64((Double(fraction) / Double(sign: .plus, exponent: exponent, significand: 1)) * 1e9)
            let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            let (sum, carry) = whole.addingReportingOverflow(scaled)
            return overflow || carry ? .max : sum
        }
        if exponent <= 9 {
            var factor: UInt64 = 1
            for _ in 0..<(9 - exponent) { factor *= 10 }
            let (product, overflow) = value.multipliedReportingOverflow(by: factor)
            return overflow ? .max : product
        }
        var divisor: UInt64 = 1
        for _ in 0..<min(exponent - 9, 19) { divisor *= 10 }
        return value / divisor
    }

    // MARK: pcap

    private mutating func nextPcap() throws(FrameFileError) -> LocatedPacket? {
        if !pcapHeaderRead {
            guard try have(24, what: "the pcap file header") else { return nil }
            switch u32(start, big: false) {
            case 0xA1B2_C3D4: bigEndian = false; pcapNanoseconds = false
            case 0xD4C3_B2A1: bigEndian = true; pcapNanoseconds = false
            case 0xA1B2_3C4D: bigEndian = false; pcapNanoseconds = true
            case 0x4D3C_B2A1: bigEndian = true; pcapNanoseconds = true
            default:
                throw error(
                    .badCapture, at: offset, "not a pcap file header (magic 0x\(Hex.digits(u32(start, big: false), width: 8)))")
            }
            // The low 16 bits are the link type; bits 16-25 are reserved and must be zero (the
            // top bits may carry the FCS length).
            let field = u32(start + 20, big: bigEndian)
            guard field & 0x03FF_0000 == 0 else {
                throw error(
                    .unknownLinkType, at: offset + 20,
                    "link type field 0x\(Hex.digits(field, width: 8)) sets reserved bits 16-25; not a pcap file of link type \(CaptureRecord.linkType)"
                )
            }
            let linkType = UInt16(truncatingIfNeeded: field)
            try checkLinkType(linkType, at: offset + 20)
            start += 24
            pcapHeaderRead = true
        }
        guard try have(16, what: "a packet record header") else { return nil }
        let captured = Int(u32(start + 8, big: bigEndian))
        let original = Int(u32(start + 12, big: bigEndian))
        guard captured <= Self.maxBlockLength else {
            throw error(
                .badCapture, at: offset + 8,
                "captured length \(captured) is over the \(Self.maxBlockLength) bytes this reader accepts")
        }
        guard try have(16 + captured, what: "a packet record") else { return nil }
        let seconds = UInt64(u32(start, big: bigEndian))
        let fraction = UInt64(u32(start + 4, big: bigEndian))
        let recordOffset = offset
        let data = (start + 16)..<(start + 16 + captured)
        start += 16 + captured
        let timestamp = seconds * 1_000_000_000 + (pcapNanoseconds ? fraction : fraction * 1000)
        return LocatedPacket(
            number: number + 1, data: data, dataOffset: recordOffset + 16, original: original, timestamp: timestamp)
    }

}
