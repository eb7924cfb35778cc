extension NATSServerOperation {
    /// What a server sends for this operation, with `payload` after a message's headers:
    /// for tests and test servers, which speak the server's side.
    /// - Throws: `invalidArgument` for a subject or header the protocol cannot carry.
    public func encoded(payload: [UInt8] = []) throws(NATSProtocolError) -> [UInt8] {
        switch self {
        case .info(let info):
            return Array("INFO \(info.json.rendered(pretty: false))\r\n".utf8)
        case .message(let head):
            try NATSSubject.check(head.subject, wildcards: false)
            if let replyTo = head.replyTo { try NATSSubject.check(replyTo, wildcards: false) }
            let block = try head.headers?.encoded()
            var line = (block == nil ? "MSG " : "HMSG ") + head.subject + " \(head.subscription)"
            if let replyTo = head.replyTo { line += " " + replyTo }
            if let block { line += " \(block.count)" }
            line += " \((block?.count ?? 0) + payload.count)\r\n"
            return Array(line.utf8) + (block ?? []) + payload + [13, 10]
        case .ping:
            return Array("PING\r\n".utf8)
        case .pong:
            return Array("PONG\r\n".utf8)
        case .ok:
            return Array("+OK\r\n".utf8)
        case .error(let text):
            guard !text.utf8.contains(13), !text.utf8.contains(10) else {
                throw NATSProtocolError(.invalidArgument, offset: nil, "an error text with CR or LF")
            }
            return Array("-ERR '\(text)'\r\n".utf8)
        }
    }
}
