import Calibration
import Foundation
import MarkerDetection
import MarkerDetectionTestSupport
import Testing

/// Rigs rendered with a known layout: the joint solve must find where every camera sits, with
/// intrinsics as good as each camera's own solve and 95% intervals that hold the truth.
///
/// A few seeded trials; with `MARKER_SHUTTER_FULL_TRIALS=1` in the environment, the interval test runs 100.
@Suite struct RigCalibrationTests {
    static let full = ProcessInfo.processInfo.environment["MARKER_SHUTTER_FULL_TRIALS"] == "1"

    /// The two-camera rig's views of 30 random board poses, with `noise` px of corner noise.
    static func pair(seed: UInt64, noise: Double = 0.3, sets: Int = 30) throws -> [RigCameraViews] {
        let views = try SyntheticRig.views(
            cameras: [SyntheticRig.left, SyntheticRig.right], poses: [.identity, SyntheticRig.rightPose],
            boardPoses: SyntheticViews.randomPoses(sets, seed: seed), noise: noise, seed: seed + 1000)
        return [
            RigCameraViews(name: "left", model: .pinhole, views: views[0]),
            RigCameraViews(name: "right", model: .pinhole, views: views[1]),
        ]
    }

    /// The second camera 12 cm (0.4 board widths) beside the first, turned 5 degrees, 0.3 px of
    /// noise: baseline within 0.5%, rotation within 0.1 degree.
    @Test(arguments: [UInt64(1), 2, 3])
    func twoCamerasAreFoundWhereTheyAre(seed: UInt64) throws {
        let result = try RigCalibration.calibrate(try Self.pair(seed: seed))
        let extrinsics = result.cameras[1].extrinsics
        #expect(abs(extrinsics.baseline.value / 0.4 - 1) < 0.005, "baseline \(extrinsics.baseline.value), true 0.4")
        let angle = SyntheticRig.angleBetween(extrinsics.pose, SyntheticRig.rightPose)
        #expect(angle < 0.1, "rotation off by \(angle) degrees")
        #expect(abs(extrinsics.angleDegrees.value - 5) < 0.1, "rotation angle \(extrinsics.angleDegrees.value)")
        #expect(result.droppedSets.isEmpty)
        #expect(result.links.map { [$0.camera, $0.from, $0.sharedSets] } == [[1, 0, result.sets.filter { $0.cameras == [0, 1] }.count]])
        for (index, truth) in [SyntheticRig.left, SyntheticRig.right].enumerated() {
            let joint = try SyntheticViews.meanModelError(truth: truth, estimate: result.cameras[index].camera)
            #expect(joint < 0.5, "camera \(index): \(joint) px from the true model")
        }
        // The reference camera has no pose to solve.
        #expect(result.cameras[0].extrinsics == .reference)
        #expect(result.rms > 0.2 && result.rms < 0.45, "RMS \(result.rms) for 0.3 px of noise on each axis")
    }

    /// Over six rigs, each camera's intrinsics from the joint solve are as near the true camera
    /// (the mean projection error over the image) as its own solve's: no more than 5% further in sum.
    @Test func intrinsicsAreAsGoodAsEachCamerasOwnSolve() throws {
        var joint = 0.0, own = 0.0
        for seed in UInt64(1)...6 {
            let result = try RigCalibration.calibrate(try Self.pair(seed: seed))
            for (index, truth) in [SyntheticRig.left, SyntheticRig.right].enumerated() {
                joint += try SyntheticViews.meanModelError(truth: truth, estimate: result.cameras[index].camera)
                own += try SyntheticViews.meanModelError(truth: truth, estimate: result.cameras[index].single.camera)
            }
        }
        print("rig intrinsics: mean model error \(joint / 12) px jointly, \(own / 12) px each camera on its own")
        #expect(joint <= own * 1.05, "joint \(joint / 12) px against the cameras' own \(own / 12) px")
    }

    /// The 95% intervals of the baseline, the translation's x and the rotation vector's y hold the
    /// truth in at least 90% of noisy trials (8 trials; 100 with MARKER_SHUTTER_FULL_TRIALS=1).
    @Test func intervalsHoldTheTruth() throws {
        let trials = Self.full ? 100 : 8
        var baseline = 0, x = 0, yaw = 0
        let truthYaw = SyntheticRig.rightPose.rotation[1] * 180 / .pi
        for trial in 0..<trials {
            let result = try RigCalibration.calibrate(try Self.pair(seed: 500 + UInt64(trial)))
            let extrinsics = result.cameras[1].extrinsics
            if extrinsics.baseline.contains(0.4) { baseline += 1 }
            if extrinsics.translation[0].contains(SyntheticRig.rightPose.translation[0]) { x += 1 }
            if extrinsics.rotationDegrees[1].contains(truthYaw) { yaw += 1 }
        }
        print("rig intervals over \(trials) trials: baseline \(baseline), T.x \(x), rotation y \(yaw)")
        let needed = Self.full ? 90 : trials - 1
        #expect(baseline >= needed, "baseline inside its 95% interval in \(baseline) of \(trials)")
        #expect(x >= needed, "T.x inside its 95% interval in \(x) of \(trials)")
        #expect(yaw >= needed, "rotation y inside its 95% interval in \(yaw) of \(trials)")
    }

    /// The right camera's corners of each set shifted together by up to 1.5 px, a different way in
    /// every set (as cameras that do not expose at the same instant, or a board that bends between
    /// sets, give): errors that differ from set to set, which the corners' scatter cannot see.
    static func pairWithSetErrors(seed: UInt64) throws -> [RigCameraViews] {
        var cameras = try pair(seed: seed, noise: 0.2)
        var random = SplitMix64(seed: seed &+ 77)
        cameras[1].views = cameras[1].views.map { view in
            let dx = 3 * (random.nextUniform() - 0.5), dy = 3 * (random.nextUniform() - 0.5)
            var shifted = view
            shifted.points = view.points.map { point in
                var moved = point
                moved.image = ImagePoint(x: point.image.x + dx, y: point.image.y + dy)
                return moved
            }
            return shifted
        }
        return cameras
    }

    /// With errors that differ from set to set, the corners' scatter alone leaves the truth
    /// outside the baseline's and the rotation's intervals; the spread between sets (a jackknife
    /// over 10 groups of sets) takes those errors in and the intervals hold the truth again, in at
    /// least 7 of 8 trials each (90 of 100 with MARKER_SHUTTER_FULL_TRIALS=1).
    @Test func theSpreadBetweenSetsCoversErrorsThatDifferFromSetToSet() throws {
        let trials = Self.full ? 100 : 8
        var withSpread = (baseline: 0, yaw: 0), scatterAlone = (baseline: 0, yaw: 0)
        let truthYaw = SyntheticRig.rightPose.rotation[1] * 180 / .pi
        for trial in 0..<trials {
            let cameras = try Self.pairWithSetErrors(seed: 700 + UInt64(trial))
            let result = try RigCalibration.calibrate(cameras)
            let spread = try #require(result.spread, "\(result.spreadNotMeasured ?? "no reason")")
            #expect(spread.groups == 10 && spread.degreesOfFreedom == 9 && Set(spread.leftOut.flatMap { $0 }).count == result.sets.count)
            let alone = try RigCalibration.calibrate(cameras, spreadGroups: nil)
            #expect(alone.spread == nil && alone.spreadNotMeasured == nil)
            let extrinsics = result.cameras[1].extrinsics, scatter = alone.cameras[1].extrinsics
            // The same solve: only the intervals differ.
            #expect(abs(extrinsics.baseline.value - scatter.baseline.value) < 1e-9)
            #expect(extrinsics.baseline.interval95 >= scatter.baseline.interval95)
            if extrinsics.baseline.contains(0.4) { withSpread.baseline += 1 }
            if extrinsics.rotationDegrees[1].contains(truthYaw) { withSpread.yaw += 1 }
            if scatter.baseline.contains(0.4) { scatterAlone.baseline += 1 }
            if scatter.rotationDegrees[1].contains(truthYaw) { scatterAlone.yaw += 1 }
        }
        print("rig intervals with set-to-set errors over \(trials) trials: with the spread baseline \(withSpread.baseline), "
            + "rotation y \(withSpread.yaw); the corners' scatter alone baseline \(scatterAlone.baseline), rotation y \(scatterAlone.yaw)")
        let needed = Self.full ? 90 : trials - 1
        #expect(withSpread.baseline >= needed && withSpread.yaw >= needed, "\(withSpread)")
        // What the spread is for: the scatter alone misses the truth in most of these trials.
        #expect(scatterAlone.baseline + scatterAlone.yaw < withSpread.baseline + withSpread.yaw, "\(scatterAlone)")
    }

    /// Too few sets to leave groups out (three sets: without one, each camera has two views, and
    /// a solve needs three): the intervals are the corners' scatter, and the result says why the
    /// spread was not measured.
    @Test func tooFewSetsSayWhyTheSpreadWasNotMeasured() throws {
        let result = try RigCalibration.calibrate(try Self.pair(seed: 9, sets: 3))
        #expect(result.spread == nil)
        let reason = try #require(result.spreadNotMeasured)
        #expect(reason.hasPrefix("without sets ") && reason.hasSuffix(" has 2 views (3 are needed)"), "\(reason)")
        let baseline = result.cameras[1].extrinsics.baseline
        #expect(baseline.spread == 0 && baseline.interval95 == 1.96 * baseline.standardDeviation)
    }

    /// Three cameras where the first and the last never see the board in the same set: the last
    /// is placed through the middle one, and the joint solve finds all three.
    @Test func aCameraThatNeverSharesASetWithTheFirstIsPlacedThroughAnother() throws {
        let third = Camera(
            model: .pinhole, imageSize: ImageSize(width: 1280, height: 720), fx: 1000, fy: 998, cx: 636, cy: 358.5,
            distortion: [-0.12, 0.02, 0.0003, 0.0002, 0])
        let thirdPose = SyntheticRig.pose(centre: [0.8, 0.03, -0.05], yawDegrees: 9)
        let near = SyntheticViews.randomPoses(30, seed: 71)
        let far = SyntheticViews.randomPoses(30, seed: 72).map { pose -> SyntheticViews.Pose in
            var moved = pose
            moved.x += 0.6
            return moved
        }
        let views = try SyntheticRig.views(
            cameras: [SyntheticRig.left, SyntheticRig.right, third], poses: [.identity, SyntheticRig.rightPose, thirdPose],
            boardPoses: near + far, noise: 0.3, seed: 73,
            sees: { camera, set in camera == 1 || (camera == 0 && set < 30) || (camera == 2 && set >= 30) })
        let result = try RigCalibration.calibrate([
            RigCameraViews(name: "a", model: .pinhole, views: views[0]),
            RigCameraViews(name: "b", model: .pinhole, views: views[1]),
            RigCameraViews(name: "c", model: .pinhole, views: views[2]),
        ])
        #expect(!result.sets.contains { $0.cameras.contains(0) && $0.cameras.contains(2) })
        #expect(result.links.map { [$0.camera, $0.from] } == [[1, 0], [2, 1]])
        for (index, truth, baseline) in [(1, SyntheticRig.rightPose, 0.4), (2, thirdPose, thirdPose.inverse.length)] {
            let extrinsics = result.cameras[index].extrinsics
            #expect(abs(extrinsics.baseline.value / baseline - 1) < 0.005, "camera \(index): baseline \(extrinsics.baseline.value), true \(baseline)")
            let angle = SyntheticRig.angleBetween(extrinsics.pose, truth)
            #expect(angle < 0.1, "camera \(index): rotation off by \(angle) degrees")
        }
        // Pairs of the first camera with each other one; the first and last share no set.
        #expect(result.pairs.map(\.second) == [1, 2])
        #expect(result.pairs[1].epipolarErrors.isEmpty)
        #expect(!result.pairs[0].epipolarErrors.isEmpty)
    }

    /// A set where one camera's corners are all 12 px off fits that camera on its own (its pose
    /// absorbs it) but not the rig: the joint solve drops it, reports it, and still finds the rig.
    @Test func aSetThatDisagreesBetweenCamerasIsDropped() throws {
        var cameras = try Self.pair(seed: 9)
        let index = try #require(cameras[1].views.firstIndex { $0.name == "set_05.png" })
        cameras[1].views[index].points = cameras[1].views[index].points.map { point in
            var moved = point
            moved.image.x += 12
            return moved
        }
        let result = try RigCalibration.calibrate(cameras)
        #expect(result.droppedSets.map(\.name) == ["set_05"])
        #expect(result.droppedSets.first?.reason.hasPrefix("outlier: RMS ") == true)
        #expect(!result.sets.contains { $0.name == "set_05" })
        #expect(result.firstRMS > result.rms)
        let extrinsics = result.cameras[1].extrinsics
        #expect(abs(extrinsics.baseline.value / 0.4 - 1) < 0.005, "baseline \(extrinsics.baseline.value)")
        #expect(SyntheticRig.angleBetween(extrinsics.pose, SyntheticRig.rightPose) < 0.1)
    }

    /// The rectified corners of the two pictures lie on the same rows: without noise to within
    /// 0.01 px; with 0.3 px on each axis of each picture, the mean absolute difference of two
    /// such rows is about 0.3 x sqrt(2) x 0.8 = 0.34 px.
    @Test func rectifiedCornersShareTheirRows() throws {
        for (noise, range) in [(0.0, 0.0...0.01), (0.3, 0.25...0.5)] {
            let result = try RigCalibration.calibrate(try Self.pair(seed: 4, noise: noise))
            let pair = try #require(result.pairs.first)
            #expect(pair.rectification != nil)
            #expect(pair.epipolarErrors.count == result.sets.filter { $0.cameras == [0, 1] }.count)
            let mean = try #require(pair.meanEpipolarError)
            #expect(range.contains(mean), "mean epipolar error \(mean) px for \(noise) px of corner noise")
        }
    }

    /// A camera that shares no set with the others is refused with the cameras named.
    @Test func aCameraSharingNoSetIsRefused() throws {
        let views = try SyntheticRig.views(
            cameras: [SyntheticRig.left, SyntheticRig.right, SyntheticRig.left],
            poses: [.identity, SyntheticRig.rightPose, .identity], boardPoses: SyntheticViews.randomPoses(30, seed: 5), noise: 0.2,
            seed: 6, sees: { camera, set in camera == 2 ? set >= 15 : set < 15 })
        #expect(throws: CalibrationError.rigNotConnected(
            "camera c never saw the target in a set with a or a camera placed from it: take pictures where the target is seen by both"
        )) {
            try RigCalibration.calibrate([
                RigCameraViews(name: "a", model: .pinhole, views: views[0]),
                RigCameraViews(name: "b", model: .pinhole, views: views[1]),
                RigCameraViews(name: "c", model: .pinhole, views: views[2]),
            ])
        }
    }

    /// One camera is no rig, two cameras of one name are refused, and a camera that cannot be
    /// calibrated on its own is named.
    @Test func badRigsAreRefused() throws {
        let cameras = try Self.pair(seed: 1)
        #expect(throws: CalibrationError.rigInput("a rig needs at least two cameras, not 1")) {
            try RigCalibration.calibrate([cameras[0]])
        }
        var twins = cameras
        twins[1].name = "left"
        #expect(throws: CalibrationError.rigInput("two cameras are named left")) { try RigCalibration.calibrate(twins) }
        var few = cameras
        few[1].views = Array(few[1].views.prefix(2))
        #expect(throws: CalibrationError.inCamera("right", .tooFewViews(usable: 2, needed: 3, model: .pinhole, rejected: []))) {
            try RigCalibration.calibrate(few)
        }
    }

    /// Without the intrinsics refined, each camera keeps its own solve's intrinsics to the last
    /// bit, with no uncertainty; the poses are still found.
    @Test func heldIntrinsicsStayEachCamerasOwn() throws {
        let result = try RigCalibration.calibrate(try Self.pair(seed: 2), refinesIntrinsics: false)
        #expect(!result.refinesIntrinsics)
        for camera in result.cameras {
            #expect(camera.camera == camera.single.camera)
            #expect(camera.parameters.allSatisfy { $0.standardDeviation == 0 })
        }
        let extrinsics = result.cameras[1].extrinsics
        #expect(abs(extrinsics.baseline.value / 0.4 - 1) < 0.005, "baseline \(extrinsics.baseline.value)")
        #expect(SyntheticRig.angleBetween(extrinsics.pose, SyntheticRig.rightPose) < 0.1)
        #expect(extrinsics.baseline.standardDeviation > 0)
    }

    /// A pair of fisheye cameras: found where they are, rectified by OpenCV's fisheye
    /// rectification, the rectified corners on the same rows.
    @Test func fisheyeCamerasAreFoundAndRectified() throws {
        let left = Camera(
            model: .fisheye, imageSize: ImageSize(width: 1280, height: 720), fx: 520, fy: 518, cx: 640.5, cy: 359,
            distortion: [0.05, -0.02, 0.004, -0.0008])
        let right = Camera(
            model: .fisheye, imageSize: ImageSize(width: 1280, height: 720), fx: 530, fy: 529, cx: 637, cy: 362.5,
            distortion: [0.04, -0.01, 0.002, -0.0005])
        let views = try SyntheticRig.views(
            cameras: [left, right], poses: [.identity, SyntheticRig.rightPose], boardPoses: SyntheticViews.randomPoses(30, seed: 81),
            noise: 0.3, seed: 82)
        let result = try RigCalibration.calibrate([
            RigCameraViews(name: "left", model: .fisheye, views: views[0]),
            RigCameraViews(name: "right", model: .fisheye, views: views[1]),
        ])
        let extrinsics = result.cameras[1].extrinsics
        #expect(abs(extrinsics.baseline.value / 0.4 - 1) < 0.005, "baseline \(extrinsics.baseline.value)")
        #expect(SyntheticRig.angleBetween(extrinsics.pose, SyntheticRig.rightPose) < 0.1)
        let pair = try #require(result.pairs.first)
        #expect(pair.rectification != nil)
        let mean = try #require(pair.meanEpipolarError)
        #expect(mean < 0.5, "mean epipolar error \(mean) px")
    }
}
