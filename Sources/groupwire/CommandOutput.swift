import ArgumentParser
import Foundation
import GroupWireCapture

/// Prints a ``ToolOutput`` and ends with its exit status.
enum CommandOutput {
    static func emit(_ output: ToolOutput) throws {
        if !output.standardOutput.isEmpty {
            FileHandle.standardOutput.write(Data(output.standardOutput.utf8))
        }
        if !output.standardError.isEmpty {
            FileHandle.standardError.write(Data(output.standardError.utf8))
        }
        if output.exitCode != 0 {
            throw ExitCode(output.exitCode)
        }
    }
}
