import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ParsableCommand {
    /// Runs the command line like `main()`, but reports a usage mistake as
    /// `NAME: error: MESSAGE` with exit status 2 (the tools' documented status for usage
    /// and I/O errors) instead of ArgumentParser's 64. `groupwire` and `groupwire-generate`
    /// both start here, so they exit alike.
    /// - Parameter name: the tool name that starts the error line.
    package static func mainReportingUsageErrors(as name: String) {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                var message = fullMessage(for: error)
                if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
                StandardStreams.standardError("\(name): error: \(message)\n")
                #if canImport(Glibc)
                    Glibc.exit(ToolStatus.failure.rawValue)
                #else
                    Darwin.exit(ToolStatus.failure.rawValue)
                #endif
            }
            exit(withError: error)
        }
    }
}
