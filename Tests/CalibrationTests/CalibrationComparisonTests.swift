@testable import Calibration
import FileFormats
import Foundation
import MarkerDetection
import Testing

/// `compare`'s library side: the projection difference of cameras whose difference is known, the
/// refusals, and calibration.json read back with its map.
@Suite struct CalibrationComparisonTests {
    static let size = ImageSize(width: 640, height: 480)

    static func saved(_ camera: Camera, map: UncertaintyMap? = nil) -> SavedCalibration {
        SavedCalibration(path: "a/calibration.json", camera: camera, uncertainty: map)
    }

    @Test func aCameraDiffersFromItselfByNothing() throws {
        let camera = RefinementTruthTests.pinhole
        let difference = ProjectionDifference(from: camera, to: camera, distance: 1)
        #expect(difference.values.allSatisfy { $0 < 1e-6 }, "largest \(difference.values.max() ?? .nan)")
        #expect(difference.rotation.allSatisfy { abs($0) < 1e-9 })
    }

    /// Without distortion, a focal length 1% longer moves each pixel 1% of its distance from the
    /// principal point (the rotation fitted stays 0 by symmetry).
    @Test func aLongerFocalLengthDiffersByItsShareOfTheRadius() throws {
        let a = Camera(model: .pinhole, imageSize: Self.size, fx: 500, fy: 500, cx: 319.5, cy: 239.5)
        var b = a
        b.fx = 505
        b.fy = 505
        let difference = ProjectionDifference(from: a, to: b, distance: 1)
        let radius = (319.5 * 319.5 + 239.5 * 239.5).squareRoot()
        for corner in difference.corners { #expect(abs(corner - 0.01 * radius) < 1e-6, "\(corner)") }
        #expect(difference.centre < 1e-9)
        #expect(difference.rotation.allSatisfy { abs($0) < 1e-9 })
    }

    /// A camera turned by a small rotation is the same camera: the fitted rotation takes it out.
    @Test func aTurnedFrameIsNoDifference() throws {
        let camera = RefinementTruthTests.pinhole
        var shifted = camera
        // About 2 px of principal point on fx = 500 is close to a turn of 0.004 rad, but not quite: the
        // distortion stays centred. What is left is small against the shift.
        shifted.cx += 2
        let difference = ProjectionDifference(from: camera, to: shifted, distance: 1)
        #expect(difference.centre < 0.1, "centre \(difference.centre)")
        #expect(abs(difference.rotation[1]) > 0.003)
    }

    @Test func differentSizesAndModelsAreRefused() throws {
        let a = RefinementTruthTests.pinhole
        var b = a
        b.imageSize = ImageSize(width: 1280, height: 960)
        #expect(throws: ComparisonError.differentImageSizes("640x480 in a/calibration.json", "1280x960 in a/calibration.json")) {
            try CalibrationComparison(Self.saved(a), Self.saved(b))
        }
        let c = Camera(model: .fisheye, imageSize: a.imageSize, fx: 500, fy: 500, cx: 320, cy: 240)
        #expect(throws: ComparisonError.differentModels("pinhole in a/calibration.json", "fisheye in a/calibration.json")) {
            try CalibrationComparison(Self.saved(a), Self.saved(c))
        }
        #expect(throws: ComparisonError.self) { try SavedCalibration(path: "/nonexistent/calibration.json") }
    }

    /// A calibration.json written by the report is read back with its camera and its map, and a
    /// comparison of it with itself is consistent.
    @Test func aWrittenCalibrationIsReadBack() throws {
        let views = try ProjectionUncertaintyTests.syntheticViews()
        let report = CalibrationReport(result: try CameraCalibration.calibrate(views, model: .pinhole), pattern: "chessboard:12x9")
        let folder = try temporaryFolder()
        try Data(report.json.utf8).write(to: URL(fileURLWithPath: folder + "/calibration.json"))
        let saved = try SavedCalibration(path: folder)
        // JSON text read back may differ in the last digit.
        func close(_ a: [Double], _ b: [Double]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, abs($1)) }
        }
        let camera = report.result.camera
        #expect(close([saved.camera.fx, saved.camera.fy, saved.camera.cx, saved.camera.cy] + saved.camera.distortion,
                      [camera.fx, camera.fy, camera.cx, camera.cy] + camera.distortion))
        let map = try #require(report.uncertainty)
        let read = try #require(saved.uncertainty)
        #expect(read.columns == map.columns && read.rows == map.rows && close(read.values, map.values))
        #expect(close(read.corners + [read.centre, read.distance], map.corners + [map.centre, map.distance]))
        let comparison = try CalibrationComparison(saved, saved)
        #expect(comparison.verdict == .consistent)
        #expect(comparison.lines.last?.hasPrefix("verdict: consistent (their uncertainties explain ") == true)
        let output = try temporaryFolder("compared") + "/out"
        #expect(try comparison.write(into: output, replacing: false) == output + "/difference.png")
        #expect(FileManager.default.fileExists(atPath: output + "/difference.png"))
        #expect(throws: CalibrationError.output(.exists(output + "/difference.png"))) {
            try comparison.write(into: output, replacing: false)
        }
        #expect(try comparison.write(into: output, replacing: true) == output + "/difference.png")
        #expect(throws: CalibrationError.self) { try comparison.write(into: folder + "/inside-input", replacing: false) }
    }
}
