import GroupWire
import GroupWireJSON
import GroupWireNegotiation
import GroupWireSpec

/// `groupwire negotiate A B`: what two peers on the spec files A and B would agree from
/// their hellos (Spec/FORMAT.md, "The agreement"), per message type and per direction.
package struct NegotiateTool: Sendable {
    /// Output formats.
    package enum Format: String, Sendable, CaseIterable {
        /// One line per fact, for people.
        case text
        /// One JSON object.
        case json
    }

    /// Peer A's spec file.
    package var pathA: String
    /// Peer B's spec file.
    package var pathB: String
    /// The output format.
    package var format: Format
    /// Whether peer A lacks zstd (lists no codec).
    package var noZstdA: Bool
    /// Whether peer B lacks zstd.
    package var noZstdB: Bool

    /// Creates the tool.
    package init(pathA: String, pathB: String, format: Format = .text, noZstdA: Bool = false, noZstdB: Bool = false) {
        self.pathA = pathA
        self.pathB = pathB
        self.format = format
        self.noZstdA = noZstdA
        self.noZstdB = noZstdB
    }

    /// Builds both hellos and the agreement.
    /// - Returns: the agreement on standard output; status 0 when the peers agree and every
    ///   type goes both ways it exists, 1 when they are incompatible or some type is unknown
    ///   or incompatible to a reader, 2 when a spec cannot be read, has errors or cannot be
    ///   announced (no package line, a hello over 60 KiB).
    package func run() -> ToolResult {
        do throws(ToolFailure) {
            let a = try hello(pathA, zstd: !noZstdA)
            let b = try hello(pathB, zstd: !noZstdB)
            let agreement = Agreement(local: a, remote: b)
            let text = format == .text ? Self.renderText(agreement, a: a, b: b) : Self.renderJSON(agreement, a: a, b: b)
            return ToolResult(output: Array(text.utf8), status: Self.isClean(agreement) ? .ok : .invalidInput)
        } catch {
            return error.result
        }
    }

    private func hello(_ path: String, zstd: Bool) throws(ToolFailure) -> Hello {
        let spec = try SpecLoading.load(path).spec
        let hello: Hello
        do throws(WireError) {
            hello = Hello(codecs: zstd ? [HelloCodec(codec: 1)] : [], schema: try HelloSchema(spec: spec))
            _ = try hello.payload()
        } catch {
            throw ToolFailure("\(path): cannot be announced in a hello: \(error)")
        }
        return hello
    }

    /// Agreed, and every direction of every type readable.
    static func isClean(_ agreement: Agreement) -> Bool {
        agreement.isAgreed
            && agreement.types.allSatisfy { type in
                [type.sending, type.receiving].allSatisfy { $0?.isReadable ?? true }
            }
    }

    private static func side(_ hello: Hello) -> String {
        guard let schema = hello.schema else { return "(no spec)" }
        return "\(schema.package) \(schema.version) (\(schema.fingerprint))"
    }

    private static func direction(_ direction: Agreement.Direction) -> String {
        let compression: String
        switch direction.codec {
        case nil: compression = "uncompressed"
        case 1?: compression = direction.dictionaryID == 0 ? "zstd, no dictionary" : "zstd, dictionary \(direction.dictionaryID)"
        case let codec?: compression = "codec \(codec)"
        }
        return "\(compression), max frame \(direction.maxFrameSize), max message \(direction.maxMessageSize)"
    }

    private static func verdict(_ verdict: TypeVerdict?, reader: String) -> String {
        switch verdict {
        case nil: "-"
        case .unknown?: "unknown to \(reader)"
        case let verdict?: verdict.description
        }
    }

    static func renderText(_ agreement: Agreement, a: Hello, b: Hello) -> String {
        var lines = ["negotiate: \(side(a)) <-> \(side(b))"]
        switch agreement.status {
        case .agreed: lines.append("status: agreed")
        case .incompatible(let failure): lines.append("status: incompatible: \(failure)")
        }
        lines.append("envelope version: \(agreement.envelopeVersion.map(String.init) ?? "none in common")")
        lines.append("A -> B: \(direction(agreement.sending))")
        lines.append("B -> A: \(direction(agreement.receiving))")
        if !agreement.dictionaryConflicts.isEmpty {
            lines.append(
                "dictionary conflicts (same id, other content; never used): "
                    + agreement.dictionaryConflicts.map(String.init).joined(separator: ", "))
        }
        for type in agreement.types {
            let names = [type.localName, type.remoteName].compactMap { $0 }
            let name = Set(names).count == 1 ? names[0] : names.joined(separator: " / ")
            lines.append(
                "type \(type.typeID) \(name): A -> B \(verdict(type.sending, reader: "B")); B -> A \(verdict(type.receiving, reader: "A"))"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func renderJSON(_ agreement: Agreement, a: Hello, b: Hello) -> String {
        func side(_ hello: Hello) -> JSONValue {
            guard let schema = hello.schema else { return .null }
            return .fields([
                ("fingerprint", .string(schema.fingerprint.description)), ("package", .string(schema.package)),
                ("version", .uint(schema.version)),
            ])
        }
        func direction(_ direction: Agreement.Direction) -> JSONValue {
            .fields([
                ("codec", direction.codec.map { $0 == 1 ? .string("zstd") : .uint(UInt64($0)) } ?? .null),
                ("dictionaryID", .uint(UInt64(direction.dictionaryID))),
                ("maxFrameSize", .uint(UInt64(direction.maxFrameSize))),
                ("maxMessageSize", .uint(UInt64(direction.maxMessageSize))),
            ])
        }
        func verdict(_ verdict: TypeVerdict?) -> JSONValue {
            guard let verdict else { return .null }
            var failures: [JSONValue] = []
            if case .incompatible(let list) = verdict {
                failures = list.map {
                    .fields([("name", .string($0.rule.name)), ("path", .string($0.path)), ("rule", .string($0.rule.id))])
                }
            }
            return .fields([("failures", .array(failures)), ("verdict", .string(verdict.name))])
        }
        var members: [(String, JSONValue)] = [
            ("a", side(a)), ("aToB", direction(agreement.sending)), ("b", side(b)), ("bToA", direction(agreement.receiving)),
            ("dictionaryConflicts", .array(agreement.dictionaryConflicts.map { .uint(UInt64($0)) })),
            ("envelopeVersion", agreement.envelopeVersion.map { .uint(UInt64($0)) } ?? .null),
        ]
        switch agreement.status {
        case .agreed:
            members.append(("status", .string("agreed")))
        case .incompatible(let failure):
            members.append(("reason", .fields([("kind", .string(failure.kind.name)), ("reason", .string(failure.reason))])))
            members.append(("status", .string("incompatible")))
        }
        members.append(
            (
                "types",
                .array(
                    agreement.types.map { type in
                        .fields([
                            ("aToB", verdict(type.sending)), ("bToA", verdict(type.receiving)),
                            ("nameA", type.localName.map(JSONValue.string) ?? .null),
                            ("nameB", type.remoteName.map(JSONValue.string) ?? .null),
                            ("typeID", .uint(type.typeID)),
                        ])
                    })
            ))
        return JSONValue.fields(members).rendered() + "\n"
    }
}

extension JSONValue {
    /// An object from its members (their order does not matter: objects render sorted by key).
    fileprivate static func fields(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(Dictionary(members, uniquingKeysWith: { first, _ in first }))
    }
}
