// libFuzzer harness over the browser view's request checks (compiled with Sources/BrowserView/Access
// and ConnectionTable.swift by Fuzz/build). The input is a request head as a client sends it; the
// harness splits it as an HTTP/1.1 parser would, asks three servers' policies (loopback, every
// address with an allowed name, a token) for their verdicts, and checks what must always hold:
// a Host that parses writes itself back unchanged, an allowed request has exactly one Host the
// server answers to, a request that changes something passes only from the same origin, and a
// request passing the token check carries the token. The same bytes then drive a connection table
// through opens, requests and closes, which must never hold more than its limits nor close a
// connection with a request under way.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkPolicies(RequestHead(bytes))
    checkConnectionTable(bytes)
    return 0
}

/// A request head split into its request line and header fields, as an HTTP/1.1 parser does.
struct RequestHead {
    var method = "GET"
    var target = "/"
    var fields: [(name: String, value: String)] = []

    init(_ bytes: [UInt8]) {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
        guard let first = lines.first else { return }
        let parts = first.split(separator: " ", omittingEmptySubsequences: false)
        if parts.count >= 2 {
            method = String(parts[0])
            target = String(parts[1])
        }
        for line in lines.dropFirst() {
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append((String(line[..<colon]).lowercased(), String(line[line.index(after: colon)...])))
        }
    }

    func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    func single(_ name: String) -> String? {
        let found = values(name)
        return found.count > 1 ? "null" : found.first
    }

    var queryToken: String? {
        guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
            return String(pair.dropFirst("token=".count))
        }
        return nil
    }
}

private let token = "s3cret-T0ken"
private let policies: [ViewRequestPolicy] = [
    ViewRequestPolicy(hosts: try! HostPolicy(address: ServeAddress(port: 8080))),
    ViewRequestPolicy(hosts: try! HostPolicy(address: ServeAddress(host: "0.0.0.0", port: 8080), allowing: ["camera.lab.example"],
                                             machineName: "camera-pc")),
    ViewRequestPolicy(hosts: try! HostPolicy(address: ServeAddress(host: "::1", port: 0)), access: try! ViewAccess(token: token)),
]

func checkPolicies(_ head: RequestHead) {
    let hostValues = head.values("host")
    for value in hostValues {
        guard let host = HostHeader(value) else { continue }
        precondition(HostHeader(host.description) == host, "Host '\(value)' -> '\(host.description)' does not parse back")
        precondition(!host.name.isEmpty && host.name == host.name.lowercased(), "Host '\(value)' -> name '\(host.name)'")
        precondition(host.port.map { (0...65_535).contains($0) } ?? true, "Host '\(value)' -> port \(host.port!)")
        precondition(SameOrigin.permits(origin: "http://" + host.description, fetchSite: "same-origin", host: host),
                     "the page's own origin for Host '\(value)' is refused")
    }
    for localAddress in ["127.0.0.1", "::1", "192.168.1.5", "::ffff:10.0.0.2"] {
        for policy in policies {
            let request = ViewRequestPolicy.Request(
                method: head.method, hostValues: hostValues, origin: head.single("origin"), fetchSite: head.single("sec-fetch-site"),
                queryToken: head.queryToken, authorization: head.values("authorization").first, localAddress: localAddress)
            let verdict = policy.verdict(request)
            guard verdict == .allowed || verdict == .unauthorized else { continue }
            precondition(hostValues.count == 1, "a request with \(hostValues.count) Host headers passed the host check")
            let host = HostHeader(hostValues[0])!
            precondition(policy.hosts.permits(host, localAddress: localAddress))
            precondition(host.name != "evil.example", "evil.example passed")
            if SameOrigin.changesState(head.method) {
                precondition(SameOrigin.permits(origin: request.origin, fetchSite: request.fetchSite, host: host),
                             "\(head.method) from \(request.origin ?? "-") passed for Host \(host)")
                precondition(request.origin.map { !$0.contains("evil") } ?? true, "\(head.method) from \(request.origin!) passed")
            }
            if verdict == .allowed, let required = policy.access.token {
                precondition(request.queryToken == required || request.authorization == "Bearer " + required,
                             "a request without the token passed")
            }
        }
    }
}

func checkConnectionTable(_ bytes: [UInt8]) {
    let limits = ConnectionLimits(maximum: 6, perClient: 4, streams: 3, streamsPerClient: 2)
    var table = ConnectionTable<Int>(limits: limits)
    var open: Set<Int> = [], busy: Set<Int> = [], streaming: Set<Int> = [], next = 0
    for byte in bytes {
        let target = Int(byte >> 3) % max(next, 1)
        switch byte & 7 {
        case 0, 1, 2:
            next += 1
            let closing = table.opened(next, client: "client\(byte & 3)")
            open.insert(next)
            for id in closing {
                precondition(!busy.contains(id), "closed \(id), which has a request under way")
                precondition(open.contains(id), "closed \(id), which is not open")
                open.remove(id)
            }
        case 3:
            if open.contains(target) {
                table.requestBegan(target)
                busy.insert(target)
            }
        case 4:
            // A stream: a request whose answer lasts.
            if open.contains(target), !streaming.contains(target) {
                table.requestBegan(target)
                busy.insert(target)
                streaming.insert(target)
                for id in table.streamBegan(target) {
                    precondition(id != target, "a stream ended itself")
                    precondition(streaming.contains(id), "a stream ended \(id), which sends none")
                    open.remove(id)
                    busy.remove(id)
                    streaming.remove(id)
                }
            }
        case 5:
            table.requestEnded(target)
            busy.remove(target)
            table.streamEnded(target)
            streaming.remove(target)
        default:
            table.closed(target)
            open.remove(target)
            busy.remove(target)
            streaming.remove(target)
        }
        precondition(table.count == open.count, "the table counts \(table.count), \(open.count) are open")
        precondition(table.count <= 6, "\(table.count) connections open, over the limit of 6")
        precondition(table.streamCount == streaming.count, "the table counts \(table.streamCount) streams, \(streaming.count) are sent")
        precondition(table.streamCount <= limits.streams, "\(table.streamCount) streams, over the limit of \(limits.streams)")
        for client in 0..<4 {
            precondition(table.count(from: "client\(client)") <= 4, "client \(client) holds more than 4")
            precondition(table.streamCount(to: "client\(client)") <= 2, "client \(client) holds more than 2 streams")
        }
    }
}
