import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes ``CaptureRecord``s to pcapng files, as they happen, for Wireshark, tshark and
/// `groupwire validate`.
///
/// Each record is one Enhanced Packet Block written with one `write(2)`, so a process that
/// is killed leaves a readable file holding everything captured before. Safe to use from
/// any task or thread. A writer never throws at its caller once open: the first write
/// that fails is reported once on standard error and capture stops (``failure``).
///
/// With a ``Rotation`` the writer keeps at most ``Rotation/maxFiles`` files of at most
/// ``Rotation/maxFileBytes`` bytes each, as tcpdump's `-C` and `-W` do: the files are
/// named by inserting `-0`, `-1`, … before the extension (`trace.pcapng` becomes
/// `trace-0.pcapng`, `trace-1.pcapng`), and once the last is full the oldest is
/// overwritten. Each file is a whole pcapng file.
public final class CaptureWriter: Sendable {
    /// Bounds on capture files.
    public struct Rotation: Sendable, Hashable {
        /// The size at which a file is closed and the next begun. A record larger than this
        /// still goes into a file of its own.
        public var maxFileBytes: Int
        /// How many files to keep; nil keeps every file.
        public var maxFiles: Int?

        /// Creates bounds.
        public init(maxFileBytes: Int, maxFiles: Int? = nil) {
            self.maxFileBytes = max(1, maxFileBytes)
            self.maxFiles = maxFiles.map { max(1, $0) }
        }
    }

    private struct State {
        var descriptor: Int32
        var fileIndex: Int
        var fileBytes: Int
        var paths: [String]
        var recordCount: Int
        var failure: FrameFileError?
    }

    /// The path as given; with rotation, the files' names derive from it.
    public let path: String
    /// The bounds on files, nil for one file of any size.
    public let rotation: Rotation?
    private let state: Mutex<State>

    /// Creates the capture file at `path` (replacing one that exists) and writes its
    /// header.
    /// - Throws: ``FrameFileError`` of kind ``FrameFileError/Kind/unwritable``.
    public init(path: String, rotation: Rotation? = nil) throws(FrameFileError) {
        self.path = path
        self.rotation = rotation
        let first = Self.filePath(path, index: 0, rotation: rotation)
        let descriptor = try Self.create(first)
        state = Mutex(State(descriptor: descriptor, fileIndex: 0, fileBytes: 0, paths: [first], recordCount: 0, failure: nil))
        let header = Self.fileHeader()
        try state.withLock { state throws(FrameFileError) in
            try Self.writeAll(header, to: state.descriptor, path: first)
            state.fileBytes = header.count
        }
    }

    deinit {
        close()
    }

    /// The files written so far, oldest first (with rotation, those still kept).
    public var paths: [String] { state.withLock { $0.paths } }
    /// The number of records written.
    public var recordCount: Int { state.withLock { $0.recordCount } }
    /// The write error that stopped capture, nil while capturing.
    public var failure: FrameFileError? { state.withLock { $0.failure } }

    /// Appends `record` to the current file, beginning the next file first when rotation
    /// says so.
    public func write(_ record: CaptureRecord) {
        let block = Self.packetBlock(record)
        let reported: FrameFileError? = state.withLock { state in
            guard state.failure == nil, state.descriptor >= 0 else { return nil }
            do throws(FrameFileError) {
                if let rotation, state.fileBytes + block.count > rotation.maxFileBytes, state.recordCount > 0,
                    state.fileBytes > Self.fileHeader().count
                {
                    try rotate(&state, rotation: rotation)
                }
                try Self.writeAll(block, to: state.descriptor, path: state.paths.last ?? path)
                state.fileBytes += block.count
                state.recordCount += 1
                return nil
            } catch {
                state.failure = error
                return error
            }
        }
        if let reported {
            FileHandle.standardError.write(Data("groupwire: warning: capture stopped: \(reported)\n".utf8))
        }
    }

    /// Closes the current file; later writes are ignored.
    public func close() {
        state.withLock { state in
            if state.descriptor >= 0 {
                _ = systemClose(state.descriptor)
                state.descriptor = -1
            }
        }
    }

    private func rotate(_ state: inout State, rotation: Rotation) throws(FrameFileError) {
        _ = systemClose(state.descriptor)
        state.descriptor = -1
        var index = state.fileIndex + 1
        if let maxFiles = rotation.maxFiles, index >= maxFiles { index = 0 }
        let next = Self.filePath(path, index: index, rotation: rotation)
        state.descriptor = try Self.create(next)
        state.fileIndex = index
        state.paths.removeAll { $0 == next }
        state.paths.append(next)
        let header = Self.fileHeader()
        try Self.writeAll(header, to: state.descriptor, path: next)
        state.fileBytes = header.count
    }

    /// The name of file `index`: `path` itself without rotation, else `path` with `-index`
    /// before its extension.
    public static func filePath(_ path: String, index: Int, rotation: Rotation?) -> String {
        guard rotation != nil else { return path }
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        guard !ext.isEmpty else { return "\(path)-\(index)" }
        return String(path.dropLast(ext.count + 1)) + "-\(index).\(ext)"
    }

    private static func create(_ path: String) throws(FrameFileError) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FrameFileError(.unwritable, path: path, "cannot create the capture file (\(String(cString: strerror(errno))))")
        }
        return descriptor
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(FrameFileError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                // Inside the loop `bytes` is not empty, so the buffer always has a base address.
                raw.baseAddress.map { systemWrite(descriptor, $0 + written, raw.count - written) } ?? 0
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FrameFileError(.unwritable, path: path, "cannot write (\(String(cString: strerror(errno))))")
            }
            written += count
        }
    }

    // MARK: pcapng blocks (little-endian)

    /// The whole pcapng file for `records`, as the writer would write them to one file.
    public static func pcapng(_ records: [CaptureRecord]) -> [UInt8] {
        var bytes = fileHeader()
        for record in records { bytes += packetBlock(record) }
        return bytes
    }

    /// A Section Header Block and one Interface Description Block of link type
    /// ``CaptureRecord/linkType`` with nanosecond timestamps.
    static func fileHeader() -> [UInt8] {
        var section: [UInt8] = []
        append32(0x1A2B_3C4D, to: &section)  // byte-order magic
        append16(1, to: &section)  // major version
        append16(0, to: &section)  // minor version
        append32(0xFFFF_FFFF, to: &section)  // section length: unknown (-1)
        append32(0xFFFF_FFFF, to: &section)
        var userAppl: [UInt8] = []
        appendOption(4, Array("GroupWire".utf8), to: &userAppl)  // shb_userappl
        section += userAppl
        append32(0, to: &section)  // opt_endofopt
        var interface: [UInt8] = []
        append16(CaptureRecord.linkType, to: &interface)
        append16(0, to: &interface)  // reserved
        append32(0, to: &interface)  // snaplen: no limit
        appendOption(2, Array("groupwire".utf8), to: &interface)  // if_name
        appendOption(9, [9], to: &interface)  // if_tsresol: 10^-9 s
        append32(0, to: &interface)  // opt_endofopt
        return block(type: 0x0A0D_0D0A, body: section) + block(type: 1, body: interface)
    }

    /// An Enhanced Packet Block on interface 0.
    static func packetBlock(_ record: CaptureRecord) -> [UInt8] {
        let data = record.packetData
        var body: [UInt8] = []
        body.reserveCapacity(20 + data.count + 3)
        append32(0, to: &body)  // interface id
        append32(UInt32(truncatingIfNeeded: record.timestamp >> 32), to: &body)
        append32(UInt32(truncatingIfNeeded: record.timestamp), to: &body)
        append32(UInt32(data.count), to: &body)  // captured length
        append32(UInt32(data.count), to: &body)  // original length
        body += data
        while body.count % 4 != 0 { body.append(0) }
        return block(type: 6, body: body)
    }

    private static func block(type: UInt32, body: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count + 12)
        append32(type, to: &bytes)
        append32(UInt32(body.count + 12), to: &bytes)
        bytes += body
        append32(UInt32(body.count + 12), to: &bytes)
        return bytes
    }

    private static func appendOption(_ code: UInt16, _ value: [UInt8], to bytes: inout [UInt8]) {
        append16(code, to: &bytes)
        append16(UInt16(value.count), to: &bytes)
        bytes += value
        while bytes.count % 4 != 0 { bytes.append(0) }
    }

    private static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}

/// `write(2)` and `close(2)`, named apart from methods of the same names.
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
    #else
        Darwin.write(descriptor, buffer, count)
    #endif
}

func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #else
        Darwin.close(descriptor)
    #endif
}
