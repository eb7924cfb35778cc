import ArgumentParser
import Foundation
import GroupWireTools

extension GroupWireCommand {
    /// Runs the command line, mapping usage errors to exit status 2 (the tool's documented
    /// status for usage and I/O errors) instead of ArgumentParser's 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                var message = fullMessage(for: error)
                if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
                FileHandle.standardError.write(Data(("groupwire: error: " + message + "\n").utf8))
                Foundation.exit(ToolStatus.failure.rawValue)
            }
            exit(withError: error)
        }
    }
}
