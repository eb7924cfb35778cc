import GroupWireSpec

/// Spec/Control.gwspec, the registry of control ids and the bodies of GroupWire's own
/// control messages, carried inside the generator (``text``, ControlSpecText.swift) so a
/// dissector made anywhere names control frames from the same source the session layer's
/// codecs are generated from. A test keeps ``text`` equal to the file; `make regenerate`
/// rewrites it.
enum ControlSpec {
    /// Where the spec lives in the repository.
    static let path = "Spec/Control.gwspec"

    /// The cases of the spec's `ControlID` enum by number (0, "not a control message", left
    /// out); empty if the embedded text did not compile, which the tests rule out.
    static let controlNames: [(number: UInt64, name: String)] = {
        guard
            let compilation = try? SpecCompiler().compile(entry: path, loader: InMemorySpecLoader(files: [path: text])),
            let spec = try? compilation.checkedSpec(),
            case .enum(let ids)? = spec.declaration(named: "ControlID")
        else { return [] }
        return ids.casesByNumber.filter { $0.number != 0 }.map { (UInt64($0.number), $0.name) }
    }()

    /// The Lua table of control names, as the dissector's runtime declares it.
    static var luaTable: String {
        "{ " + controlNames.map { "[\($0.number)] = \"\($0.name)\"" }.joined(separator: ", ") + " }"
    }
}
