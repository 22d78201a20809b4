import Foundation

/// How far a rig's joint solve moves when groups of its sets are left out: the grouped jackknife of
/// ``ViewSpread`` over a rig's sets, for every camera's intrinsics and pose.
///
/// The covariance of the joint solve covers the corners' scatter about the fit. Real sets carry
/// errors that differ from set to set as well (a board that is not flat, seen from different
/// sides; cameras that did not expose at the same instant; corners biased by blur), so two halves
/// of one real recording differ on the baseline by several of its standard deviations. The sets
/// are dealt into ``ViewSpread/defaultGroups`` groups in an order drawn from ``ViewSpread/seed``
/// (the same groups on every run, whatever the pictures are called), each group is left out in
/// turn, and the rest is solved again from the joint solve over the corners it kept, by plain
/// least squares. A value's jackknife variance is (G - 1) / G times the sum of its squared
/// deviations over the G solves from their mean.
public struct RigSpread: Sendable, Hashable {
    /// The names of the sets left out of each solve.
    public var leftOut: [[String]]
    /// Per camera, the jackknife variance of each intrinsic (fx, fy, cx, cy, then the distortion).
    public var intrinsicVariances: [[Double]]
    /// Per camera, the jackknife covariance of its pose (Rodrigues vector, translation), 6 x 6,
    /// row by row (all 0 for the first camera).
    public var poseCovariances: [[[Double]]]

    /// The solves: one per group.
    public var groups: Int { leftOut.count }
    /// The variances' degrees of freedom: one less than the groups.
    public var degreesOfFreedom: Int { max(groups - 1, 0) }

    /// A rig's joint solve as the jackknife needs it: each observation's camera and set, and what
    /// the solve found.
    struct Solved {
        var observations: [CeresObservation]
        var setNames: [String]
        var cameraNames: [String]
        var cameras: [Camera]
        var cameraPoses: [RigidTransform]
        var setPoses: [RigidTransform]
    }

    /// The spread, or why it could not be measured.
    enum Measurement {
        case measured(RigSpread)
        case notMeasured(String)
    }

    /// Measures the spread of `solved` by leaving out each group of its sets in turn and solving
    /// the rest again with `solve` (starting from `solved`'s cameras and poses). It is not measured
    /// when fewer than 3 groups can be made, or a group's absence leaves a camera with fewer views
    /// than its model needs or sharing no set with the others.
    ///
    /// - Throws: What `solve` throws.
    static func measure(
        _ solved: Solved, groups requested: Int = ViewSpread.defaultGroups,
        solve: ([CeresObservation], [Camera], [RigidTransform], [RigidTransform]) throws(CalibrationError) -> CeresRigRefinement
    ) throws(CalibrationError) -> Measurement {
        let setCount = solved.setNames.count
        let groups = ViewSpread.groups(views: setCount, groups: requested)
        guard groups.count >= 3 else {
            return .notMeasured("\(setCount) sets make \(groups.count) groups to leave out (3 are needed)")
        }
        let cameraCount = solved.cameras.count
        var intrinsics: [[[Double]]] = Array(repeating: [], count: cameraCount)
        var poses: [[[Double]]] = Array(repeating: [], count: cameraCount)
        for group in groups {
            let left = Set(group)
            let names = group.map { solved.setNames[$0] }.joined(separator: ", ")
            let remainingSets = (0..<setCount).filter { !left.contains($0) }
            let renumber = Dictionary(uniqueKeysWithValues: remainingSets.enumerated().map { ($1, $0) })
            let remaining = solved.observations.compactMap { observation -> CeresObservation? in
                guard let set = renumber[observation.set] else { return nil }
                return CeresObservation(camera: observation.camera, set: set, view: observation.view)
            }
            for (index, camera) in solved.cameras.enumerated() {
                let views = remaining.filter { $0.camera == index }.count
                if views < camera.model.minimumViews {
                    return .notMeasured(
                        "without sets \(names), \(solved.cameraNames[index]) has \(views) views (\(camera.model.minimumViews) are needed)")
                }
            }
            if let unplaced = unplacedCamera(remaining, cameras: cameraCount) {
                return .notMeasured("without sets \(names), \(solved.cameraNames[unplaced]) shares no set with the others")
            }
            let refined = try solve(remaining, solved.cameras, solved.cameraPoses, remainingSets.map { solved.setPoses[$0] })
            for camera in 0..<cameraCount {
                intrinsics[camera].append(refined.intrinsics[camera])
                poses[camera].append(refined.cameraRotations[camera] + refined.cameraTranslations[camera])
            }
        }
        return .measured(RigSpread(
            leftOut: groups.map { $0.map { solved.setNames[$0] } },
            intrinsicVariances: intrinsics.map { Self.covariance($0).enumerated().map { $1[$0] } },
            poseCovariances: poses.map(Self.covariance)))
    }

    /// The first camera the others cannot reach through shared sets, or nil when every one is.
    static func unplacedCamera(_ observations: [CeresObservation], cameras count: Int) -> Int? {
        var setsOf: [Set<Int>] = Array(repeating: [], count: count)
        for observation in observations { setsOf[observation.camera].insert(observation.set) }
        var reached: Set<Int> = [0], frontier = [0]
        while let camera = frontier.popLast() {
            for other in 0..<count where !reached.contains(other) && !setsOf[other].isDisjoint(with: setsOf[camera]) {
                reached.insert(other)
                frontier.append(other)
            }
        }
        return (0..<count).first { !reached.contains($0) }
    }

    /// The jackknife covariance of `samples` (one vector per solve): (G - 1) / G times the sum of
    /// the products of their deviations from the mean.
    static func covariance(_ samples: [[Double]]) -> [[Double]] {
        guard let size = samples.first?.count, samples.count > 1 else { return [] }
        let g = Double(samples.count)
        let mean = (0..<size).map { index in samples.reduce(0) { $0 + $1[index] } / g }
        return (0..<size).map { row in
            (0..<size).map { column in
                (g - 1) / g * samples.reduce(0) { $0 + ($1[row] - mean[row]) * ($1[column] - mean[column]) }
            }
        }
    }
}
