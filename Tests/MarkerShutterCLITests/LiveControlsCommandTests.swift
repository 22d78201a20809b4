import Foundation
import Testing

/// `live`'s camera controls as options: refused before anything with a replay, and described in `--help`.
@Suite struct LiveControlsCommandTests {
    @Test(arguments: [
        (["--exposure", "20000"], "--exposure, --focus, --control and --lock set a camera's controls: not with --replay"),
        (["--control", "gain=10"], "--exposure, --focus, --control and --lock set a camera's controls: not with --replay"),
        (["--lock"], "--exposure, --focus, --control and --lock set a camera's controls: not with --replay"),
    ])
    func controlsWithAReplayAreAUsageError(extra: [String], message: String) throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try MarkerShutterBinary.run(["live", "--replay", LiveCalibrateCommandTests.session, "--out", "picks"] + extra,
                                                 in: scratch)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(CalibrateCommandTests.contents(scratch).isEmpty)
    }

    @Test(arguments: [
        (["--settle", "2"], "--settle needs --lock"),
        (["--lock", "--settle", "61"], "--settle must be 0 to 60 seconds, got 61"),
        (["--control", "gain"], "'gain' is not understood: expected NAME=VALUE with a whole number"),
        (["--exposure", "bright"], "'bright' is not understood: --exposure takes auto or a whole number"),
    ])
    func malformedControlsAreUsageErrorsBeforeTheCameraOpens(extra: [String], message: String) throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try MarkerShutterBinary.run(["live", "--device", scratch + "/no-camera", "--out", "picks"] + extra, in: scratch)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(CalibrateCommandTests.contents(scratch).isEmpty)
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
