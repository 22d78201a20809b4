import Testing
@testable import BrowserView

@Suite struct HostHeaderTests {
    @Test func namesAddressesAndPorts() throws {
        #expect(HostHeader("127.0.0.1:8080") == HostHeader(name: "127.0.0.1", port: 8080))
        #expect(HostHeader("LocalHost.") == HostHeader(name: "localhost", port: nil))
        #expect(HostHeader(" [::1]:80 ") == HostHeader(name: "::1", port: 80))
        #expect(HostHeader("[::FFFF:127.0.0.1]") == HostHeader(name: "::ffff:127.0.0.1", port: nil))
        #expect(HostHeader("camera-pc:65535")?.description == "camera-pc:65535")
        #expect(HostHeader("[::1]:9")?.description == "[::1]:9")
    }

    @Test func whatIsNoHost() {
        for text in ["", " ", ":80", "a:b:80", "::1", "[::1", "[::1]x", "[evil.example]:80", "host:65536", "host:123456",
                     "host:-1", "host:+8", "evil.example@127.0.0.1", "a/b", "a b", "é.example", "..", ".", ".a", "a..b", "camera..", "camera..:80",
                     "127.0.0.1:80:80", String(repeating: "a", count: 301)] {
            #expect(HostHeader(text) == nil, "\(text.debugDescription)")
        }
    }
}

@Suite struct HostPolicyTests {
    @Test func onLoopbackTheAddressAndLocalhost() throws {
        let policy = try HostPolicy(address: ServeAddress(port: 8080), machineName: "camera-pc")
        #expect(policy.permits(HostHeader("127.0.0.1:8080")!, localAddress: "127.0.0.1"))
        #expect(policy.permits(HostHeader("127.0.0.1:9000")!, localAddress: "127.0.0.1"), "a tunnel's port")
        #expect(policy.permits(HostHeader("localhost:8080")!, localAddress: "127.0.0.1"))
        #expect(policy.permits(HostHeader("127.0.0.1")!, localAddress: nil))
        #expect(!policy.permits(HostHeader("evil.example:8080")!, localAddress: "127.0.0.1"))
        #expect(!policy.permits(HostHeader("camera-pc:8080")!, localAddress: "127.0.0.1"), "no host name on loopback")
        #expect(!policy.permits(HostHeader("10.0.0.1:8080")!, localAddress: "127.0.0.1"))
        #expect(!policy.permits(HostHeader("localhost.evil.example")!, localAddress: "127.0.0.1"))
    }

    @Test func onIPv6LoopbackTheSameAddressInAnyForm() throws {
        let policy = try HostPolicy(address: ServeAddress(parsing: "[::1]:0"))
        #expect(policy.permits(HostHeader("[::1]:5")!, localAddress: "::1"))
        #expect(policy.permits(HostHeader("[0:0:0:0:0:0:0:1]")!, localAddress: "::1"))
        #expect(policy.permits(HostHeader("localhost")!, localAddress: "::1"))
        #expect(!policy.permits(HostHeader("[::2]")!, localAddress: "::1"))
    }

    @Test func onEveryAddressTheOneArrivedAtAndTheMachinesName() throws {
        let policy = try HostPolicy(address: ServeAddress(parsing: "0.0.0.0:8080"), allowing: ["Camera.Lab.Example"],
                                    machineName: "camera-pc")
        #expect(policy.permits(HostHeader("192.168.1.5:8080")!, localAddress: "192.168.1.5"))
        #expect(policy.permits(HostHeader("192.168.1.5:8080")!, localAddress: "::ffff:192.168.1.5"))
        #expect(!policy.permits(HostHeader("192.168.1.6:8080")!, localAddress: "192.168.1.5"))
        #expect(!policy.permits(HostHeader("0.0.0.0:8080")!, localAddress: "192.168.1.5"))
        #expect(policy.permits(HostHeader("camera-pc:8080")!, localAddress: "192.168.1.5"))
        #expect(policy.permits(HostHeader("camera.lab.example")!, localAddress: "192.168.1.5"))
        #expect(!policy.permits(HostHeader("localhost:8080")!, localAddress: "192.168.1.5"), "localhost only on loopback")
        #expect(policy.permits(HostHeader("localhost:8080")!, localAddress: "127.0.0.1"))
        #expect(!policy.permits(HostHeader("evil.example:8080")!, localAddress: "192.168.1.5"))
        #expect(policy.names == ["camera.lab.example", "camera-pc"])
    }

    @Test func allowedNamesHaveNoPort() {
        #expect(throws: HostPolicyError.badName("camera:80")) { try HostPolicy(address: ServeAddress(port: 0), allowing: ["camera:80"]) }
        #expect(throws: HostPolicyError.badName("")) { try HostPolicy(address: ServeAddress(port: 0), allowing: [""]) }
        #expect(HostPolicyError.badName("a/b").description
            == "invalid host name 'a/b': give a name or an address without a port, for example camera-pc or 192.168.1.5")
    }
}

@Suite struct SameOriginTests {
    let host = HostHeader("127.0.0.1:8080")!

    @Test func thePagesOwnRequestsPass() {
        #expect(SameOrigin.permits(origin: "http://127.0.0.1:8080", fetchSite: "same-origin", host: host))
        #expect(SameOrigin.permits(origin: nil, fetchSite: nil, host: host), "curl, scripts")
        #expect(SameOrigin.permits(origin: nil, fetchSite: "none", host: host))
        #expect(SameOrigin.permits(origin: "http://localhost", fetchSite: nil, host: HostHeader("localhost:80")!))
    }

    @Test func otherSitesAreRefused() {
        #expect(!SameOrigin.permits(origin: "http://evil.example", fetchSite: "cross-site", host: host))
        #expect(!SameOrigin.permits(origin: "http://evil.example", fetchSite: nil, host: host))
        #expect(!SameOrigin.permits(origin: nil, fetchSite: "cross-site", host: host))
        #expect(!SameOrigin.permits(origin: nil, fetchSite: "same-site", host: host))
        #expect(!SameOrigin.permits(origin: "http://127.0.0.1:3000", fetchSite: "same-site", host: host), "another port")
        #expect(!SameOrigin.permits(origin: "http://127.0.0.1:3000", fetchSite: nil, host: host), "another port")
        #expect(!SameOrigin.permits(origin: "null", fetchSite: nil, host: host))
        #expect(!SameOrigin.permits(origin: "https://127.0.0.1:8080/x", fetchSite: nil, host: host))
        #expect(!SameOrigin.permits(origin: "file://", fetchSite: nil, host: host))
        #expect(SameOrigin.changesState("POST") && SameOrigin.changesState("PUT") && SameOrigin.changesState("OPTIONS"))
        #expect(!SameOrigin.changesState("GET") && !SameOrigin.changesState("HEAD"))
    }
}

@Suite struct ViewRequestPolicyTests {
    @Test func hostThenOriginThenToken() throws {
        let policy = ViewRequestPolicy(hosts: try HostPolicy(address: ServeAddress(port: 8080)), access: try ViewAccess(token: "t0k"))
        func verdict(_ method: String, _ hosts: [String], origin: String? = nil, token: String? = nil) -> ViewRequestPolicy.Verdict {
            policy.verdict(.init(method: method, hostValues: hosts, origin: origin, queryToken: token, localAddress: "127.0.0.1"))
        }
        #expect(verdict("GET", ["127.0.0.1:8080"], token: "t0k") == .allowed)
        #expect(verdict("POST", ["127.0.0.1:8080"], origin: "http://127.0.0.1:8080", token: "t0k") == .allowed)
        #expect(verdict("GET", ["evil.example:8080"], token: "t0k") == .misdirected)
        #expect(verdict("GET", [], token: "t0k") == .misdirected)
        #expect(verdict("GET", ["127.0.0.1:8080", "127.0.0.1:8080"], token: "t0k") == .misdirected)
        #expect(verdict("POST", ["127.0.0.1:8080"], origin: "http://evil.example", token: "t0k") == .crossSite)
        #expect(verdict("POST", ["127.0.0.1:8080"], origin: "http://evil.example") == .crossSite)
        #expect(verdict("POST", ["127.0.0.1:8080"]) == .unauthorized)
        #expect(verdict("GET", ["127.0.0.1:8080"], token: "t0K") == .unauthorized)
        #expect([ViewRequestPolicy.Verdict.allowed, .misdirected, .crossSite, .unauthorized].map(\.status) == [200, 421, 403, 401])
    }
}

@Suite struct ConnectionLimitsTests {
    @Test func aQuarterOfTheOpenFilesAtMost128() {
        #expect(ConnectionLimits.forOpenFileLimit(256) == ConnectionLimits(maximum: 64, perClient: 32))
        #expect(ConnectionLimits.forOpenFileLimit(1024) == ConnectionLimits(maximum: 128, perClient: 32))
        #expect(ConnectionLimits.forOpenFileLimit(Int.max) == ConnectionLimits(maximum: 128, perClient: 32))
        #expect(ConnectionLimits.forOpenFileLimit(40) == ConnectionLimits(maximum: 10, perClient: 10))
        #expect(ConnectionLimits.forOpenFileLimit(0) == ConnectionLimits(maximum: 1, perClient: 1))
        #expect(ConnectionLimits.forOpenFileLimit(256).description
            == "at most 64 connections, 32 from one address; 16 streams, 16 from one address")
        #expect(ConnectionLimits.forOpenFileLimit(40).streamsPerClient == 2, "a quarter of 40 is 10 connections: 2 streams")
    }
}
