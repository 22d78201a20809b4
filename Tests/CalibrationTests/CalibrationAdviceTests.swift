import Calibration
import MarkerDetection
import Testing

/// The plain sentences of advice, each from a set of views that is weak in that one way.
@Suite struct CalibrationAdviceTests {
    static let camera = SyntheticCalibrationTests.pinhole

    static func advice(_ views: [CalibrationView]) throws -> [String] {
        let result = try CameraCalibration.calibrate(views, model: .pinhole)
        return CalibrationReport(result: result, pattern: "chessboard:12x9").advice
    }

    @Test func variedViewsNeedNoAdvice() throws {
        let views = try SyntheticViews.projected(camera: Self.camera, columns: 12, rows: 9, noise: 0.3, seed: 21)
        #expect(try Self.advice(views) == [])
    }

    /// The same views with every corner left of x = 240 (the first three of eight columns) removed.
    @Test func anEmptyThirdIsNamed() throws {
        let views = try SyntheticViews.projected(camera: Self.camera, columns: 12, rows: 9, noise: 0.3, seed: 22).map {
            var view = $0
            view.points = view.points.filter { $0.image.x >= 240 }
            return view
        }
        let advice = try Self.advice(views.filter { $0.points.count >= 6 })
        #expect(advice.first == "the left third of the image has no corners: hold the target there too", "\(advice)")
        #expect(!advice.contains { $0.hasPrefix("the corners cover only") }, "one sentence for the same gap")
    }

    /// Twelve views spread over the image, none turned more than 8 degrees.
    @Test func nearlyFrontalViewsAreToldToTilt() throws {
        let poses = (0..<12).map { (index: Int) -> SyntheticViews.Pose in
            let tiltX: Double = 8 * Double(index % 3 - 1), tiltY: Double = 6 * Double(index % 2) - 3
            let x: Double = 0.33 * Double(index % 4) - 0.5, y: Double = 0.3 * Double(index / 4) - 0.3
            return SyntheticViews.Pose(tiltX: tiltX, tiltY: tiltY, x: x, y: y, z: 1.5 + 0.1 * Double(index % 5))
        }
        let views = try SyntheticViews.projected(
            camera: Self.camera, columns: 12, rows: 9, noise: 0.3, seed: 23, poses: poses)
        let advice = try Self.advice(views)
        #expect(advice.contains("every view is nearly frontal: tilt the board about 30 to 45 degrees"), "\(advice)")
    }

    @Test func fewViewsAreCounted() throws {
        let views = try SyntheticViews.projected(camera: Self.camera, columns: 12, rows: 9, noise: 0.3, seed: 24)
        let advice = try Self.advice(Array(views.prefix(9)))
        #expect(advice.contains("only 9 views were used: 15 to 30 varied views calibrate reliably"), "\(advice)")
    }

    @Test func aHighErrorIsExplained() throws {
        let views = try SyntheticViews.projected(camera: Self.camera, columns: 12, rows: 9, noise: 1.5, seed: 25)
        let advice = try Self.advice(views)
        #expect(advice.contains { $0.hasPrefix("the reprojection error is high (")
            && $0.hasSuffix(" px): keep the board flat and the pictures sharp, and check the pattern's size") }, "\(advice)")
    }
}
