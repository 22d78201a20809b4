// The only file that calls into CCeresShim. It holds every unsafe pointer and checks every status.

import CCeresShim
import CShimCore
import MarkerDetection
import ShimCore

/// What one call of `mcer_refine` found.
struct CeresRefinement {
    /// fx, fy, cx, cy, then each distortion coefficient.
    var intrinsics: [Double]
    /// Their covariance, row by row (sigma^2 times the intrinsics' block of (J^T J)^-1).
    var covariance: [[Double]]
    /// Rodrigues vector and translation of each view.
    var rotations: [[Double]]
    var translations: [[Double]]
    /// Per view, where each point projects.
    var projected: [[ImagePoint]]
    /// Per view, whether each point took part in the final solve.
    var kept: [[Bool]]
    /// RMS reprojection error over the kept corners.
    var rms: Double
    /// The residuals' standard deviation with the degrees of freedom below.
    var sigma: Double
    /// The corner drop threshold of the last round, in pixels.
    var dropThreshold: Double
    /// 2 x kept corners - refined intrinsics - 6 x views.
    var degreesOfFreedom: Int
    /// When asked for: the covariance over the intrinsics and every view's pose (rotation, then
    /// translation), row by row, in that order; ``covariance`` is its top-left block.
    var fullCovariance: [[Double]]? = nil
}

enum CeresShim {
    fileprivate static func cModel(_ model: CameraModel) -> mcer_model {
        switch model {
        case .pinhole: MCER_MODEL_PINHOLE
        case .pinholeRadtan: MCER_MODEL_PINHOLE_RADTAN
        case .rational: MCER_MODEL_RATIONAL
        case .fisheye: MCER_MODEL_FISHEYE
        }
    }

    /// Refines `camera` and the views' poses over `views` (mcer_refine); without `covariance`, none
    /// is computed (its blocks are 0), which a solve whose spread alone is wanted saves.
    static func refine(
        _ views: [CalibrationView], camera: Camera, rotations: [[Double]], translations: [[Double]],
        settings: CalibrationRefinement, fullCovariance: Bool = false, covariance computesCovariance: Bool = true,
        guard radialGuard: RadialGuard? = nil
    ) throws(CalibrationError) -> CeresRefinement {
        let model = cModel(camera.model)
        let count = Int(mcer_model_intrinsic_count(model))
        let counts = views.map { Int32($0.points.count) }
        let objects = views.flatMap { $0.points.flatMap { [$0.object.x, $0.object.y, $0.object.z] } }
        let images = views.flatMap { $0.points.flatMap { [$0.image.x, $0.image.y] } }
        let initial = [camera.fx, camera.fy, camera.cx, camera.cy] + camera.distortion
        guard initial.count == count, rotations.count == views.count, translations.count == views.count else {
            throw .openCV("refinement: \(initial.count) intrinsics for \(count), \(rotations.count) poses for \(views.count) views")
        }
        let initialRotations = rotations.flatMap { $0 }, initialTranslations = translations.flatMap { $0 }
        let points = images.count / 2
        var intrinsics = [Double](repeating: 0, count: count)
        var covariance = [Double](repeating: 0, count: count * count)
        var outRotations = [Double](repeating: 0, count: 3 * views.count)
        var outTranslations = [Double](repeating: 0, count: 3 * views.count)
        var projected = [Double](repeating: 0, count: 2 * points)
        var kept = [UInt8](repeating: 0, count: points)
        let fullSize = count + 6 * views.count
        var full = [Double](repeating: 0, count: fullCovariance ? fullSize * fullSize : 0)
        var cSettings = mcer_settings(
            loss_scale: settings.lossScale, drop_sigmas: settings.dropSigmas, drop_floor: settings.dropFloor,
            regularization: settings.regularization, rounds: Int32(settings.rounds),
            hold_distortion: settings.holdsDistortion(of: camera.model) ? 1 : 0,
            skip_covariance: computesCovariance || fullCovariance ? 0 : 1, rational_weights: nil,
            guard_weight: settings.guardWeight, guard_inner: radialGuard?.inner ?? 0, guard_outer: radialGuard?.outer ?? 0,
            guard_scale: radialGuard?.scale ?? 0, starts_beside_minimum: settings.startsBesideMinimum ? 1 : 0)
        var error = shim_error()
        var scalars = mcer_solution()
        let weights = settings.rationalWeights ?? []
        let status = weights.withUnsafeBufferPointer { weights in
        cSettings.rational_weights = settings.rationalWeights == nil ? nil : weights.baseAddress
        return counts.withUnsafeBufferPointer { counts in
            objects.withUnsafeBufferPointer { objects in
                images.withUnsafeBufferPointer { images in
                    initial.withUnsafeBufferPointer { initial in
                        initialRotations.withUnsafeBufferPointer { initialRotations in
                            initialTranslations.withUnsafeBufferPointer { initialTranslations in
                                intrinsics.withUnsafeMutableBufferPointer { intrinsics in
                                    covariance.withUnsafeMutableBufferPointer { covariance in
                                        outRotations.withUnsafeMutableBufferPointer { outRotations in
                                            outTranslations.withUnsafeMutableBufferPointer { outTranslations in
                                                projected.withUnsafeMutableBufferPointer { projected in
                                                    kept.withUnsafeMutableBufferPointer { kept in
                                                        full.withUnsafeMutableBufferPointer { full in
                                                            var problem = mcer_problem(
                                                                model: model, view_count: views.count,
                                                                point_counts: counts.baseAddress,
                                                                object_points: objects.baseAddress,
                                                                image_points: images.baseAddress,
                                                                initial_intrinsics: initial.baseAddress,
                                                                initial_rotations: initialRotations.baseAddress,
                                                                initial_translations: initialTranslations.baseAddress)
                                                            var solution = mcer_solution()
                                                            solution.intrinsics = intrinsics.baseAddress
                                                            solution.covariance = covariance.baseAddress
                                                            solution.rotations = outRotations.baseAddress
                                                            solution.translations = outTranslations.baseAddress
                                                            solution.projected = projected.baseAddress
                                                            solution.kept = kept.baseAddress
                                                            solution.full_covariance = fullCovariance ? full.baseAddress : nil
                                                            let status = mcer_refine(&problem, &cSettings, &solution, &error)
                                                            scalars = solution
                                                            return status
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        }
        guard status == .SHIM_STATUS_OK else { throw CalibrationError(ShimFailure(error)) }
        var perViewProjected: [[ImagePoint]] = []
        var perViewKept: [[Bool]] = []
        var offset = 0
        for view in views {
            let range = offset..<(offset + view.points.count)
            perViewProjected.append(range.map { ImagePoint(x: projected[2 * $0], y: projected[2 * $0 + 1]) })
            perViewKept.append(range.map { kept[$0] != 0 })
            offset += view.points.count
        }
        return CeresRefinement(
            intrinsics: intrinsics,
            covariance: (0..<count).map { row in Array(covariance[(row * count)..<((row + 1) * count)]) },
            rotations: (0..<views.count).map { Array(outRotations[(3 * $0)..<(3 * $0 + 3)]) },
            translations: (0..<views.count).map { Array(outTranslations[(3 * $0)..<(3 * $0 + 3)]) },
            projected: perViewProjected, kept: perViewKept, rms: scalars.rms, sigma: scalars.sigma,
            dropThreshold: scalars.drop_threshold, degreesOfFreedom: Int(scalars.degrees_of_freedom),
            fullCovariance: fullCovariance
                ? (0..<fullSize).map { row in Array(full[(row * fullSize)..<((row + 1) * fullSize)]) } : nil)
    }
}

/// What one call of `mcer_rig_refine` found.
struct CeresRigRefinement {
    /// Per camera: fx, fy, cx, cy, then each distortion coefficient.
    var intrinsics: [[Double]]
    /// Per camera, their covariance, row by row.
    var covariance: [[[Double]]]
    /// Per camera, the Rodrigues vector and translation taking the first camera's frame into its own.
    var cameraRotations: [[Double]]
    var cameraTranslations: [[Double]]
    /// Per camera, the 6 x 6 covariance of (rotation, translation), row by row.
    var cameraCovariance: [[[Double]]]
    /// Per set, the target's Rodrigues vector and translation in the first camera's frame.
    var setRotations: [[Double]]
    var setTranslations: [[Double]]
    /// Per observation, where each point projects and whether it took part in the final solve.
    var projected: [[ImagePoint]]
    var kept: [[Bool]]
    /// Per camera, the RMS reprojection error over its kept corners and its corner drop threshold.
    var cameraRMS: [Double]
    var dropThresholds: [Double]
    /// RMS reprojection error over every kept corner.
    var rms: Double
    var sigma: Double
    var degreesOfFreedom: Int
}

/// One camera's view of one set, as the rig refinement reads it.
struct CeresObservation {
    var camera: Int
    var set: Int
    var view: CalibrationView
}

extension CeresShim {
    /// Refines a rig (mcer_rig_refine): `cameras` start where given, camera `k`'s pose
    /// (`cameraRotations[k]`, `cameraTranslations[k]`) takes the first camera's frame into its own,
    /// and each set's target pose is in the first camera's frame. Without `covariance`, none is
    /// computed (its blocks are 0).
    static func refineRig(
        cameras: [Camera], holdsDistortion: [Bool], holdsIntrinsics: Bool, cameraRotations: [[Double]],
        cameraTranslations: [[Double]], setRotations: [[Double]], setTranslations: [[Double]],
        observations: [CeresObservation], settings: CalibrationRefinement, covariance computesCovariance: Bool = true,
        guards: [RadialGuard?] = []
    ) throws(CalibrationError) -> CeresRigRefinement {
        let guards = cameras.indices.map { $0 < guards.count ? guards[$0] : nil }
        let models = cameras.map { cModel($0.model) }
        let counts = models.map { Int(mcer_model_intrinsic_count($0)) }
        let initial = cameras.map { [$0.fx, $0.fy, $0.cx, $0.cy] + $0.distortion }
        guard zip(initial, counts).allSatisfy({ $0.count == $1 }), cameraRotations.count == cameras.count,
              cameraTranslations.count == cameras.count, setRotations.count == setTranslations.count
        else {
            throw .openCV("rig refinement: the cameras' intrinsics or poses do not match their models")
        }
        let flatInitial = initial.flatMap { $0 }
        var offsets: [Int] = [], offset = 0
        for count in counts {
            offsets.append(offset)
            offset += count
        }
        let pointCounts = observations.map { Int32($0.view.points.count) }
        let observationCameras = observations.map { Int32($0.camera) }
        let observationSets = observations.map { Int32($0.set) }
        let objects = observations.flatMap { $0.view.points.flatMap { [$0.object.x, $0.object.y, $0.object.z] } }
        let images = observations.flatMap { $0.view.points.flatMap { [$0.image.x, $0.image.y] } }
        let points = images.count / 2
        let cameraCount = cameras.count, setCount = setRotations.count
        var intrinsics = [Double](repeating: 0, count: offset)
        var covariance = [Double](repeating: 0, count: counts.reduce(0) { $0 + $1 * $1 })
        var outCameraRotations = [Double](repeating: 0, count: 3 * cameraCount)
        var outCameraTranslations = [Double](repeating: 0, count: 3 * cameraCount)
        var cameraCovariance = [Double](repeating: 0, count: 36 * cameraCount)
        var outSetRotations = [Double](repeating: 0, count: 3 * setCount)
        var outSetTranslations = [Double](repeating: 0, count: 3 * setCount)
        var projected = [Double](repeating: 0, count: 2 * points)
        var kept = [UInt8](repeating: 0, count: points)
        var cameraRMS = [Double](repeating: 0, count: cameraCount)
        var thresholds = [Double](repeating: 0, count: cameraCount)
        var cSettings = mcer_settings(
            loss_scale: settings.lossScale, drop_sigmas: settings.dropSigmas, drop_floor: settings.dropFloor,
            regularization: settings.regularization, rounds: Int32(settings.rounds), hold_distortion: 0,
            skip_covariance: computesCovariance ? 0 : 1, rational_weights: nil, guard_weight: settings.guardWeight,
            guard_inner: 0, guard_outer: 0, guard_scale: 0, starts_beside_minimum: settings.startsBesideMinimum ? 1 : 0)
        var error = shim_error()
        var scalars = mcer_rig_solution()
        let weights = settings.rationalWeights ?? []
        let inputs = [
            cameraRotations.flatMap { $0 }, cameraTranslations.flatMap { $0 }, setRotations.flatMap { $0 },
            setTranslations.flatMap { $0 }, objects, images,
        ]
        let status = weights.withUnsafeBufferPointer { weights in
        cSettings.rational_weights = settings.rationalWeights == nil ? nil : weights.baseAddress
        return flatInitial.withUnsafeBufferPointer { initialBuffer in
            let descriptions = (0..<cameraCount).map { index in
                mcer_rig_camera(
                    model: models[index], initial_intrinsics: initialBuffer.baseAddress! + offsets[index],
                    hold_distortion: holdsDistortion[index] ? 1 : 0, guard_inner: guards[index]?.inner ?? 0,
                    guard_outer: guards[index]?.outer ?? 0, guard_scale: guards[index]?.scale ?? 0)
            }
            return descriptions.withUnsafeBufferPointer { descriptions in
                inputs[0].withUnsafeBufferPointer { cameraR in
                    inputs[1].withUnsafeBufferPointer { cameraT in
                        inputs[2].withUnsafeBufferPointer { setR in
                            inputs[3].withUnsafeBufferPointer { setT in
                                inputs[4].withUnsafeBufferPointer { objects in
                                    inputs[5].withUnsafeBufferPointer { images in
                                        pointCounts.withUnsafeBufferPointer { pointCounts in
                                            observationCameras.withUnsafeBufferPointer { observationCameras in
                                                observationSets.withUnsafeBufferPointer { observationSets in
                                                    var problem = mcer_rig_problem(
                                                        camera_count: cameraCount, cameras: descriptions.baseAddress,
                                                        initial_camera_rotations: cameraR.baseAddress,
                                                        initial_camera_translations: cameraT.baseAddress,
                                                        set_count: setCount, initial_set_rotations: setR.baseAddress,
                                                        initial_set_translations: setT.baseAddress,
                                                        observation_count: observations.count,
                                                        observation_cameras: observationCameras.baseAddress,
                                                        observation_sets: observationSets.baseAddress,
                                                        point_counts: pointCounts.baseAddress,
                                                        object_points: objects.baseAddress, image_points: images.baseAddress,
                                                        hold_intrinsics: holdsIntrinsics ? 1 : 0)
                                                    return solveRig(
                                                        &problem, &cSettings, &scalars, &error, &intrinsics, &covariance,
                                                        &outCameraRotations, &outCameraTranslations, &cameraCovariance,
                                                        &outSetRotations, &outSetTranslations, &projected, &kept, &cameraRMS,
                                                        &thresholds)
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        }
        guard status == .SHIM_STATUS_OK else { throw CalibrationError(ShimFailure(error)) }
        var perProjected: [[ImagePoint]] = [], perKept: [[Bool]] = []
        var first = 0
        for observation in observations {
            let range = first..<(first + observation.view.points.count)
            perProjected.append(range.map { ImagePoint(x: projected[2 * $0], y: projected[2 * $0 + 1]) })
            perKept.append(range.map { kept[$0] != 0 })
            first += observation.view.points.count
        }
        var covarianceOffset = 0
        var perCovariance: [[[Double]]] = []
        for count in counts {
            perCovariance.append((0..<count).map { row in
                Array(covariance[(covarianceOffset + row * count)..<(covarianceOffset + (row + 1) * count)])
            })
            covarianceOffset += count * count
        }
        func triples(_ values: [Double]) -> [[Double]] { stride(from: 0, to: values.count, by: 3).map { Array(values[$0..<($0 + 3)]) } }
        return CeresRigRefinement(
            intrinsics: (0..<cameraCount).map { Array(intrinsics[offsets[$0]..<(offsets[$0] + counts[$0])]) },
            covariance: perCovariance, cameraRotations: triples(outCameraRotations),
            cameraTranslations: triples(outCameraTranslations),
            cameraCovariance: (0..<cameraCount).map { camera in
                (0..<6).map { row in Array(cameraCovariance[(36 * camera + 6 * row)..<(36 * camera + 6 * row + 6)]) }
            },
            setRotations: triples(outSetRotations), setTranslations: triples(outSetTranslations),
            projected: perProjected, kept: perKept, cameraRMS: cameraRMS, dropThresholds: thresholds, rms: scalars.rms,
            sigma: scalars.sigma, degreesOfFreedom: Int(scalars.degrees_of_freedom))
    }

    /// Calls mcer_rig_refine with the solution's arrays.
    private static func solveRig(
        _ problem: inout mcer_rig_problem, _ settings: inout mcer_settings, _ scalars: inout mcer_rig_solution,
        _ error: inout shim_error, _ intrinsics: inout [Double], _ covariance: inout [Double],
        _ cameraRotations: inout [Double], _ cameraTranslations: inout [Double], _ cameraCovariance: inout [Double],
        _ setRotations: inout [Double], _ setTranslations: inout [Double], _ projected: inout [Double],
        _ kept: inout [UInt8], _ cameraRMS: inout [Double], _ thresholds: inout [Double]
    ) -> shim_status {
        intrinsics.withUnsafeMutableBufferPointer { intrinsics in
            covariance.withUnsafeMutableBufferPointer { covariance in
                cameraRotations.withUnsafeMutableBufferPointer { cameraRotations in
                    cameraTranslations.withUnsafeMutableBufferPointer { cameraTranslations in
                        cameraCovariance.withUnsafeMutableBufferPointer { cameraCovariance in
                            setRotations.withUnsafeMutableBufferPointer { setRotations in
                                setTranslations.withUnsafeMutableBufferPointer { setTranslations in
                                    projected.withUnsafeMutableBufferPointer { projected in
                                        kept.withUnsafeMutableBufferPointer { kept in
                                            cameraRMS.withUnsafeMutableBufferPointer { cameraRMS in
                                                thresholds.withUnsafeMutableBufferPointer { thresholds in
                                                    var solution = mcer_rig_solution()
                                                    solution.intrinsics = intrinsics.baseAddress
                                                    solution.covariance = covariance.baseAddress
                                                    solution.camera_rotations = cameraRotations.baseAddress
                                                    solution.camera_translations = cameraTranslations.baseAddress
                                                    solution.camera_covariance = cameraCovariance.baseAddress
                                                    solution.set_rotations = setRotations.baseAddress
                                                    solution.set_translations = setTranslations.baseAddress
                                                    solution.projected = projected.baseAddress
                                                    solution.kept = kept.baseAddress
                                                    solution.camera_rms = cameraRMS.baseAddress
                                                    solution.drop_thresholds = thresholds.baseAddress
                                                    let status = mcer_rig_refine(&problem, &settings, &solution, &error)
                                                    scalars = solution
                                                    return status
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
