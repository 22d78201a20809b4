import Foundation
import MarkerDetection

/// How far a calibration moves when some of its views are left out: a grouped jackknife over the
/// views, which measures on the set itself what the corners' scatter alone does not.
///
/// The covariance of a solve (``CalibrationRun/covariance``) covers the corners' scatter about the
/// fit. Real pictures carry errors that differ from view to view as well: a board that is not flat
/// seen from different sides, rolling shutter, corners biased by blur or light, a lens the model
/// follows only on average. Two calibrations from different views of one camera then differ by
/// more than their covariances say. The jackknife measures that spread directly: the views are
/// dealt into ``groups`` groups in an order drawn from a fixed seed (so the same folder gives the
/// same groups on every run, whatever the files are called), each group is left out in turn, and
/// the rest is solved again, starting from the calibration itself over the corners it kept, by
/// plain least squares. The variance of a parameter is (G - 1) / G times the sum of its squared
/// deviations over the G solves from their mean: an estimate of the whole variance of the
/// calibration, corner scatter and view-to-view errors together, with G - 1 degrees of freedom.
public struct ViewSpread: Sendable, Hashable {
    /// The groups `calibrate` deals the views into (every view its own group when there are fewer).
    public static let defaultGroups = 10
    /// The seed of the order the views are dealt in.
    public static let seed: UInt64 = 0x6A61_636B_6B6E_6966

    /// The names of the views left out of each solve, in the order of ``cameras``.
    public var leftOut: [[String]]
    /// The camera of each solve.
    public var cameras: [Camera]
    /// Each parameter's jackknife variance (fx, fy, cx, cy, then each distortion coefficient).
    public var variances: [Double]

    /// The solves: one per group.
    public var groups: Int { leftOut.count }
    /// The variances' degrees of freedom: one less than the groups.
    public var degreesOfFreedom: Int { max(groups - 1, 0) }

    /// Makes a spread from its parts.
    public init(leftOut: [[String]], cameras: [Camera], variances: [Double]) {
        self.leftOut = leftOut
        self.cameras = cameras
        self.variances = variances
    }

    /// The groups `run`'s views are dealt into: `groups` of them (every view its own group when
    /// there are fewer views), each a list of view indices, in an order drawn from ``seed``.
    static func groups(views count: Int, groups requested: Int) -> [[Int]] {
        let groups = max(1, min(requested, count))
        let order = SeededGenerator.shuffled(count, seed: seed)
        return (0..<groups).map { group in stride(from: group, to: count, by: groups).map { order[$0] }.sorted() }
    }

    /// Measures the spread of `run` by leaving out each of `groups` groups of its views in turn.
    ///
    /// - Throws: ``CalibrationError/tooFewViews(usable:needed:model:rejected:)`` when a solve
    ///   without one group would have fewer views than the model needs, or fewer than 3 groups can
    ///   be made; what a solve throws.
    public static func measure(_ run: CalibrationRun, groups requested: Int = defaultGroups) throws(CalibrationError) -> ViewSpread {
        let model = run.camera.model
        let count = run.views.count
        let groups = Self.groups(views: count, groups: requested)
        let largest = groups.map(\.count).max() ?? 0
        guard groups.count >= 3, count - largest >= model.minimumViews else {
            throw .tooFewViews(usable: max(count - largest, 0), needed: model.minimumViews + largest, model: model, rejected: [])
        }
        var cameras: [Camera] = []
        var parameters: [[Double]] = []
        for group in groups {
            let left = Set(group)
            let kept = (0..<count).filter { !left.contains($0) }
            let solved = try CameraCalibration.resolve(run, views: kept, covariance: false)
            cameras.append(solved.camera)
            parameters.append(solved.parameters.map(\.value))
        }
        let g = Double(groups.count)
        let variances = run.parameters.indices.map { index -> Double in
            let values = parameters.map { $0[index] }
            let mean = values.reduce(0, +) / g
            return (g - 1) / g * values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        }
        return ViewSpread(
            leftOut: groups.map { $0.map { run.views[$0].view.name } }, cameras: cameras, variances: variances)
    }
}
