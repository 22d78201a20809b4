import Calibration
import Foundation
import MarkerDetection
@testable import MarkerShutter
import Synchronization
import Testing

/// `live --camera ... --calibrate`'s background solver: the stereo sample's sets arrive one by one
/// in a rig picture folder, as a rig session saves them; the end result is `calibrate`'s of the
/// whole folder, and its files go where they were told, never into the sets.
@Suite struct RigLiveCalibrationTests {
    static let sample = TestPaths.packageRoot + "/Samples/stereo-pair"
    static let sets = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12", "13", "14"]

    /// Copies set `stem` of the sample into the rig folder `pictures`.
    static func save(_ stem: String, into pictures: String) throws {
        for camera in ["left", "right"] {
            let folder = pictures + "/" + camera
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(sample)/\(camera)/\(stem).jpg", toPath: "\(folder)/\(stem).jpg")
        }
    }

    static func listing(_ folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder).sorted()
    }

    @Test func setsSolvedAsTheyComeEndAsCalibrateOfTheWholeFolder() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let pictures = scratch + "/sets", folder = scratch + "/rig"
        let pattern = try Pattern(parsing: "chessboard:9x6")
        let outcomes = Mutex<[Result<RigLiveCalibration.Update, CalibrationError>]>([])
        let calibration = try RigLiveCalibration(
            configuration: RigLiveCalibration.Configuration(cameras: ["left", "right"], pictures: pictures, folder: folder),
            pattern: pattern) { outcome in outcomes.withLock { $0.append(outcome) } }
        for stem in Self.sets.prefix(10) {
            try Self.save(stem, into: pictures)
            calibration.setSaved()
        }
        for stem in Self.sets.dropFirst(10) {
            try Self.save(stem, into: pictures)
            calibration.setSaved()
        }
        let update = try calibration.finish().get()
        let expected = try RigCalibration.calibrate(
            RigPictureSet(cameras: [("left", pictures + "/left"), ("right", pictures + "/right")], pattern: pattern)
                .cameras(models: [:], model: .pinhole))
        // The same sets solve to the same rig (two solves of one input agree to about 1e-7, not
        // to the bit: the solver's sums are not always taken in one order).
        let result = update.report.result
        #expect(result.sets.map(\.name) == expected.sets.map(\.name))
        #expect(result.sets.count == 13)
        #expect(abs(result.rms - expected.rms) <= 1e-6 * expected.rms, "\(result.rms) against \(expected.rms)")
        let baseline = result.cameras[1].extrinsics.baseline.value, expectedBaseline = expected.cameras[1].extrinsics.baseline.value
        #expect(abs(baseline - expectedBaseline) <= 1e-6 * expectedBaseline, "\(baseline) against \(expectedBaseline)")
        #expect(update.description.hasPrefix("rig calibration: 13 sets, RMS "), "\(update)")
        #expect(update.description.contains("; right from left: baseline "), "\(update)")
        // Solves ran in the background once there were enough sets; none saw more than were saved.
        let background = outcomes.withLock { $0 }
        #expect(!background.isEmpty)
        for outcome in background {
            let sets = try outcome.get().report.result.sets.count
            #expect(sets >= PinholeMinimum.views && sets <= 13)
        }
        let before = try Self.listing(pictures)
        let written = try calibration.write(update)
        #expect(written.contains(folder + "/rig.yaml") && written.contains(folder + "/rig.json"), "\(written)")
        #expect(written.contains(folder + "/rectified/"), "\(written)")
        for path in written { #expect(FileManager.default.fileExists(atPath: path), "\(path)") }
        #expect(try Self.listing(pictures) == before, "the sets' folder is left as it was")
    }

    @Test func aDestinationInsideTheSetsOrWithFilesIsRefusedBeforeAnySet() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let pattern = try Pattern(parsing: "chessboard:9x6")
        try FileManager.default.createDirectory(atPath: scratch + "/sets", withIntermediateDirectories: true)
        #expect(throws: CalibrationError.self) {
            try RigLiveCalibration(
                configuration: .init(cameras: ["left", "right"], pictures: scratch + "/sets", folder: scratch + "/sets"),
                pattern: pattern) { _ in }
        }
        try FileManager.default.createDirectory(atPath: scratch + "/rig", withIntermediateDirectories: true)
        try Data("kept".utf8).write(to: URL(fileURLWithPath: scratch + "/rig/rig.yaml"))
        #expect(throws: CalibrationError.self) {
            try RigLiveCalibration(
                configuration: .init(cameras: ["left", "right"], pictures: scratch + "/sets", folder: scratch + "/rig"),
                pattern: pattern) { _ in }
        }
        var replacing = RigLiveCalibration.Configuration(cameras: ["left", "right"], pictures: scratch + "/sets", folder: scratch + "/rig")
        replacing.replacing = true
        _ = try RigLiveCalibration(configuration: replacing, pattern: pattern) { _ in }
        #expect(try String(contentsOfFile: scratch + "/rig/rig.yaml", encoding: .utf8) == "kept")
    }

    @Test func tooFewSetsSayWhyAndWriteNothing() throws {
        let scratch = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let calibration = try RigLiveCalibration(
            configuration: .init(cameras: ["left", "right"], pictures: scratch + "/sets", folder: scratch + "/rig"),
            pattern: Pattern(parsing: "chessboard:9x6")) { _ in }
        try Self.save("01", into: scratch + "/sets")
        calibration.setSaved()
        #expect(throws: CalibrationError.tooFewViews(usable: 1, needed: 3, model: .pinhole, rejected: [])) {
            try calibration.finish().get()
        }
        #expect(!FileManager.default.fileExists(atPath: scratch + "/rig"))
    }
}

/// The views the pinhole model needs before a background solve starts.
private enum PinholeMinimum {
    static let views = CameraModel.pinhole.minimumViews
}
