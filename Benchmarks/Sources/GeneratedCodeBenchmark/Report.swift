import Foundation

/// The results as Markdown tables: times, ratios, bytes and allocations.
struct Report {
    let measurements: [Measurement]
    let sizes: [String: [String: Int]]
    let messages: [String]
    let rounds: Int
    let sampleMilliseconds: Int

    func find(_ message: String, _ codec: String, _ operation: String) -> Measurement? {
        measurements.first {
            $0.benchmark.message == message && $0.benchmark.codec == codec && $0.benchmark.operation == operation
        }
    }

    func time(_ nanoseconds: Double) -> String {
        if nanoseconds >= 1_000_000 { return String(format: "%.2f ms", nanoseconds / 1_000_000) }
        if nanoseconds >= 10_000 { return String(format: "%.1f µs", nanoseconds / 1_000) }
        return String(format: "%.0f ns", nanoseconds)
    }

    func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
        guard let numerator, let denominator, denominator > 0 else { return "-" }
        return String(format: "%.2f×", numerator / denominator)
    }

    func markdown() -> String {
        var lines: [String] = []
        lines.append(
            "Median of \(rounds) interleaved rounds of about \(sampleMilliseconds) ms each (release build, one process); minimum in parentheses."
        )
        lines.append("")
        lines.append(
            "| message | op | GroupWire generated | swift-protobuf | Foundation JSON | protobuf ÷ GroupWire (median; min) | JSON ÷ GroupWire |"
        )
        lines.append("|---|---|---|---|---|---|---|")
        for message in messages {
            for operation in ["encode", "decode"] {
                let wire = find(message, "GroupWire", operation)
                let proto = find(message, "swift-protobuf", operation)
                let json = find(message, "JSON", operation)
                func cell(_ measurement: Measurement?) -> String {
                    guard let measurement else { return "-" }
                    return "\(time(measurement.medianNanoseconds)) (\(time(measurement.minimumNanoseconds)))"
                }
                lines.append(
                    "| \(message) | \(operation) | \(cell(wire)) | \(cell(proto)) | \(cell(json)) | "
                        + "\(ratio(proto?.medianNanoseconds, wire?.medianNanoseconds)); \(ratio(proto?.minimumNanoseconds, wire?.minimumNanoseconds)) | "
                        + "\(ratio(json?.medianNanoseconds, wire?.medianNanoseconds)) |")
            }
        }
        lines.append("")
        lines.append("| message | GroupWire payload | GroupWire frame | swift-protobuf | JSON |")
        lines.append("|---|---|---|---|---|")
        for message in messages {
            let size = sizes[message] ?? [:]
            func bytes(_ key: String) -> String { size[key].map { "\($0) B" } ?? "-" }
            lines.append(
                "| \(message) | \(bytes("GroupWire")) | \(bytes("GroupWire frame")) | \(bytes("swift-protobuf")) | \(bytes("JSON")) |"
            )
        }
        lines.append("")
        lines.append("Heap allocations per operation (malloc-family calls, counted by interposition):")
        lines.append("")
        lines.append("| message | op | GroupWire generated | swift-protobuf | Foundation JSON |")
        lines.append("|---|---|---|---|---|")
        for message in messages {
            for operation in ["encode", "decode"] {
                func allocations(_ codec: String) -> String {
                    guard let value = find(message, codec, operation)?.allocationsPerOperation else { return "-" }
                    return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
                }
                lines.append(
                    "| \(message) | \(operation) | \(allocations("GroupWire")) | \(allocations("swift-protobuf")) | \(allocations("JSON")) |"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
