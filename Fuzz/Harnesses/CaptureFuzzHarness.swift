// Shared by the FuzzCaptureReader and FuzzValidate targets (Fuzz/Sources, where a
// violation traps) and their corpus replay tests (Tests/GroupWireCaptureTests/Fuzz, where
// it is an expectation): both depend on the GroupWireFuzzChecks product, so they run the
// same checks.
import Foundation
import GroupWire
import GroupWireCapture
import GroupWireInspection
import GroupWireSpec

/// The capture a fuzz input stands for: `selector u8, bytes`; with selector bit 0 the
/// bytes follow the header `CaptureWriter` writes (a section and one interface of
/// GroupWire's link type), so the fuzzer reaches packet blocks at once; without it they
/// are the whole file.
func captureFuzzFile(_ input: [UInt8]) -> [UInt8]? {
    guard let selector = input.first else { return nil }
    let rest = Array(input.dropFirst())
    return selector & 1 == 1 ? CaptureWriter.pcapng([]) + rest : rest
}

/// Reads a fuzz input as a pcapng capture (or, when it is one, classic pcap) and returns
/// every invariant it breaks (empty: none).
///
/// Invariants: reading never traps; packets are numbered 1, 2, … and lie inside the file
/// in order; each record's frame is the file's bytes at its frame offset; an error's
/// offset lies inside the file; fed in two pieces split anywhere (selector bits 1–7 pick
/// where), the reader gives the same packets and the same error.
public func captureReaderFuzzViolations(_ input: [UInt8]) -> [String] {
    guard let file = captureFuzzFile(input) else { return [] }
    let format: FrameFileFormat = FrameFileFormat.detect(file) == .pcap ? .pcap : .pcapng
    func read(split: Int) -> (packets: [CapturePacket], error: FrameFileError?) {
        var reader = CapturePacketReader(format: format, path: "fuzz")
        var packets: [CapturePacket] = []
        let pieces = [Array(file[..<split]), Array(file[split...])]
        do throws(FrameFileError) {
            for piece in pieces {
                reader.append(piece)
                while let packet = try reader.next() { packets.append(packet) }
            }
            reader.finish()
            while let packet = try reader.next() { packets.append(packet) }
            return (packets, nil)
        } catch {
            return (packets, error)
        }
    }
    var violations: [String] = []
    let whole = read(split: file.count)
    var previous = -1
    for (index, packet) in whole.packets.enumerated() {
        if packet.number != index + 1 { violations.append("packet \(index + 1) is numbered \(packet.number)") }
        if packet.offset <= previous || packet.offset > file.count { violations.append("packet \(packet.number) at offset \(packet.offset), after \(previous)") }
        previous = packet.offset
        if let record = packet.record, let frameOffset = packet.frameOffset {
            if frameOffset < packet.offset || frameOffset + record.frame.count > file.count
                || Array(file[frameOffset..<(frameOffset + record.frame.count)]) != record.frame
            {
                violations.append("packet \(packet.number): the frame is not the file's bytes at \(frameOffset)")
            }
        } else if packet.problem == nil {
            violations.append("packet \(packet.number) has neither a record nor a problem")
        }
        if let offset = packet.problemOffset, offset > file.count { violations.append("packet \(packet.number): problem offset \(offset) past the file") }
    }
    if let offset = whole.error?.offset, offset > file.count { violations.append("error offset \(offset) past the file's \(file.count) bytes") }
    let split = input.isEmpty ? 0 : Int(input[0] >> 1) * file.count / 128
    let pieces = read(split: split)
    if pieces.packets != whole.packets { violations.append("split at \(split): \(pieces.packets.count) packets, not \(whole.packets.count)") }
    if pieces.error != whole.error { violations.append("split at \(split): error \(String(describing: pieces.error)), not \(String(describing: whole.error))") }
    return violations
}

/// The DrawTogether example spec (version 1), for validation.
let validateFuzzSpec: SpecSet = {
    let examples = fuzzRepositoryFile("Spec/Examples")
    guard let entry = try? String(contentsOf: examples.appendingPathComponent("DrawTogether.gwspec"), encoding: .utf8),
        let spec = try? SpecCompiler().compile(source: entry, path: "DrawTogether.gwspec", otherFiles: [:]).checkedSpec()
    else {
        preconditionFailure("cannot compile \(examples.path)/DrawTogether.gwspec")
    }
    return spec
}()

/// Validates a fuzz input as `groupwire validate` does (format detected, the DrawTogether
/// spec) and returns every invariant it breaks (empty: none).
///
/// Invariants: validation never traps; every problem's frame number is one that was read
/// and its offset lies inside the bytes read (a hex dump's decoded bytes); the summary counts what was returned (problems,
/// frames, valid frames at most frames); checking the whole stream, with good packets
/// checked where they lie (`check(contentsOf:report:)`, what the command runs), finds the
/// same problems and summary as checking each event.
public func validateFuzzViolations(_ input: [UInt8]) -> [String] {
    guard let file = captureFuzzFile(input) else { return [] }
    // A `*` line may stand for up to 256 MiB, each byte of it validated: the frame file
    // target's bound keeps one input's work small.
    let stream = FrameFileStream(bytes: file, path: "fuzz", maxDumpBytes: frameFileFuzzMaxBytes)
    var validator = CaptureValidator(specs: [validateFuzzSpec])
    var problems: [ValidationProblem] = []
    var highestNumber = 0
    do throws(FrameFileError) {
        while let event = try stream.next() {
            highestNumber = max(highestNumber, event.packet?.number ?? validator.summary.frames + 1)
            problems += validator.check(event)
        }
    } catch {
        problems += validator.check(inputError: error)
    }
    problems += validator.finish()
    var violations: [String] = []
    // Offsets count the bytes read: a hex dump's, the bytes it stands for, which a `*` line
    // (repeat the line before up to the next address) makes more than the file's.
    let bytesRead = max(file.count, stream.byteCount)
    let summary = validator.summary
    if summary.problems != problems.count { violations.append("the summary counts \(summary.problems) problems, \(problems.count) were returned") }
    if summary.validFrames > summary.frames { violations.append("\(summary.validFrames) valid frames of \(summary.frames)") }
    for problem in problems {
        if let frame = problem.frame, frame < 1 || frame > highestNumber { violations.append("problem names frame \(frame) of \(highestNumber): \(problem.reason)") }
        if let offset = problem.offset, offset < 0 || offset > bytesRead { violations.append("problem offset \(offset) outside the \(bytesRead) bytes: \(problem.reason)") }
    }
    var inPlace = CaptureValidator(specs: [validateFuzzSpec])
    var found: [ValidationProblem] = []
    do throws(FrameFileError) {
        try inPlace.check(contentsOf: FrameFileStream(bytes: file, path: "fuzz", maxDumpBytes: frameFileFuzzMaxBytes)) {
            found.append($0)
        }
    } catch {
        found += inPlace.check(inputError: error)
    }
    found += inPlace.finish()
    func described(_ problems: [ValidationProblem]) -> [String] {
        problems.map { "\($0.kind) \($0.frame ?? -1) \($0.offset ?? -1) \($0.reason)" }
    }
    if described(found) != described(problems) { violations.append("checked in place: \(described(found)), not \(described(problems))") }
    if inPlace.summary != summary { violations.append("checked in place: \(inPlace.summary), not \(summary)") }
    return violations
}
