// Shared by the FuzzFrameFile target (Fuzz/Sources/FuzzFrameFile, where a violation traps)
// and its corpus replay test (Tests/GroupWireCaptureTests/Fuzz, where it is an
// expectation): both depend on the GroupWireFuzzChecks product, so they run the same checks.
import GroupWire
import GroupWireCapture

/// Largest hex dump output the fuzz target lets a dump expand to (`*` repeat lines can
/// expand a few bytes of text to many bytes of data).
let frameFileFuzzMaxBytes = 1 << 16

/// Reads a fuzz input as a frame file (format detected) and returns every invariant it
/// breaks (empty: none).
///
/// Invariants: reading never traps; a raw file is its bytes; a hex dump's error names a
/// line and column inside the text (column at most one past the line's end); every byte
/// a hex dump yields has a location inside the text, and the offset after the last has
/// none; the frames decoded from the bytes tile them; and `FrameFileStream`, reading the
/// file a chunk at a time, reports the same events.
public func frameFileFuzzViolations(_ input: [UInt8]) -> [String] {
    var violations: [String] = []
    // Line lengths without the newline (and without a CR before it), 1-based lines.
    var lineLengths: [Int] = []
    var start = 0
    for (index, byte) in input.enumerated() where byte == UInt8(ascii: "\n") {
        lineLengths.append(index - start)
        start = index + 1
    }
    lineLengths.append(input.count - start)
    func inside(line: Int, column: Int) -> Bool {
        line >= 1 && line <= lineLengths.count && column >= 1 && column <= lineLengths[line - 1] + 1
    }

    let format = FrameFileFormat.detect(input)
    if format != .hex, format != .raw {
        // Captures and tshark fields output have targets of their own (FuzzCaptureReader,
        // FuzzValidate); here they only have to read to their end without trapping.
        let stream = FrameFileStream(bytes: input, path: "fuzz", format: format, maxDumpBytes: frameFileFuzzMaxBytes)
        do {
            while try stream.next() != nil {}
        } catch {}
        return violations
    }
    let bytes: [UInt8]
    if format == .hex {
        do {
            let dump = try HexDump(parsing: input, path: "fuzz.hex", maxBytes: frameFileFuzzMaxBytes)
            bytes = dump.bytes
            if bytes.count > frameFileFuzzMaxBytes {
                violations.append("hex dump gave \(bytes.count) bytes, over maxBytes \(frameFileFuzzMaxBytes)")
            }
            // Every offset for small outputs; the first and last 256 and a stride otherwise.
            let offsets =
                bytes.count <= 1024
                ? Array(0..<bytes.count)
                : Array(0..<256) + Array(stride(from: 256, to: bytes.count - 256, by: 97)) + Array(bytes.count - 256..<bytes.count)
            for offset in offsets {
                guard let location = dump.location(ofByte: offset) else {
                    violations.append("byte \(offset) of \(bytes.count) has no location")
                    break
                }
                if !inside(line: location.line, column: location.column) {
                    violations.append("byte \(offset) is located at \(location), outside the text")
                    break
                }
            }
            if dump.location(ofByte: bytes.count) != nil { violations.append("the end offset has a location") }
            // Fed in two pieces, split anywhere, the streaming reader gives the same bytes.
            let split = Int(input[0]) * input.count / 256
            var pieces = HexDumpReader(path: "fuzz.hex", maxBytes: frameFileFuzzMaxBytes)
            do {
                try pieces.append(input[..<split])
                try pieces.append(input[split...])
                try pieces.finish()
                if pieces.takeBytes() != bytes { violations.append("hex split at \(split) gave other bytes") }
            } catch {
                violations.append("hex split at \(split) failed where the whole text did not: \(error)")
            }
            if dump.location(ofByte: -1) != nil { violations.append("offset -1 has a location") }
        } catch {
            if let line = error.line {
                let column = error.column ?? 1
                if !inside(line: line, column: column) {
                    violations.append("error at \(line):\(column) is outside the text: \(error)")
                }
            }
            return violations
        }
    } else {
        guard let contents = try? FrameFileReader().parse(input, path: "fuzz.bin") else {
            return ["a raw file failed to parse"]
        }
        bytes = contents.bytes
        if bytes != input { violations.append("a raw file's bytes differ from the input") }
    }

    // The streaming reader every command uses gives the same events, chunk by chunk.
    let whole = FrameDecoder().decodeAll(bytes)
    let stream = FrameFileStream(bytes: input, path: "fuzz", format: format, maxDumpBytes: frameFileFuzzMaxBytes)
    var streamed: [FrameStreamEvent] = []
    do {
        while let event = try stream.next() { streamed.append(event.event) }
        if streamed != whole { violations.append("streaming the file gave other events than reading it whole") }
    } catch {
        violations.append("streaming failed where reading whole did not: \(error)")
    }

    var end = 0
    for event in whole {
        if event.offset != end || event.length <= 0 {
            violations.append("frame events do not tile the bytes at \(end)")
            break
        }
        end = event.offset + event.length
    }
    if end != bytes.count { violations.append("frame events end at \(end), bytes at \(bytes.count)") }
    return violations
}
