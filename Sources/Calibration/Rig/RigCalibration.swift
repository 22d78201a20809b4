import Foundation
import MarkerDetection

/// Calibrates a rig of cameras: each camera's intrinsics and where every camera sits relative to
/// the first, solved jointly.
///
/// 1. Each camera is calibrated on its own (``CameraCalibration``), which gives its intrinsics
///    and the target's pose in each of its views.
/// 2. The cameras are placed along a spanning tree from the first camera, each through the
///    camera it shares the most sets with (sets: pictures with the same stem, taken together); a
///    pair's motion is the mean over the sets both saw. A camera that never shares a set with
///    the first is placed through another.
/// 3. One joint refinement (Ceres Solver, ``CalibrationRefinement``: robust per corner, corners
///    dropped camera by camera) of every camera's pose, every set's target pose and, by default,
///    every camera's intrinsics over all observations.
/// 4. A set whose RMS reprojection error is over ``outlierFactor`` (3) times the median of all
///    sets' is dropped and the rest solved again, provided every camera stays placed.
/// 5. The first camera and each other one are rectified as a stereo pair, and the epipolar error
///    of every set both saw is measured.
public enum RigCalibration {
    /// How many times the median set RMS a set may reach before it is dropped.
    public static let outlierFactor = 3.0

    /// The outlier rule in words, for reports.
    public static let outlierRule =
        "a set whose RMS reprojection error is over 3 times the median of all sets' RMS is dropped and the rest solved again"

    /// Calibrates the rig of `cameras`; the first is the reference.
    ///
    /// - Parameters:
    ///   - cameras: Each camera's views; at least two cameras, with distinct names.
    ///   - refinement: How the joint solve treats corners and distortion.
    ///   - refinesIntrinsics: Whether the joint solve refines the intrinsics too (otherwise they
    ///     stay each camera's own solve's).
    ///   - spreadGroups: The spread between sets (``RigSpread``) is measured with this many groups
    ///     and taken into the intervals; `nil` leaves it out (the intervals then cover the corners'
    ///     scatter alone). When it cannot be measured, the result says why
    ///     (``RigCalibrationResult/spreadNotMeasured``).
    /// - Throws: ``CalibrationError/inCamera(_:_:)`` when a camera cannot be calibrated on its
    ///   own, ``CalibrationError/rigNotConnected(_:)`` when a camera shares no set with the others,
    ///   ``CalibrationError/rigInput(_:)`` for fewer than two cameras or repeated names, and
    ///   what the solve throws.
    public static func calibrate(
        _ cameras: [RigCameraViews], refinement: CalibrationRefinement = .standard, refinesIntrinsics: Bool = true,
        spreadGroups: Int? = ViewSpread.defaultGroups
    ) throws(CalibrationError) -> RigCalibrationResult {
        guard cameras.count >= 2 else { throw .rigInput("a rig needs at least two cameras, not \(cameras.count)") }
        let names = cameras.map(\.name)
        if let repeated = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw .rigInput("two cameras are named \(repeated)")
        }
        var singles: [CalibrationResult] = []
        for camera in cameras {
            do {
                singles.append(try CameraCalibration.calibrate(camera.views, model: camera.model, setAside: camera.setAside))
            } catch {
                throw .inCamera(camera.name, error)
            }
        }
        // Every view each camera's own solve kept, by set.
        let setNames = Array(Set(singles.flatMap { $0.run.views.map { RigCameraViews.set(of: $0.view.name) } })).sorted()
        let setIndex = Dictionary(uniqueKeysWithValues: setNames.enumerated().map { ($1, $0) })
        var observations: [CeresObservation] = []
        var viewPoses: [[Int: RigidTransform]] = Array(repeating: [:], count: cameras.count)
        for (camera, single) in singles.enumerated() {
            for solved in single.run.views {
                let set = setIndex[RigCameraViews.set(of: solved.view.name)]!
                if viewPoses[camera][set] != nil {
                    throw .inCamera(names[camera], .rigInput("two of its pictures are of set \(setNames[set])"))
                }
                viewPoses[camera][set] = RigidTransform(rotation: solved.rotation, translation: solved.translation)
                observations.append(CeresObservation(camera: camera, set: set, view: solved.view))
            }
        }
        let (links, cameraPoses) = try place(viewPoses, names: names)
        let setPoses = setNames.indices.map { set -> RigidTransform in
            let camera = viewPoses.firstIndex { $0[set] != nil }!
            return cameraPoses[camera].inverse.composed(after: viewPoses[camera][set]!)
        }
        let start = singles.map(\.camera)
        let holds = cameras.map { refinement.holdsDistortion(of: $0.model) }
        let guards = zip(singles, holds).map { single, holds in
            single.camera.model == .rational && refinement.guardWeight > 0 && !holds
                ? RadialGuard.band(camera: single.camera, views: single.run.views.map(\.view)) : nil
        }
        func solve(_ observations: [CeresObservation], cameras: [Camera], cameraPoses: [RigidTransform], setPoses: [RigidTransform])
            throws(CalibrationError) -> CeresRigRefinement
        {
            try CeresShim.refineRig(
                cameras: cameras, holdsDistortion: holds, holdsIntrinsics: !refinesIntrinsics,
                cameraRotations: cameraPoses.map(\.rotation), cameraTranslations: cameraPoses.map(\.translation),
                setRotations: setPoses.map(\.rotation), setTranslations: setPoses.map(\.translation),
                observations: observations, settings: refinement, guards: guards)
        }
        let first = try solve(observations, cameras: start, cameraPoses: cameraPoses, setPoses: setPoses)
        var setRMS = setRMSes(first, observations: observations, setCount: setNames.count)
        let sorted = setRMS.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        let outliers = Set(setNames.indices.filter { setRMS[$0] > outlierFactor * median })
        var final = first, kept = observations, keptSets = Array(setNames.indices)
        var dropped: [RejectedView] = []
        if !outliers.isEmpty {
            let remaining = observations.filter { !outliers.contains($0.set) }
            let remainingSets = setNames.indices.filter { !outliers.contains($0) }
            var shared = viewPoses
            for camera in shared.indices { for set in outliers { shared[camera][set] = nil } }
            let everyCameraPlaced = (try? place(shared, names: names)) != nil
            if everyCameraPlaced {
                // Renumber the kept sets and start from the first joint solve.
                let renumber = Dictionary(uniqueKeysWithValues: remainingSets.enumerated().map { ($1, $0) })
                let renumbered = remaining.map { CeresObservation(camera: $0.camera, set: renumber[$0.set]!, view: $0.view) }
                let solvedCameras = zip(start, first.intrinsics).map { camera, k in
                    Camera(model: camera.model, imageSize: camera.imageSize, fx: k[0], fy: k[1], cx: k[2], cy: k[3],
                           distortion: Array(k.dropFirst(4)))
                }
                let solvedPoses = zip(first.cameraRotations, first.cameraTranslations).map { RigidTransform(rotation: $0, translation: $1) }
                let solvedSets = remainingSets.map { RigidTransform(rotation: first.setRotations[$0], translation: first.setTranslations[$0]) }
                final = try solve(renumbered, cameras: solvedCameras, cameraPoses: solvedPoses, setPoses: solvedSets)
                kept = renumbered
                keptSets = remainingSets
                dropped = outliers.sorted().map { set in
                    RejectedView(
                        name: setNames[set],
                        reason: "outlier: RMS " + CameraCalibration.format(setRMS[set]) + " px is over 3 x the median "
                            + CameraCalibration.format(median) + " px")
                }
                setRMS = setRMSes(final, observations: kept, setCount: keptSets.count)
            }
        }
        let keptNames = keptSets.map { setNames[$0] }
        let measurement = try spreadGroups.map { groups throws(CalibrationError) in
            try measureSpread(
                of: final, observations: kept, setNames: keptNames, cameraNames: names, start: start, groups: groups, refinement: refinement,
                refinesIntrinsics: refinesIntrinsics, holds: holds, guards: guards)
        }
        var spread: RigSpread?
        if case .measured(let measured)? = measurement { spread = measured }
        var results: [RigCalibrationResult.CameraResult] = []
        for (index, camera) in cameras.enumerated() {
            let k = final.intrinsics[index]
            let solved = Camera(
                model: camera.model, imageSize: start[index].imageSize, fx: k[0], fy: k[1], cx: k[2], cy: k[3],
                distortion: Array(k.dropFirst(4)))
            let parameterNames = ["fx", "fy", "cx", "cy"] + camera.model.distortionNames
            let covariance = final.covariance[index]
            let parameters = parameterNames.indices.map { entry in
                let variance = covariance[entry][entry]
                var parameter = CalibrationRun.Parameter(
                    name: parameterNames[entry], value: k[entry], standardDeviation: variance >= 0 ? variance.squareRoot() : .nan)
                if let spread { parameter.include(jackknifeVariance: spread.intrinsicVariances[index][entry], degreesOfFreedom: spread.degreesOfFreedom) }
                return parameter
            }
            var droppedCorners: [String: [Int]] = [:]
            var seen: [String] = []
            for (observation, flags) in zip(kept, final.kept) where observation.camera == index {
                seen.append(keptNames[observation.set])
                let ids = zip(observation.view.points, flags).filter { !$0.1 }.map(\.0.id)
                if !ids.isEmpty { droppedCorners[keptNames[observation.set]] = ids }
            }
            var extrinsics = index == 0 ? RigExtrinsics.reference : RigExtrinsics(
                pose: RigidTransform(rotation: final.cameraRotations[index], translation: final.cameraTranslations[index]),
                covariance: final.cameraCovariance[index])
            if let spread, index > 0 {
                extrinsics.spreadCovariance = spread.poseCovariances[index]
                extrinsics.spreadDegreesOfFreedom = spread.degreesOfFreedom
            }
            results.append(RigCalibrationResult.CameraResult(
                name: camera.name, single: singles[index], camera: solved, parameters: parameters, covariance: covariance,
                extrinsics: extrinsics, rms: final.cameraRMS[index], dropThreshold: final.dropThresholds[index],
                sets: seen.sorted(), droppedCorners: droppedCorners))
        }
        let sets = keptSets.indices.map { set in
            RigCalibrationResult.SolvedSet(
                name: keptNames[set], cameras: kept.filter { $0.set == set }.map(\.camera).sorted(), rms: setRMS[set],
                pose: RigidTransform(rotation: final.setRotations[set], translation: final.setTranslations[set]))
        }
        var pairs: [RigCalibrationResult.Pair] = []
        for second in 1..<cameras.count {
            pairs.append(try pair(0, second, results, observations: kept, setNames: keptNames))
        }
        var result = RigCalibrationResult(
            cameras: results, sets: sets, droppedSets: dropped, links: links, pairs: pairs, rms: final.rms, firstRMS: first.rms,
            degreesOfFreedom: final.degreesOfFreedom, refinement: refinement, refinesIntrinsics: refinesIntrinsics)
        result.spread = spread
        if case .notMeasured(let reason)? = measurement { result.spreadNotMeasured = reason }
        if let value = firstNonFiniteValue(result) { throw .nonFiniteSolve(value) }
        return result
    }

    /// The spread between sets of the joint solve `final` (over `observations`, numbered by
    /// `setNames`): each group of sets left out in turn and the rest solved again from `final` by
    /// plain least squares over the corners it kept, without covariance (``RigSpread``).
    private static func measureSpread(
        of final: CeresRigRefinement, observations: [CeresObservation], setNames: [String], cameraNames: [String], start: [Camera],
        groups: Int,
        refinement: CalibrationRefinement, refinesIntrinsics: Bool, holds: [Bool], guards: [RadialGuard?]
    ) throws(CalibrationError) -> RigSpread.Measurement {
        let plain = refinement.resolving
        let keptCorners = zip(observations, final.kept).map { observation, flags -> CeresObservation in
            var view = observation.view
            view.points = zip(view.points, flags).filter(\.1).map(\.0)
            return CeresObservation(camera: observation.camera, set: observation.set, view: view)
        }
        let cameras = zip(start, final.intrinsics).map { camera, k in
            Camera(model: camera.model, imageSize: camera.imageSize, fx: k[0], fy: k[1], cx: k[2], cy: k[3], distortion: Array(k.dropFirst(4)))
        }
        let solved = RigSpread.Solved(
            observations: keptCorners, setNames: setNames, cameraNames: cameraNames, cameras: cameras,
            cameraPoses: zip(final.cameraRotations, final.cameraTranslations).map { RigidTransform(rotation: $0, translation: $1) },
            setPoses: zip(final.setRotations, final.setTranslations).map { RigidTransform(rotation: $0, translation: $1) })
        return try RigSpread.measure(solved, groups: groups) { observations, cameras, cameraPoses, setPoses throws(CalibrationError) in
            try CeresShim.refineRig(
                cameras: cameras, holdsDistortion: holds, holdsIntrinsics: !refinesIntrinsics,
                cameraRotations: cameraPoses.map(\.rotation), cameraTranslations: cameraPoses.map(\.translation),
                setRotations: setPoses.map(\.rotation), setTranslations: setPoses.map(\.translation),
                observations: observations, settings: plain, covariance: false, guards: guards)
        }
    }

    /// Places every camera relative to the first along a maximum spanning tree of shared sets.
    ///
    /// - Parameter viewPoses: Per camera, the target's pose in its frame by set.
    /// - Returns: How each camera was placed, and each camera's motion from the first camera's frame.
    static func place(_ viewPoses: [[Int: RigidTransform]], names: [String]) throws(CalibrationError) -> ([RigCalibrationResult.Link], [RigidTransform]) {
        let count = viewPoses.count
        func shared(_ a: Int, _ b: Int) -> [Int] { viewPoses[a].keys.filter { viewPoses[b][$0] != nil }.sorted() }
        var poses: [RigidTransform?] = Array(repeating: nil, count: count)
        poses[0] = .identity
        var links: [RigCalibrationResult.Link] = []
        while links.count < count - 1 {
            var best: (camera: Int, from: Int, sets: [Int])?
            for from in 0..<count where poses[from] != nil {
                for camera in 0..<count where poses[camera] == nil {
                    let sets = shared(from, camera)
                    if !sets.isEmpty, sets.count > (best?.sets.count ?? 0) { best = (camera, from, sets) }
                }
            }
            guard let best else {
                let unplaced = (0..<count).filter { poses[$0] == nil }.map { names[$0] }
                throw .rigNotConnected(
                    "camera\(unplaced.count == 1 ? "" : "s") \(unplaced.joined(separator: ", ")) never saw the target in a set "
                        + "with \(names[0]) or a camera placed from it: take pictures where the target is seen by both")
            }
            // The motion from `from`'s frame into `camera`'s, averaged over the sets both saw.
            let motions = best.sets.map { set in viewPoses[best.camera][set]!.composed(after: viewPoses[best.from][set]!.inverse) }
            poses[best.camera] = RigidTransform.mean(motions).composed(after: poses[best.from]!)
            links.append(RigCalibrationResult.Link(camera: best.camera, from: best.from, sharedSets: best.sets.count))
        }
        return (links, poses.map { $0! })
    }

    /// Each set's RMS reprojection error over all its corners.
    private static func setRMSes(_ refined: CeresRigRefinement, observations: [CeresObservation], setCount: Int) -> [Double] {
        var squared = [Double](repeating: 0, count: setCount), counts = [Int](repeating: 0, count: setCount)
        for (observation, projected) in zip(observations, refined.projected) {
            for (point, estimate) in zip(observation.view.points, projected) {
                let dx = estimate.x - point.image.x, dy = estimate.y - point.image.y
                squared[observation.set] += dx * dx + dy * dy
                counts[observation.set] += 1
            }
        }
        return zip(squared, counts).map { $1 > 0 ? ($0 / Double($1)).squareRoot() : 0 }
    }

    /// The rectification of cameras `first` and `second`, and the epipolar error of every set both saw.
    private static func pair(
        _ first: Int, _ second: Int, _ cameras: [RigCalibrationResult.CameraResult], observations: [CeresObservation],
        setNames: [String]
    ) throws(CalibrationError) -> RigCalibrationResult.Pair {
        let one = cameras[first].camera, two = cameras[second].camera
        // A baseline within its interval of zero (one camera's pictures twice) has no stereo
        // geometry: a rectification of it would divide by nearly nothing (Q entries of 1e15).
        let baseline = cameras[second].extrinsics.baseline
        let apart = first != 0 || baseline.value > baseline.interval95
        guard apart, (one.model == .fisheye) == (two.model == .fisheye) else {
            return RigCalibrationResult.Pair(first: first, second: second, rectification: nil, epipolarErrors: [:])
        }
        let pose = cameras[second].extrinsics.pose.composed(after: cameras[first].extrinsics.pose.inverse)
        let rectification = try CalibrationShim.stereoRectify(one, two, rotation: pose.matrix, translation: pose.translation)
        var errors: [String: Double] = [:]
        let byCamera = Dictionary(grouping: observations, by: \.camera)
        let secondViews = Dictionary((byCamera[second] ?? []).map { ($0.set, $0.view) }, uniquingKeysWith: { a, _ in a })
        for observation in byCamera[first] ?? [] {
            guard let other = secondViews[observation.set] else { continue }
            let ids = Dictionary(other.points.map { ($0.id, $0.image) }, uniquingKeysWith: { a, _ in a })
            let common = observation.view.points.filter { ids[$0.id] != nil }
            guard !common.isEmpty else { continue }
            let left = try CalibrationShim.rectify(
                common.map(\.image), through: one, rectification: rectification.r1, projection: rectification.p1)
            let right = try CalibrationShim.rectify(
                common.map { ids[$0.id]! }, through: two, rectification: rectification.r2, projection: rectification.p2)
            errors[setNames[observation.set]] = zip(left, right).reduce(0) { $0 + abs($1.0.y - $1.1.y) } / Double(common.count)
        }
        return RigCalibrationResult.Pair(first: first, second: second, rectification: rectification, epipolarErrors: errors)
    }

    /// The first value of `result` that is not a finite number, or `nil`.
    static func firstNonFiniteValue(_ result: RigCalibrationResult) -> String? {
        for camera in result.cameras {
            for parameter in camera.parameters where !parameter.value.isFinite || !(parameter.standardDeviation >= 0) {
                return "\(parameter.name) = \(parameter.value) ± \(parameter.standardDeviation) of camera \(camera.name)"
            }
            let values = camera.extrinsics.pose.rotation + camera.extrinsics.pose.translation + camera.extrinsics.covariance.flatMap { $0 }
            if values.contains(where: { !$0.isFinite }) { return "a pose that is not finite of camera \(camera.name)" }
        }
        if !result.rms.isFinite { return "an RMS reprojection error of \(result.rms)" }
        return nil
    }
}
