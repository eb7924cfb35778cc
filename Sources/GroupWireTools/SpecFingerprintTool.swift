import GroupWireDynamic
import GroupWireSpec

/// `groupwire spec fingerprint SPEC...`: the fingerprint of each spec (its entry file and
/// everything reachable from it) and of each message (Spec/LANGUAGE.md, "Canonical form
/// and fingerprints").
package struct SpecFingerprintTool: Sendable {
    /// Output formats.
    package enum Format: String, Sendable, CaseIterable {
        /// One line per spec, then one indented line per message.
        case text
        /// A JSON array with one object per spec.
        case json
    }

    /// The spec files.
    package var paths: [String]
    /// The output format.
    package var format: Format

    /// Creates the tool.
    package init(paths: [String], format: Format = .text) {
        self.paths = paths
        self.format = format
    }

    /// Computes the fingerprints.
    /// - Returns: the listing on standard output; status 2 if any spec cannot be read or has
    ///   errors (the others are still listed).
    package func run() -> ToolResult {
        var result = ToolResult()
        var lines: [String] = []
        var specs: [JSONValue] = []
        for path in paths {
            let spec: SpecSet
            do throws(ToolFailure) {
                spec = try SpecLoading.load(path).spec
            } catch {
                result.messages += error.result.messages
                result.status = .failure
                continue
            }
            let package = spec.package.map { "\($0.name) version \($0.version)" } ?? "(no package)"
            lines.append("\(spec.fingerprint)  \(path)  \(package)")
            var messages: [JSONValue] = []
            for message in spec.messages {
                let fingerprint = spec.fingerprint(ofMessage: message.name)?.description ?? "-"
                lines.append("  \(fingerprint)  \(message.name) @ \(message.typeID)")
                messages.append([
                    "name": .string(message.name), "typeID": .number(JSONNumber(message.typeID)),
                    "fingerprint": .string(fingerprint),
                ])
            }
            specs.append([
                "path": .string(path), "package": .string(spec.package?.name ?? ""),
                "version": .number(JSONNumber(spec.package?.version ?? 0)),
                "fingerprint": .string(spec.fingerprint.description), "messages": .array(messages),
            ])
        }
        switch format {
        case .text: result.output = Array(lines.map { $0 + "\n" }.joined().utf8)
        case .json: result.output = JSONWriter(prettyPrinted: true).bytes(.array(specs)) + [0x0A]
        }
        return result
    }
}
