@testable import Calibration
import Foundation
import MarkerDetection
import Testing

/// The projection-uncertainty map: the plain-Swift lens models against OpenCV's, and the map
/// against mrcal 2.2's `projection_uncertainty` on the same corners (mrcal re-solves them from our
/// solution under LENSMODEL_OPENCV5, OpenCV's 5-coefficient model).
@Suite struct ProjectionUncertaintyTests {
    /// The centre and the image's quartile points (x and y at a quarter, half and three quarters).
    static func quartilePoints(_ size: ImageSize) -> [ImagePoint] {
        let w = Double(size.width - 1), h = Double(size.height - 1)
        return [0.25, 0.5, 0.75].flatMap { y in [0.25, 0.5, 0.75].map { x in ImagePoint(x: x * w, y: y * h) } }
    }

    /// 20 projected views of a 12 x 9 board through the webcam-like pinhole camera, 0.3 px of noise.
    static func syntheticViews() throws -> [CalibrationView] {
        try SyntheticViews.projected(
            camera: RefinementTruthTests.pinhole, columns: 12, rows: 9, noise: 0.3, seed: 5,
            poses: SyntheticViews.randomPoses(20, seed: 5))
    }

    /// A pixel's covariance carried through the whole gradient (intrinsics and every pose's six
    /// numbers, numerically differentiated) over the whole covariance: what the map computes
    /// through its reduced form, written out the long way.
    static func directCovariance(_ run: CalibrationRun, at pixel: ImagePoint, distance: Double) throws -> (Double, Double, Double) {
        let camera = run.camera
        let model = camera.model
        let intrinsics = [camera.fx, camera.fy, camera.cx, camera.cy] + camera.distortion
        let full = try #require(run.fullCovariance)
        let direction = try #require(LensProjection.unproject(SIMD2(pixel.x, pixel.y), model: model, intrinsics: intrinsics))
        let p = direction * distance
        func project(_ point: SIMD3<Double>, _ k: [Double]) -> SIMD2<Double> { LensProjection.project(point, model: model, intrinsics: k) }
        let views = run.poseRotations.count, k = intrinsics.count, n = k + 6 * views
        var gx = [Double](repeating: 0, count: n), gy = gx
        for index in 0..<k {
            var plus = intrinsics, minus = intrinsics
            let step = max(abs(intrinsics[index]), 1) * 1e-6
            plus[index] += step
            minus[index] -= step
            let d = (project(p, plus) - project(p, minus)) / (2 * step)
            (gx[index], gy[index]) = (d.x, d.y)
        }
        // Each view: p into the board's frame with the solved pose, back with the perturbed one.
        for view in 0..<views {
            let r = run.poseRotations[view], t = run.poseTranslations[view]
            let rotation = SIMD3(r[0], r[1], r[2]), translation = SIMD3(t[0], t[1], t[2])
            func moved(_ rotationStep: SIMD3<Double>, _ translationStep: SIMD3<Double>) -> SIMD2<Double> {
                let rows = LensProjection.matrix(rotation)
                let d = p - translation
                var inBoard = SIMD3<Double>(0, 0, 0)
                for i in 0..<3 { inBoard += d[i] * rows[i] }
                return project(LensProjection.rotate(inBoard, by: rotation + rotationStep) + translation + translationStep, intrinsics)
            }
            for axis in 0..<3 {
                var step = SIMD3<Double>(0, 0, 0)
                step[axis] = 1e-6
                let zero = SIMD3<Double>(0, 0, 0)
                let dr = (moved(step, zero) - moved(-step, zero)) / 2e-6 / Double(views)
                let dt = (moved(zero, step) - moved(zero, -step)) / 2e-6 / Double(views)
                (gx[k + 6 * view + axis], gy[k + 6 * view + axis]) = (dr.x, dr.y)
                (gx[k + 6 * view + 3 + axis], gy[k + 6 * view + 3 + axis]) = (dt.x, dt.y)
            }
        }
        var xx = 0.0, xy = 0.0, yy = 0.0
        for row in 0..<n {
            for column in 0..<n {
                xx += gx[row] * full[row][column] * gx[column]
                xy += gy[row] * full[row][column] * gx[column]
                yy += gy[row] * full[row][column] * gy[column]
            }
        }
        return (xx, xy, yy)
    }

    /// The map's reduced form (12 pose coefficients, whatever the number of views) gives what
    /// the whole gradient over the whole covariance gives, for each lens model, at the centre,
    /// the quartile points and the image's corners.
    @Test(arguments: [CameraModel.pinhole, .rational, .fisheye])
    func theReducedFormEqualsTheWholeGradient(model: CameraModel) throws {
        let run = try CameraCalibration.calibrate(Self.syntheticViews(), model: model).run
        let uncertainty = try #require(ProjectionUncertainty(run: run))
        let size = run.camera.imageSize
        let w = Double(size.width - 1), h = Double(size.height - 1)
        let corners = [ImagePoint(x: 0, y: 0), ImagePoint(x: w, y: 0), ImagePoint(x: 0, y: h), ImagePoint(x: w, y: h)]
        for pixel in Self.quartilePoints(size) + corners {
            guard let reduced = uncertainty.covariance(at: pixel) else { continue }
            let (xx, xy, yy) = try Self.directCovariance(run, at: pixel, distance: uncertainty.distance)
            let scale = max(xx, yy)
            #expect(scale > 0)
            for (a, b) in [(reduced.xx, xx), (reduced.xy, xy), (reduced.yy, yy)] {
                #expect(abs(a - b) <= 1e-5 * scale, "\(model) at \(pixel): \(a) against \(b) (\(abs(a - b) / scale) of the larger variance)")
            }
        }
    }

    @Test(arguments: [CameraModel.pinhole, .pinholeRadtan, .rational, .fisheye])
    func theSwiftLensModelsProjectAsOpenCVDoes(model: CameraModel) throws {
        let distortion: [Double] = switch model {
        case .pinhole: [-0.28, 0.09, 0.0012, -0.0008, -0.02]
        case .pinholeRadtan: [-0.28, 0.09, 0.0012, -0.0008]
        case .rational: [0.2, 0.03, 0.001, -0.001, 0.0002, 0.5, 0.08, 0.002]
        case .fisheye: [0.05, -0.01, 0.003, -0.0005]
        }
        let camera = Camera(model: model, imageSize: ImageSize(width: 640, height: 480), fx: 500, fy: 496, cx: 322.5, cy: 237, distortion: distortion)
        let points = [ObjectPoint(x: 0.1, y: -0.2, z: 1), ObjectPoint(x: -0.4, y: 0.3, z: 1.5), ObjectPoint(x: 0.3, y: 0.25, z: 0.9)]
        let opencv = try camera.project(points)
        let k = [camera.fx, camera.fy, camera.cx, camera.cy] + camera.distortion
        for (point, expected) in zip(points, opencv) {
            let ours = LensProjection.project(SIMD3(point.x, point.y, point.z), model: model, intrinsics: k)
            #expect(abs(ours.x - expected.x) < 1e-9 && abs(ours.y - expected.y) < 1e-9, "\(ours) against OpenCV's \(expected)")
            let direction = try #require(LensProjection.unproject(ours, model: model, intrinsics: k))
            let back = LensProjection.project(direction, model: model, intrinsics: k)
            #expect(abs(back.x - ours.x) < 1e-6 && abs(back.y - ours.y) < 1e-6)
        }
    }

    /// Where both maps stand, as a factor: ours over mrcal's, at each of `points`.
    static func ratios(run: CalibrationRun, columns: Int, rows: Int, spacing: Double) throws -> (ours: [Double], mrcal: [Double]) {
        let uncertainty = try #require(ProjectionUncertainty(run: run))
        let points = quartilePoints(run.camera.imageSize)
        let ours = points.map { uncertainty.standardDeviation(at: $0) }
        let theirs = try Mrcal.projectionUncertainty(
            run: run, columns: columns, rows: rows, spacing: spacing, pixels: points, distance: uncertainty.distance)
        print("uncertainty at the quartile points (centre in the middle), ours | mrcal 2.2:", ours.map { String(format: "%.4f", $0) },
              theirs.map { String(format: "%.4f", $0) })
        return (ours, theirs)
    }

    @Test(.enabled(if: SharedPhotoTests.available && Mrcal.available, "needs the shared photos (../shared/images) and \(Mrcal.missing)"))
    func theMapAgreesWithMrcalOnOpenCVsLeftCameraSamples() throws {
        let pictures = try PictureSet(folder: SharedPhotoTests.folder, pattern: Pattern(parsing: "chessboard:9x6"))
        let run = try pictures.calibrate(.pinhole).run
        let (ours, theirs) = try Self.ratios(run: run, columns: 9, rows: 6, spacing: 1)
        for (a, b) in zip(ours, theirs) { #expect(abs(a / b - 1) <= 0.25, "ours \(a) px, mrcal's \(b) px") }
    }

    @Test(.enabled(if: OpenCVSamples.available && Mrcal.available, "needs \(OpenCVSamples.missing) and \(Mrcal.missing)"))
    func theMapAgreesWithMrcalOnOpenCVsThirteenLeftCameraSamples() throws {
        let pictures = try PictureSet(folder: OpenCVSamples.folder(), pattern: Pattern(parsing: "chessboard:9x6"))
        let run = try pictures.calibrate(.pinhole).run
        let (ours, theirs) = try Self.ratios(run: run, columns: 9, rows: 6, spacing: 1)
        for (a, b) in zip(ours, theirs) { #expect(abs(a / b - 1) <= 0.25, "ours \(a) px, mrcal's \(b) px") }
    }

    @Test(.enabled(if: Mrcal.available, "\(Mrcal.missing)"))
    func theMapAgreesWithMrcalOnASyntheticSet() throws {
        let run = try CameraCalibration.calibrate(Self.syntheticViews(), model: .pinhole).run
        let (ours, theirs) = try Self.ratios(run: run, columns: 12, rows: 9, spacing: 1.0 / 11)
        for (a, b) in zip(ours, theirs) { #expect(abs(a / b - 1) <= 0.25, "ours \(a) px, mrcal's \(b) px") }
    }
}
