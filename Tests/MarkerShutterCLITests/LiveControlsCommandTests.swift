import Foundation
import Testing

/// `live`'s camera controls as options: refused before anything with a replay, and described in `--help`.
@Suite struct LiveControlsCommandTests {
    static let replay = ["live", "--replay", LiveCalibrateCommandTests.session, "--out", "picks"]
    /// A camera that does not exist: the usage error is found before it would be opened.
    static let camera = ["live", "--device", "/nonexistent/video9", "--out", "picks"]
    static let notWithReplay = "--exposure, --focus, --control and --lock set a camera's controls: not with --replay"

    /// Controls with a replay, `--settle` without `--lock` or out of range, malformed values: exit 64, nothing written.
    @Test(arguments: [
        (replay + ["--exposure", "20000"], notWithReplay),
        (replay + ["--control", "gain=10"], notWithReplay),
        (replay + ["--lock"], notWithReplay),
        (camera + ["--settle", "2"], "--settle needs --lock"),
        (camera + ["--lock", "--settle", "61"], "--settle must be 0 to 60 seconds, got 61"),
        (camera + ["--control", "gain"], "'gain' is not understood: expected NAME=VALUE with a whole number"),
        (camera + ["--exposure", "bright"], "'bright' is not understood: --exposure takes auto or a whole number"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        try MarkerShutterBinary.expectUsageError(arguments, message: message)
    }

    @Test func helpNamesTheControlOptionsAndWhereTheyAreRecorded() throws {
        let help = try MarkerShutterBinary.run(["live", "--help"])
        #expect(help.status == 0)
        let text = help.flowingOutput
        for phrase in ["--exposure <auto|microseconds>", "--focus <auto|value>", "--control <name=value>", "--lock",
                       "--settle <seconds>", "(0 to 60 seconds)", "sidecar (\"controls\")", "manifest.jsonl",
                       "a camera control was refused"] {
            #expect(text.contains(phrase), "\(phrase)")
        }
    }
}
