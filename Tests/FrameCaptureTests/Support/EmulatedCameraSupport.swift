import EmulatedCameraHarness
import Foundation
import Testing

/// A harness for one test, or the test is skipped (cancelled) with the reason the emulated camera
/// cannot run here. A plugin that does not build, or a missing build product, fails the test instead.
func makeHarness() async throws -> EmulatedCameraHarness {
    let harness = try EmulatedCameraHarness()
    try await harness.checkProducts()
    if let reason = await namespaceRefusal.value(harness) {
        try Test.cancel("the emulated camera cannot run here: \(reason)")
    }
    return harness
}

/// Asked once per test process: the namespace is either allowed or not.
private let namespaceRefusal = NamespaceCheck()

private actor NamespaceCheck {
    private var answer: String??

    func value(_ harness: EmulatedCameraHarness) async -> String? {
        if let answer { return answer }
        let reason = await harness.unavailableReason()
        answer = .some(reason)
        return reason
    }
}

extension Dictionary where Key == String, Value == any Sendable {
    func int(_ key: String) -> Int? { (self[key] as? NSNumber)?.intValue ?? self[key] as? Int }
    func int64(_ key: String) -> Int64? { (self[key] as? NSNumber)?.int64Value ?? (self[key] as? Int).map(Int64.init) }
    func string(_ key: String) -> String? { self[key] as? String }
    func bool(_ key: String) -> Bool? { (self[key] as? NSNumber)?.boolValue ?? self[key] as? Bool }
}

/// The probe's frames, teardown and error events of one run.
struct ProbeRun {
    let result: HarnessResult
    var frames: [[String: any Sendable]] { result.events("frame") }
    var sequences: [Int] { frames.compactMap { $0.int("sequence") } }
    var teardown: [String: any Sendable] { result.events("teardown").last ?? [:] }
    var error: [String: any Sendable]? { result.events("error").last }
    var opened: [String: any Sendable] { result.events("opened").first ?? [:] }

    init(_ result: HarnessResult) { self.result = result }

    /// Every teardown check: each mapped buffer unmapped, descriptor closed, and /proc agrees.
    func expectCleanTeardown(sourceLocation: SourceLocation = #_sourceLocation) {
        let mapped = teardown.int("buffers_mapped")
        #expect(mapped ?? 0 > 0, "no buffer was ever mapped: \(result.standardOutput.suffix(500))", sourceLocation: sourceLocation)
        #expect(teardown.int("buffers_unmapped") == mapped, sourceLocation: sourceLocation)
        #expect(teardown.bool("closed") == true, sourceLocation: sourceLocation)
        #expect(teardown.int("device_mappings") == 0, sourceLocation: sourceLocation)
        #expect(teardown.int("device_descriptors") == 0, sourceLocation: sourceLocation)
    }
}

extension EmulatedCameraHarness {
    func stream(_ camera: EmulatedCamera, _ arguments: [String], timeout: Duration = .seconds(60)) async throws -> ProbeRun {
        ProbeRun(try await runProbe(["stream", "--device", camera.path] + arguments, timeout: timeout))
    }

    /// Streams with a frame queue longer than any run here, so that a probe slowed by a busy machine
    /// discards no frame. With an unpaced camera (each frame made when the reader has a buffer
    /// waiting) the sequences are then exact whatever the load.
    func streamEveryFrame(_ camera: EmulatedCamera, _ arguments: [String], timeout: Duration = .seconds(60)) async throws -> ProbeRun {
        try await stream(camera, ["--queue", "64"] + arguments, timeout: timeout)
    }

    /// Reads the probe's dump of frame `sequence`.
    func dumpedFrame(_ sequence: Int, in folder: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/frame-\(sequence).raw")))
    }

    func makeFolder(_ name: String) throws -> String {
        let path = directory + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// The shared calibration photographs (see images/MANIFEST.md next to the project).
enum SharedImages {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/images").path
    static let charucoBoard = root + "/charuco/board.jpg"
    static let singleMarkers = root + "/aruco/singlemarkers.jpg"
}

/// Every suite that runs programs against the emulated camera, one test at a time: the camera
/// paces frames in real time, and a dozen probes converting frames at once on two cores would
/// fall behind it and lose frames the tests count exactly.
@Suite(.serialized) enum EmulatedCameraTests {}
