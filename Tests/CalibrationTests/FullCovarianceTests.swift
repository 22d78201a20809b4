@testable import Calibration
import Foundation
import MarkerDetection
import Testing

/// The covariance over the intrinsics and every view's pose that the refinement gives on request:
/// it is sigma^2 (J^T J)^-1 in the documented order, checked against a Jacobian worked out here by
/// central differences of the pinhole model, independently of Ceres.
@Suite struct FullCovarianceTests {
    static let camera = RefinementTruthTests.pinhole

    /// 10 projected views with 0.3 px of noise, OpenCV's solve of them, and the refinement with
    /// the full covariance.
    static func solve() throws -> (views: [CalibrationView], refined: CeresRefinement) {
        let views = try SyntheticViews.projected(
            camera: camera, columns: 8, rows: 6, noise: 0.3, seed: 77, poses: SyntheticViews.randomPoses(10, seed: 77))
        let start = try CalibrationShim.calibrate(views, model: .pinhole, imageSize: camera.imageSize)
        let settings = CalibrationRefinement.standard
        let refined = try CeresShim.refine(
            views, camera: start.camera, rotations: start.rotations, translations: start.translations,
            settings: settings, fullCovariance: true)
        return (views, refined)
    }

    @Test func theIntrinsicsBlockIsTheMarginalCovariance() throws {
        let (views, refined) = try Self.solve()
        let full = try #require(refined.fullCovariance)
        #expect(full.count == 9 + 6 * views.count)
        #expect(full.allSatisfy { $0.count == full.count })
        for row in 0..<9 {
            for column in 0..<9 {
                let marginal = refined.covariance[row][column]
                #expect(abs(full[row][column] - marginal) <= 1e-7 * max(abs(marginal), 1e-12), "[\(row)][\(column)]")
            }
        }
        for row in full.indices {
            #expect(full[row][row] > 0, "diagonal \(row)")
            for column in 0..<row {
                #expect(abs(full[row][column] - full[column][row]) <= 1e-9 * (full[row][row] * full[column][column]).squareRoot())
            }
        }
    }

    /// (covariance / sigma^2) x J^T J is the identity when the order and scale are as documented
    /// (J with the regularization's residual on k3).
    @Test func itIsTheInverseOfTheNormalMatrixInTheDocumentedOrder() throws {
        let (views, refined) = try Self.solve()
        let full = try #require(refined.fullCovariance)
        #expect(refined.kept.allSatisfy { $0.allSatisfy { $0 } }, "the noise is Gaussian: no corner is dropped")
        let parameters = refined.intrinsics + (0..<views.count).flatMap { refined.rotations[$0] + refined.translations[$0] }
        var normal = Self.normalMatrix(views: views, parameters: parameters)
        // The regularization's residual on k3 (index 8) adds its weight squared.
        let weight = CalibrationRefinement.standard.regularization
        normal[8][8] += weight * weight
        let sigma2 = refined.sigma * refined.sigma
        var worst = 0.0
        for row in full.indices {
            for column in full.indices {
                var sum = 0.0
                for k in full.indices { sum += full[row][k] / sigma2 * normal[k][column] }
                worst = max(worst, abs(sum - (row == column ? 1 : 0)))
            }
        }
        #expect(worst < 1e-4, "largest departure from the identity: \(worst)")
    }

    /// J^T J of every corner's residual with respect to (intrinsics, then each view's rotation and
    /// translation), J by central differences.
    static func normalMatrix(views: [CalibrationView], parameters: [Double]) -> [[Double]] {
        let count = parameters.count
        var normal = [[Double]](repeating: [Double](repeating: 0, count: count), count: count)
        for (viewIndex, view) in views.enumerated() {
            let columns = Array(0..<9) + Array((9 + 6 * viewIndex)..<(15 + 6 * viewIndex))
            for point in view.points {
                var rows: [[Double]] = [[], []]
                for column in columns {
                    let step = max(abs(parameters[column]), 1) * 1e-6
                    var plus = parameters, minus = parameters
                    plus[column] += step
                    minus[column] -= step
                    let a = project(point.object, parameters: plus, view: viewIndex)
                    let b = project(point.object, parameters: minus, view: viewIndex)
                    rows[0].append((a.x - b.x) / (2 * step))
                    rows[1].append((a.y - b.y) / (2 * step))
                }
                for row in rows {
                    for (i, ci) in columns.enumerated() {
                        for (j, cj) in columns.enumerated() { normal[ci][cj] += row[i] * row[j] }
                    }
                }
            }
        }
        return normal
    }

    /// OpenCV's pinhole model with k1 k2 p1 p2 k3, the pose as a Rodrigues vector and a translation.
    static func project(_ object: ObjectPoint, parameters k: [Double], view: Int) -> ImagePoint {
        let r = Array(k[(9 + 6 * view)..<(12 + 6 * view)]), t = Array(k[(12 + 6 * view)..<(15 + 6 * view)])
        let angle = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]).squareRoot()
        let p = [object.x, object.y, object.z]
        var q = p
        if angle > 0 {
            let axis = r.map { $0 / angle }
            let dot = axis[0] * p[0] + axis[1] * p[1] + axis[2] * p[2]
            let cross = [axis[1] * p[2] - axis[2] * p[1], axis[2] * p[0] - axis[0] * p[2], axis[0] * p[1] - axis[1] * p[0]]
            q = (0..<3).map { p[$0] * cos(angle) + cross[$0] * sin(angle) + axis[$0] * dot * (1 - cos(angle)) }
        }
        q = (0..<3).map { q[$0] + t[$0] }
        let x = q[0] / q[2], y = q[1] / q[2]
        let r2 = x * x + y * y
        let radial = 1 + k[4] * r2 + k[5] * r2 * r2 + k[8] * r2 * r2 * r2
        let u = x * radial + 2 * k[6] * x * y + k[7] * (r2 + 2 * x * x)
        let v = y * radial + k[6] * (r2 + 2 * y * y) + 2 * k[7] * x * y
        return ImagePoint(x: k[0] * u + k[2], y: k[1] * v + k[3])
    }
}
