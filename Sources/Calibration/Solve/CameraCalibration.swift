import Foundation
import MarkerDetection

/// Solves a camera from views of a planar target, drops views that fit far worse than the rest, and
/// solves again.
///
/// Each solve is Ceres Solver's refinement (``CalibrationRefinement``) from a start: the closed
/// form of Zhang's method for the pinhole models, OpenCV's solve for the rational and fisheye ones
/// (``startsFromClosedForm(_:refinement:)``). It is robust per corner, with corners that fit far
/// worse than the rest dropped and reported per view, and gives the intrinsics' covariance with the
/// right degrees of freedom.
///
/// The outlier rule: after the first solve, a view whose RMS reprojection error is over
/// ``outlierFactor`` (3) times the median of all views' RMS errors is dropped, and the remaining
/// views are solved once more, provided the model still has enough views. Both runs are kept.
public enum CameraCalibration {
    /// How many times the median view RMS a view may reach before it is dropped.
    public static let outlierFactor = 3.0

    /// The outlier rule in words, for reports.
    public static let outlierRule =
        "a view whose RMS reprojection error is over 3 times the median of all views' RMS is dropped and the rest solved again"

    /// Calibrates `model` from `views`.
    ///
    /// Views with too few points, or with points on one line, are set aside first (see
    /// ``CalibrationView/unusableReason``).
    ///
    /// - Parameters:
    ///   - views: The views, all of one image size.
    ///   - model: The lens model.
    ///   - setAside: Pictures already left out (no target found), reported with the rest.
    ///   - refinement: How Ceres Solver refines the solve's start, or `nil` for OpenCV's solve alone
    ///     (whose intervals are OpenCV's: about 1.4 times too wide on ideal data).
    ///   - poseCovariance: Whether the refinement also gives the covariance over every view's pose
    ///     (``CalibrationRun/fullCovariance``), which the projection-uncertainty map needs.
    ///   - spreadGroups: The views' spread (``ViewSpread``) is measured on the final run with this
    ///     many groups and taken into its intervals; `nil` leaves it out (the intervals then cover
    ///     the corners' scatter alone). When it cannot be measured, the run says why
    ///     (``CalibrationRun/spreadNotMeasured``).
    /// - Throws: ``CalibrationError/mixedImageSizes(_:)``, ``CalibrationError/tooFewViews(usable:needed:model:rejected:)``,
    ///   or ``CalibrationError/openCV(_:)`` when OpenCV fails to solve.
    public static func calibrate(
        _ views: [CalibrationView], model: CameraModel, setAside: [RejectedView] = [],
        refinement: CalibrationRefinement? = .standard, poseCovariance: Bool = true,
        spreadGroups: Int? = ViewSpread.defaultGroups
    ) throws(CalibrationError) -> CalibrationResult {
        let sizes = Dictionary(grouping: views, by: \.imageSize)
        if sizes.count > 1 {
            let described = sizes.sorted {
                $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key.description < $1.key.description
            }.map { size, views in
                "\(size) in \(views.count) (\(views.first!.name)\(views.count > 1 ? ", ..." : ""))"
            }
            throw .mixedImageSizes(described)
        }
        var unusable = setAside
        var usable: [CalibrationView] = []
        for view in views {
            if let reason = view.unusableReason {
                unusable.append(RejectedView(name: view.name, reason: reason))
            } else {
                usable.append(view)
            }
        }
        guard usable.count >= model.minimumViews, let imageSize = usable.first?.imageSize else {
            throw .tooFewViews(usable: usable.count, needed: model.minimumViews, model: model, rejected: unusable)
        }
        if model == .fisheye {
            let refused = try fisheyeStartRefuses(usable, imageSize: imageSize)
            unusable += refused
            let names = Set(refused.map(\.name))
            usable.removeAll { names.contains($0.name) }
            guard usable.count >= model.minimumViews else {
                throw .tooFewViews(usable: usable.count, needed: model.minimumViews, model: model, rejected: unusable)
            }
        }
        let first = try solve(usable, model: model, imageSize: imageSize, refinement: refinement, poseCovariance: poseCovariance)
        let limit = outlierFactor * first.medianViewRMS
        let outliers = first.views.filter { $0.rms > limit }
        var final = first
        var dropped: [RejectedView] = []
        if !outliers.isEmpty, usable.count - outliers.count >= model.minimumViews {
            let names = Set(outliers.map(\.view.name))
            let kept = usable.filter { !names.contains($0.name) }
            final = try solve(kept, model: model, imageSize: imageSize, refinement: refinement, poseCovariance: poseCovariance)
            dropped = outliers.map { solved in
                RejectedView(
                    name: solved.view.name,
                    reason: "outlier: RMS " + format(solved.rms) + " px is over 3 x the median " + format(first.medianViewRMS)
                        + " px")
            }
        }
        if let spreadGroups {
            if final.refinement == nil {
                final.spreadNotMeasured = "OpenCV's solve alone is not solved again without views"
            } else {
                do {
                    final.include(try ViewSpread.measure(final, groups: spreadGroups))
                } catch .tooFewViews {
                    final.spreadNotMeasured = "\(final.views.count) views are too few to leave groups of them out "
                        + "(\(model.minimumViews + 1) are needed)"
                } catch {
                    final.spreadNotMeasured = "\(error)"
                }
            }
        }
        return CalibrationResult(
            imageSize: imageSize, model: model, firstRun: dropped.isEmpty ? final : first, finalRun: dropped.isEmpty ? nil : final,
            unusable: unusable, outliers: dropped)
    }

    /// The views OpenCV's `fisheye::calibrate` cannot start with, each with the reason.
    ///
    /// When one view's pose cannot be set up from its homography, OpenCV's fisheye solve either
    /// throws or returns its initial guess unchanged (a focal length of the image's width over pi,
    /// the image's centre, no distortion), which no refinement recovers from. Such a start is tried
    /// again without each view in turn, and the view whose absence gives the lowest RMS is left
    /// out; up to ``fisheyeStartDrops`` views, after which the start's own error is thrown.
    static func fisheyeStartRefuses(_ views: [CalibrationView], imageSize: ImageSize) throws(CalibrationError) -> [RejectedView] {
        func started(_ views: [CalibrationView]) -> ShimSolution? {
            guard let start = try? CalibrationShim.calibrate(views, model: .fisheye, imageSize: imageSize) else { return nil }
            let camera = start.camera
            let unmoved = camera.fx == camera.fy && camera.cx == Double(imageSize.width - 1) / 2
                && camera.cy == Double(imageSize.height - 1) / 2 && camera.distortion.allSatisfy { $0 == 0 }
            return unmoved || !start.rms.isFinite ? nil : start
        }
        var kept = views
        var refused: [RejectedView] = []
        while started(kept) == nil {
            guard refused.count < fisheyeStartDrops, kept.count > CameraModel.fisheye.minimumViews else {
                _ = try CalibrationShim.calibrate(kept, model: .fisheye, imageSize: imageSize)
                throw .openCV(
                    "OpenCV's fisheye::calibrate does not move from its initial guess on these views"
                        + (refused.isEmpty ? "" : ", even without " + refused.map(\.name).joined(separator: ", ")))
            }
            let trials = kept.indices.compactMap { index -> (index: Int, rms: Double)? in
                var rest = kept
                rest.remove(at: index)
                return started(rest).map { (index, $0.rms) }
            }
            guard let best = trials.min(by: { $0.rms < $1.rms }) else {
                _ = try CalibrationShim.calibrate(kept, model: .fisheye, imageSize: imageSize)
                throw .openCV("OpenCV's fisheye::calibrate does not move from its initial guess on these views, "
                    + "nor without any one of them")
            }
            refused.append(RejectedView(
                name: kept[best.index].name,
                reason: "OpenCV's fisheye::calibrate cannot start with this view (its pose from the board's homography "
                    + "fails); without it the start's RMS is " + format(best.rms) + " px"))
            kept.remove(at: best.index)
        }
        return refused
    }

    /// How many views ``fisheyeStartRefuses(_:imageSize:)`` may leave out.
    static let fisheyeStartDrops = 3

    /// The solve of `views`: OpenCV's alone without a `refinement`; with one, Ceres Solver's
    /// refinement from the start ``startsFromClosedForm(_:refinement:)`` says.
    static func solve(
        _ views: [CalibrationView], model: CameraModel, imageSize: ImageSize, refinement: CalibrationRefinement?,
        poseCovariance: Bool = true
    ) throws(CalibrationError) -> CalibrationRun {
        // Views that give the closed form no start (a view with no homography: its points piled up
        // or on one line) start from OpenCV's solve, which says what it makes of them.
        var closedForm = refinement.map { startsFromClosedForm(model, refinement: $0) } ?? false
        var closedFormStart: ShimSolution?
        if closedForm {
            closedFormStart = try? CalibrationShim.calibrate(views, model: model, imageSize: imageSize, closedForm: true, deviations: false)
            closedForm = closedFormStart != nil
        }
        let start: ShimSolution
        if let closedFormStart {
            start = closedFormStart
        } else {
            start = try CalibrationShim.calibrate(views, model: model, imageSize: imageSize, deviations: refinement == nil)
        }
        guard let refinement else { return try checked(CalibrationRun(start, views: views)) }
        if let value = CalibrationRun(start, views: views).firstNonFiniteValue { throw .nonFiniteSolve(value) }
        let band = model == .rational && refinement.guardWeight > 0 && !refinement.holdsDistortion(of: model)
            ? RadialGuard.band(camera: start.camera, views: views) : nil
        let refined = try CeresShim.refine(
            views, camera: start.camera, rotations: start.rotations, translations: start.translations, settings: refinement,
            fullCovariance: poseCovariance, guard: band)
        var run = try checked(
            CalibrationRun(start: start, closedForm: closedForm, refined: refined, settings: refinement, views: views))
        if let value = run.undeterminedFocalLength { throw .nonFiniteSolve(value) }
        run.radialGuard = band
        return run
    }

    /// The views of `run` at `indices` solved again, starting from `run`'s camera and those views'
    /// poses, over the corners `run` kept, by plain least squares (no robust solve, no corner
    /// dropped): the solves of parts of the views that ``ViewSpread`` and ``CrossValidation``
    /// compare. The run's ``CalibrationRun/openCVCamera`` is then `run`'s camera, where it started.
    ///
    /// - Parameters:
    ///   - fullCovariance: Whether the covariance over every pose is computed too (for an
    ///     uncertainty map).
    ///   - covariance: Whether any covariance is computed; without it the parameters' standard
    ///     deviations are 0.
    /// - Throws: What the refinement throws, and ``CalibrationError/nonFiniteSolve(_:)``.
    static func resolve(
        _ run: CalibrationRun, views indices: [Int], fullCovariance: Bool = false, covariance: Bool = true
    ) throws(CalibrationError) -> CalibrationRun {
        let settings = (run.refinement ?? .standard).resolving
        let views = indices.map { index -> CalibrationView in
            let solved = run.views[index]
            guard !solved.droppedCorners.isEmpty else { return solved.view }
            var view = solved.view
            let dropped = Set(solved.droppedCorners)
            view.points.removeAll { dropped.contains($0.id) }
            return view
        }
        let refined = try CeresShim.refine(
            views, camera: run.camera, rotations: indices.map { run.poseRotations[$0] },
            translations: indices.map { run.poseTranslations[$0] }, settings: settings, fullCovariance: fullCovariance,
            covariance: covariance, guard: run.radialGuard)
        let start = ShimSolution(
            camera: run.camera, rms: run.rms, standardDeviations: [], viewRMS: [], rotations: [], translations: [], projected: [])
        var solved = try checked(CalibrationRun(start: start, refined: refined, settings: settings, views: views))
        solved.radialGuard = run.radialGuard
        return solved
    }

    /// Whether the refinement of a `model` solve starts from the closed-form start (Zhang's method
    /// over the views' homographies, no distortion) rather than from OpenCV's solve: for the pinhole
    /// models (5 coefficients, and radtan's 4). OpenCV's solve, a dense Levenberg-Marquardt over
    /// every view's pose, takes 3.4 s of CPU for 100 views; the whole solve from the closed-form
    /// start, Ceres Solver eliminating the poses, takes 0.36 s and ends at the same minimum.
    ///
    /// The rational model keeps OpenCV's solve: its radial guard's band is measured through the
    /// start's distortion, which a wide lens needs, and held coefficients are OpenCV's. The fisheye
    /// model keeps cv::fisheye::calibrate: no homography follows its projection far from the
    /// image's centre, and its own solve alternates the intrinsics with each view's pose, a cost
    /// that grows with the views alone (8.5 of the 9.5 billion instructions of a 100-view fisheye
    /// solve, about a second). A start computes no standard deviations of its own (the
    /// refinement's covariance replaces them).
    static func startsFromClosedForm(_ model: CameraModel, refinement: CalibrationRefinement) -> Bool {
        (model == .pinhole || model == .pinholeRadtan) && !refinement.holdsDistortion(of: model)
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }

    /// `run` when every number in it is finite and every variance not negative.
    ///
    /// - Throws: ``CalibrationError/nonFiniteSolve(_:)`` naming the first value that is not.
    static func checked(_ run: CalibrationRun) throws(CalibrationError) -> CalibrationRun {
        if let value = run.firstNonFiniteValue { throw .nonFiniteSolve(value) }
        return run
    }
}
