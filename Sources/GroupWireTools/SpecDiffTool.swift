import GroupWireSpec

/// `groupwire spec diff OLD NEW`: whether peers on the two spec versions can talk, by the
/// rules of the compatibility checker (Spec/LANGUAGE.md).
package struct SpecDiffTool: Sendable {
    /// Output formats.
    package enum Format: String, Sendable, CaseIterable {
        /// The checker's text report.
        case text
        /// The checker's JSON report.
        case json
    }

    /// The old spec's path.
    package var oldPath: String
    /// The new spec's path.
    package var newPath: String
    /// The report format.
    package var format: Format

    /// Creates the tool.
    package init(oldPath: String, newPath: String, format: Format = .text) {
        self.oldPath = oldPath
        self.newPath = newPath
        self.format = format
    }

    /// Compares the specs.
    /// - Returns: the report on standard output; status 0 when compatible, 1 when a change
    ///   breaks, 2 when either spec cannot be read or has errors.
    package func run() -> ToolResult {
        let old: SpecSet
        let new: SpecSet
        do throws(ToolFailure) {
            old = try SpecLoading.load(oldPath).spec
            new = try SpecLoading.load(newPath).spec
        } catch {
            return error.result
        }
        let report = CompatibilityChecker.compare(old: old, new: new)
        let text = format == .text ? report.renderText() : report.renderJSON()
        return ToolResult(output: Array(text.utf8), status: report.verdict == .breaking ? .invalidInput : .ok)
    }
}
