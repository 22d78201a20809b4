import Foundation
import Testing

/// `live --serve`'s options: what an address others can reach needs, and what goes together.
@Suite struct ServeOptionsTests {
    static let sample = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"

    @Test func anAddressOthersReachNeedsATokenOrNoToken() throws {
        for address in ["0.0.0.0:0", "[::]:0", "192.168.1.5:8080", "camera-pc:8080"] {
            try MarkerShutterBinary.expectUsageError(
                ["live", "--replay", Self.sample, "--serve", address, "--out", "picks"],
                message: "--serve \(address) can be reached from other machines: give --token TOKEN so that "
                    + "only the page address with it works, or --no-token to let anyone who reaches it watch and take pictures")
        }
    }

    @Test func optionsThatDoNotGoTogether() throws {
        try MarkerShutterBinary.expectUsageError(
            ["live", "--replay", Self.sample, "--serve", "0.0.0.0:0", "--token", "abc", "--no-token", "--out", "picks"],
            message: "--token and --no-token exclude each other")
        try MarkerShutterBinary.expectUsageError(["live", "--replay", Self.sample, "--no-token", "--out", "picks"],
                                                 message: "--no-token goes with --serve")
        try MarkerShutterBinary.expectUsageError(["live", "--replay", Self.sample, "--allow-host", "camera-pc", "--out", "picks"],
                                                 message: "--allow-host goes with --serve")
        try MarkerShutterBinary.expectUsageError(
            ["live", "--replay", Self.sample, "--serve", "0", "--allow-host", "camera-pc:8080", "--out", "picks"],
            message: "--allow-host: invalid host name 'camera-pc:8080': give a name or an address without a port")
    }

    @Test func noTokenServesEveryoneAfterAWarning() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try MarkerShutterBinary.run(["live", "--replay", Self.sample, "--serve", "0.0.0.0:0", "--no-token",
                                                  "--out", scratch + "/picks"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("warning: serving on 0.0.0.0:0: anyone on the network who reaches it can watch the camera "
            + "and take pictures"), "\(result.standardError)")
        #expect(result.standardError.contains("browser view: http://0.0.0.0:"), "\(result.standardError)")
    }

    @Test func helpStatesTheRules() throws {
        let help = try MarkerShutterBinary.run(["live", "--help"]).flowingOutput
        #expect(help.contains("Warning: then anyone who can reach the address can watch the camera, take pictures and stop the session."))
        #expect(help.contains("Requests must name this server in their Host: the address they arrived at, localhost on loopback, "
            + "this machine's host name off loopback, or an --allow-host name (any port, for tunnels)"))
        #expect(help.contains("At most 128 connections (a quarter of the open-file limit when that is fewer), 32 from one address"))
        #expect(help.contains("At most a quarter of those stream images or events, 16 to one address (a new one ends the oldest); "
            + "a client that leaves a write unread for 5 s is disconnected."))
    }
}
