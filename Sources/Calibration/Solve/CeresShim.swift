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
    private static func cModel(_ model: CameraModel) -> mcer_model {
        switch model {
        case .pinhole: MCER_MODEL_PINHOLE
        case .rational: MCER_MODEL_RATIONAL
        case .fisheye: MCER_MODEL_FISHEYE
        }
    }

    /// Refines `camera` and the views' poses over `views` (mcer_refine).
    static func refine(
        _ views: [CalibrationView], camera: Camera, rotations: [[Double]], translations: [[Double]],
        settings: CalibrationRefinement, fullCovariance: Bool = false
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
            hold_distortion: settings.holdsDistortion(of: camera.model) ? 1 : 0)
        var error = shim_error()
        var scalars = mcer_solution()
        let status = counts.withUnsafeBufferPointer { counts in
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
