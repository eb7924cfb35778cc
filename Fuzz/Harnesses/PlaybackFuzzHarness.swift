// Shared by the FuzzPlayback target (Fuzz/Sources/FuzzPlayback, where a violation traps)
// and its corpus replay test (Tests/GroupWirePlaybackTests), through the GroupWireFuzzChecks
// product.
import GroupWire
import GroupWirePlayback
import GroupWireSession

/// What a peer can make a playback coordinator read (Spec/PLAYBACK.md), and the clock
/// estimate it feeds.
///
/// Input: `selector u8, rest`. For `selector % 6` below 5, `rest` is the payload of that
/// playback message (in Spec/Playback.gwspec's order). Invariants: reading never traps and
/// fails only at an offset inside the payload (or at its end); what reads re-encodes to a
/// payload that reads back to the same input; an accepted timeline's expected time is
/// finite and at least 0 at every instant tried, and its stamp orders against another
/// exactly one way. For `selector % 6 == 5`, `rest` is a run of exchanges, 32 bytes each
/// (t1, t2, t3, t4 as little-endian Int64 nanoseconds), fed to a `GroupClockEstimate`:
/// an exchange is refused exactly when its times are out of order, and the estimate stays
/// finite with a drift within ±1,000 ppm.
public func playbackFuzzViolations(_ input: [UInt8]) -> [String] {
    guard let selector = input.first else { return [] }
    let rest = Array(input.dropFirst())
    let index = Int(selector % 6)
    guard index < PlaybackInput.typeIDs.count else { return clockEstimateViolations(rest) }
    let read: PlaybackInput
    do {
        read = try PlaybackInput(typeID: PlaybackInput.typeIDs[index], payload: rest)
    } catch {
        if let offset = error.offset, offset < 0 || offset > rest.count {
            return ["\(error.kind) at offset \(offset), outside the \(rest.count)-byte payload"]
        }
        return []
    }
    var violations: [String] = []
    if let payload = read.payload {
        let again = try? PlaybackInput(typeID: PlaybackInput.typeIDs[index], payload: payload)
        if again != read { violations.append("\(read) re-encodes to a payload that reads as \(String(describing: again))") }
    }
    if case .timeline(let timeline?) = read {
        for instant in [Duration.zero, timeline.groupTime, .nanoseconds(Int64.max), .nanoseconds(Int64.min), .seconds(1e9)] {
            let expected = timeline.expectedTime(at: instant)
            if !expected.isFinite || expected < 0 { violations.append("expected time \(expected) at \(instant)") }
        }
        let other = PlaybackTimeline.Stamp(clock: timeline.stamp.clock, author: ParticipantID.numbered(7))
        let orders = [timeline.stamp < other, other < timeline.stamp, timeline.stamp == other].filter { $0 }.count
        if orders != 1 { violations.append("the stamps \(timeline.stamp) and \(other) order \(orders) ways") }
    }
    return violations
}

private func clockEstimateViolations(_ bytes: [UInt8]) -> [String] {
    var estimate = GroupClockEstimate()
    var violations: [String] = []
    var offset = 0
    while offset + 32 <= bytes.count {
        let times = (0..<4).map { field in
            var value: UInt64 = 0
            for byte in 0..<8 { value |= UInt64(bytes[offset + field * 8 + byte]) << (8 * UInt64(byte)) }
            return Duration.nanoseconds(Int64(bitPattern: value))
        }
        offset += 32
        let (t1, t2, t3, t4) = (times[0], times[1], times[2], times[3])
        let ordered = t4 >= t1 && t3 >= t2 && (t4 - t1) >= (t3 - t2)
        if estimate.add(t1: t1, t2: t2, t3: t3, t4: t4) != ordered {
            violations.append("an exchange \(times) was \(ordered ? "refused" : "taken")")
        }
        if abs(estimate.drift) > 0.001 { violations.append("drift \(estimate.drift)") }
        let group = estimate.groupTime(atLocal: t4)
        let seconds = Double(group.components.seconds) + Double(group.components.attoseconds) / 1e18
        if !seconds.isFinite { violations.append("group time \(group) at \(t4)") }
    }
    return violations
}
