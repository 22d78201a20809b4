import Foundation
import Testing

/// `live` reading commands from standard input when it is not a terminal: `capture` (or `c`) and
/// `quit` (or `q`) become the session's commands; any other line gets a hint and changes nothing.
@Suite struct LiveKeyboardCommandTests {
    @Test func aLineThatIsNoCommandGetsAHintAndQuitStopsTheSession() throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let session = MarkerShutterBinary.packageRoot + "/Samples/charuco-session"
        let result = try MarkerShutterBinary.run(["live", "--replay", session, "--out", "picks"], in: scratch,
                                                 input: "  Hello There \n\n   \nquit\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("commands on standard input: capture, quit (or Ctrl-C)"), "\(result.standardError)")
        let hints = result.standardError.components(separatedBy: "\n").filter { $0.contains("unknown command") }
        #expect(hints == ["unknown command \"hello there\": type capture or quit"], "\(result.standardError)")
        #expect(result.standardError.contains("stopped (quit):"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty, "no picture was asked for: \(result.standardOutput)")
    }
}
