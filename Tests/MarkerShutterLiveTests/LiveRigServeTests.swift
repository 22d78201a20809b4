import EmulatedCameraHarness
import Foundation
import HTTPTestSupport
import MarkerDetection
import Testing

extension LiveTests {
    /// `live --camera ... --serve 127.0.0.1:0` on two emulated cameras (640x480 at 30 fps, 1280x720
    /// at 25 fps): the page's state carries the rig and each camera, the stream sends both side by
    /// side (1493x480), the page's capture takes a set or answers the rig's refusal, and its Stop
    /// ends the run. Nothing depends on speed: each step polls what it checks, reading the rig's state
    /// and its words from one document, up to a generous deadline.
    @Suite struct LiveRigServeTests {
        /// Starts the rig with the browser view, and returns the process and the port it serves on.
        static func serve(_ harness: EmulatedCameraHarness, left: [ScriptedSession.Shot], right: [ScriptedSession.Shot],
                          out: String) async throws -> (HarnessProcess, Int) {
            let leftCamera = try LiveRigTests.addCamera(harness, named: "left", shots: left)
            let rightCamera = try LiveRigTests.addCamera(harness, named: "right", shots: right, size: (1280, 720), fps: 25)
            let process = try LiveRigTests.live(harness, [("left", leftCamera), ("right", rightCamera)],
                                                ["--camera-option", "right:size=1280x720,fps=25", "--out", out,
                                                 "--serve", "127.0.0.1:0"])
            try await process.waitForOutput(containing: "browser view: http://127.0.0.1:", on: .standardError, timeout: .seconds(60))
            let port = try #require(process.standardError.firstMatch(of: /browser view: http:\/\/127\.0\.0\.1:([0-9]+)\//).flatMap { Int($0.1) })
            return (process, port)
        }

        /// Sends a request as the page does, on a connection of its own, and reads the whole answer.
        static func exchange(_ method: String, _ path: String, port: Int) async throws -> (status: Int, body: [UInt8]) {
            try await onThread {
                let connection = try TestConnection(port: port)
                defer { connection.hangUp() }
                try connection.send(method, path, host: "127.0.0.1:\(port)",
                                    headers: ["Origin": "http://127.0.0.1:\(port)", "Sec-Fetch-Site": "same-origin", "Connection": "close"])
                let head = try connection.readHead()
                return (head.status, try connection.readBodyToEnd())
            }
        }

        /// The first JPEG of the image stream; hangs up after it.
        static func streamPart(port: Int) async throws -> [UInt8] {
            try await onThread { try StreamPicture.first(port: port) }
        }

        /// The `rig` object of `GET /state`; `nil` before the page shows the rig.
        static func rig(port: Int) async throws -> [String: Any]? {
            let (status, body) = try await exchange("GET", "/state", port: port)
            guard status == 200 else { throw TestConnection.Failure(description: "GET /state answered \(status)") }
            let state = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            return state["rig"] as? [String: Any]
        }

        /// Polls the rig's state until `check` accepts it, for up to two minutes.
        static func poll(_ what: String, port: Int, _ check: ([String: Any]) -> Bool) async throws -> [String: Any] {
            var last: [String: Any] = [:]
            // 100 ms between looks only; each look decides by what it reads.
            let found = try await HTTPTestSupport.poll(for: .seconds(120), every: .milliseconds(100)) { () async throws -> [String: Any]? in
                guard let rig = try await rig(port: port) else { return nil }
                last = rig
                return check(rig) ? rig : nil
            }
            guard let found else { throw TestConnection.Failure(description: "no \(what) within two minutes; last: \(last)") }
            return found
        }

        /// `POST /capture` as the page sends it: the status and the answer's text.
        static func capture(port: Int) async throws -> (Int, String) {
            let (status, body) = try await exchange("POST", "/capture", port: port)
            return (status, String(decoding: body, as: UTF8.self))
        }

        @Test func thePageShowsTheRigAndTakesASet() async throws {
            let harness = try await makeLiveHarness()
            let out = harness.directory + "/pictures"
            let (process, port) = try await Self.serve(harness, left: LiveRigTests.still, right: LiveRigTests.still, out: out)

            let enabled = try await Self.poll("rig enabled", port: port) { $0["enabled"] as? Bool == true }
            let badge = try #require(enabled["badge"] as? String)
            #expect(badge.hasPrefix("ENABLED: frames ") && badge.hasSuffix(" ms apart"), "\(badge)")
            let cameras = try #require(enabled["cameras"] as? [[String: Any]])
            #expect(cameras.map { $0["name"] as? String } == ["left", "right"])
            #expect(cameras.allSatisfy { ["enabled", "held"].contains($0["state"] as? String) && ($0["markers"] as? Int ?? 0) > 0 },
                    "\(cameras)")

            let jpeg = try await Self.streamPart(port: port)
            let picture = try ImageFile.decode(jpeg)
            #expect(picture.width == 1493 && picture.height == 480, "640x480 beside 1280x720 scaled to 480 rows: \(picture.width)x\(picture.height)")

            // The rig may turn disabled for a moment on a busy machine: ask until a set is taken.
            var answer = (0, "")
            _ = try await HTTPTestSupport.poll(for: .seconds(120), every: .milliseconds(100)) { () async throws -> Bool? in
                answer = try await Self.capture(port: port)
                if answer.0 == 200 { return true }
                #expect(answer.0 == 409 && answer.1.contains(#""accepted":false"#), "\(answer)")
                return nil
            }
            #expect(answer.0 == 200 && answer.1 == #"{"accepted":true,"command":"capture"}"# + "\n", "\(answer)")
            let saved = try await Self.poll("the set in the page's list", port: port) {
                ($0["sets"] as? [String: Any])?["taken"] as? Int == 1
            }
            let recent = try #require((saved["sets"] as? [String: Any])?["recent"] as? [[String: Any]])
            #expect(recent.first?["sidecar"] as? String == "set_0001.json")
            #expect(recent.first?["images"] as? [String] == ["left/set_0001.png", "right/set_0001.png"])
            #expect(recent.first?["trigger"] as? String == "request")
            #expect(FileManager.default.fileExists(atPath: out + "/set_0001.json"))

            #expect(try await Self.exchange("POST", "/stop", port: port).status == 200)
            let result = try await process.wait(timeout: .seconds(60))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("stopped: stopped from the browser view"), "\(result.standardError)")
            #expect(result.standardError.contains("sets: 1 saved, "), "\(result.standardError)")
        }

        @Test func aCameraThatDoesNotSeeTheBoardIsNamedAndASetIsRefused() async throws {
            let harness = try await makeLiveHarness()
            let out = harness.directory + "/pictures"
            let (process, port) = try await Self.serve(harness, left: LiveRigTests.still, right: [.empty], out: out)

            // State and words read together, from one document.
            let refused = try await Self.poll("right not seeing", port: port) { rig in
                let states = (rig["cameras"] as? [[String: Any]])?.map { $0["state"] as? String }
                return rig["refusal"] as? String == "right does not see the board" && states?[0] == "enabled"
            }
            #expect(refused["enabled"] as? Bool == false)
            #expect(refused["badge"] as? String == "disabled: right does not see the board")
            let cameras = try #require(refused["cameras"] as? [[String: Any]])
            #expect(cameras[1]["state"] as? String == "disabled" && cameras[1]["badge"] as? String == "NOT SEEING")

            // Refused, naming right: it does not see the board, or, when a busy machine held its
            // frames back past its stall limit meanwhile, it stalled.
            let rightReason = #"right (does not see the board|stalled: no frame for [0-9]+ ms)"#
            let answer = try await Self.capture(port: port)
            #expect(answer.0 == 409)
            #expect(answer.1.range(of: #"^\{"accepted":false,"command":"capture","reason":""# + rightReason + #""\}\n$"#,
                                   options: .regularExpression) != nil, "\(answer.1)")

            #expect(try await Self.exchange("POST", "/stop", port: port).status == 200)
            let result = try await process.wait(timeout: .seconds(60))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.range(of: "no set taken: " + rightReason, options: .regularExpression) != nil, "\(result.standardError)")
            #expect(result.standardError.contains("sets: 0 saved, 1 refused"), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: out + "/set_0001.json"))
        }
    }
}
