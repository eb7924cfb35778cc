import Foundation
import GroupWireCodegen
import GroupWireSpec

/// `groupwire dissector --spec SPEC... -o groupwire.lua`: a Wireshark Lua dissector for
/// the specs (``LuaDissectorGenerator``).
package struct DissectorTool {
    package var specPaths: [String]
    package var output: String?
    package var relayPort: Int = LuaDissectorGenerator.defaultRelayPort

    package init(specPaths: [String], output: String?) {
        self.specPaths = specPaths
        self.output = output
    }

    /// Writes the dissector to `output`, or prints it when there is none (`-`).
    package func run() -> ToolResult {
        guard !specPaths.isEmpty else { return .error("give the specs to dissect with --spec FILE", status: .failure) }
        guard (1...65_535).contains(relayPort) else { return .error("--port \(relayPort) is not a TCP port", status: .failure) }
        var specs: [SpecSet] = []
        var warnings = ""
        do throws(ToolFailure) {
            for path in specPaths {
                let loaded = try SpecLoading.load(path)
                warnings += loaded.warnings
                specs.append(loaded.spec)
            }
        } catch {
            return error.result
        }
        let lua = LuaDissectorGenerator(specs: specs, sources: specPaths, relayPort: relayPort).generate()
        guard let output, output != "-" else {
            return ToolResult(output: Array(lua.utf8), messages: warnings)
        }
        do {
            try Data(lua.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            return .error("cannot write \(output): \(error.localizedDescription)", status: .failure)
        }
        let types = Set(specs.flatMap { $0.messages.map(\.name) }).count
        return ToolResult(
            output: Array(
                "wrote \(output): a Wireshark dissector for \(types) message types; tshark -X lua_script:\(output) -r CAPTURE\n"
                    .utf8),
            messages: warnings)
    }
}
