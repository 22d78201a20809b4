import EmulatedCameraHarness
import Foundation
import Testing

/// Every suite that runs `marker-shutter live` against the emulated camera, one test at a time: the
/// camera paces frames in real time, and runs side by side on two cores would skip frames.
@Suite(.serialized) enum LiveTests {}

/// A harness for one test, or the test is skipped (cancelled) with the reason the emulated camera
/// cannot run here. A plugin that does not build, or a missing build product, fails the test instead.
func makeLiveHarness() async throws -> EmulatedCameraHarness {
    let harness = try EmulatedCameraHarness()
    try await harness.checkProducts()
    guard FileManager.default.isExecutableFile(atPath: harness.markerShutter) else {
        throw ScriptError("marker-shutter was not built at \(harness.markerShutter); build the package first")
    }
    if let reason = await harness.unavailableReason() {
        try Test.cancel("the emulated camera cannot run here: \(reason)")
    }
    return harness
}

extension EmulatedCameraHarness {
    /// The built `marker-shutter`.
    var markerShutter: String { productsDirectory + "/marker-shutter" }

    /// A 640x480 MJPEG camera at 30 frames per second showing `session`'s frames, unchanged.
    func addCamera(
        showing session: ScriptedSession, faults: [EmulatedCameraConfiguration.Fault] = [], named name: String = "video0",
        configure: (inout EmulatedCameraConfiguration) -> Void = { _ in }
    ) throws -> EmulatedCamera {
        let frames = directory + "/" + name + "-frames"
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        try session.writeFrames(to: frames)
        let size = ScriptedSession.size
        var configuration = EmulatedCameraConfiguration(
            formats: [.mjpeg], sizes: [(size.width, size.height)], rates: [ScriptedSession.framesPerSecond],
            framesFolder: frames, faults: faults)
        configure(&configuration)
        return try addCamera(configuration, named: name)
    }

    /// The arguments that point `marker-shutter live` at `camera` with the session's size, rate and pattern.
    func liveArguments(_ camera: EmulatedCamera) -> [String] {
        let size = ScriptedSession.size
        return [
            "live", "--device", camera.path, "--pattern", ScriptedSession.patternText,
            "--size", "\(size.width)x\(size.height)", "--fps", "\(ScriptedSession.framesPerSecond)",
        ]
    }

    /// Starts `marker-shutter live` on `camera` with `arguments` after the camera's own.
    func startLive(_ camera: EmulatedCamera, _ arguments: [String]) throws -> HarnessProcess {
        try start(markerShutter, liveArguments(camera) + arguments)
    }

    /// A new folder inside the harness's folder.
    func makeFolder(_ name: String) throws -> String {
        let path = directory + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// What a `live` run printed: its shutter phase changes and summary on standard error, the pictures
/// it saved on standard output.
struct LiveOutput {
    /// A picture as announced on standard output: `PATH (frame N[, held 0.12s], request|auto)`.
    struct Picture {
        let path: String
        let frame: Int
    }

    /// The summary's counts: `N frames received, N detected, N skipped while detection was busy, N lost by the camera`.
    struct Counts: Equatable {
        let received: Int
        let detected: Int
        let skipped: Int
        let lost: Int
    }

    let standardOutput: String
    let standardError: String

    init(_ result: HarnessResult) {
        standardOutput = result.standardOutput
        standardError = result.standardError
    }

    init(_ process: HarnessProcess) {
        standardOutput = process.standardOutput
        standardError = process.standardError
    }

    /// The lines `t=1.234s frame 12: shutter enabled`, with times counted from the first such line.
    var phaseChanges: [PhaseChange] {
        let lines = standardError.split(separator: "\n").compactMap { line -> (Double, Int, String)? in
            guard let match = line.wholeMatch(of: /t=([0-9.]+)s frame ([0-9]+): shutter (enabled|held|disabled)/),
                  let seconds = Double(match.1), let frame = Int(match.2) else { return nil }
            return (seconds, frame, String(match.3))
        }
        guard let origin = lines.first?.0 else { return [] }
        return lines.map { PhaseChange(frame: $0.1, phase: $0.2, seconds: $0.0 - origin) }
    }

    var pictures: [Picture] {
        standardOutput.split(separator: "\n").compactMap { line in
            guard let match = line.wholeMatch(of: /(.+) \(frame ([0-9]+)(, held [0-9.]+s)?, (request|auto)\)/),
                  let frame = Int(match.2) else { return nil }
            return Picture(path: String(match.1), frame: frame)
        }
    }

    var counts: Counts? {
        guard let match = standardError.firstMatch(
            of: /([0-9]+) frames received, ([0-9]+) detected, ([0-9]+) skipped while detection was busy, ([0-9]+) lost by the camera/),
            let received = Int(match.1), let detected = Int(match.2), let skipped = Int(match.3), let lost = Int(match.4)
        else { return nil }
        return Counts(received: received, detected: detected, skipped: skipped, lost: lost)
    }

    /// The summary's latency figures in milliseconds: median, 99th percentile.
    var latency: (median: Double, p99: Double)? {
        guard let match = standardError.firstMatch(
            of: /latency from frame to shutter state: median ([0-9.]+) ms, 99th percentile ([0-9.]+) ms/),
            let median = Double(match.1), let p99 = Double(match.2) else { return nil }
        return (median, p99)
    }
}
