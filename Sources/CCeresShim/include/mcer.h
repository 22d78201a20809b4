/*
 * mcer: marker-shutter refinement, a C interface over Ceres Solver: a rig of cameras (each its own
 * model, intrinsics and distortion), the pose of every camera but the first relative to the first,
 * and one target pose per set of pictures taken together, refined over all corners of planar
 * target views, with a robust per-corner loss, corners that fit far worse than the rest dropped,
 * light regularisation of the higher distortion terms, and the covariance of every camera's
 * intrinsics and pose with the target poses marginalised out. One camera is the rig of one camera
 * whose every view is a set of its own (mcer_refine).
 *
 * Conventions:
 * - CShimCore.h's, as in every shim of the package: every function returns a shim_status and
 *   writes results through out-parameters; when it fails and `error` is not NULL, `*error` says
 *   why, with the area SHIM_AREA_CALIBRATION (the refinement is part of the calibration):
 *   SHIM_STATUS_INVALID_ARGUMENT for what it refuses, SHIM_STATUS_LIBRARY_ERROR when Ceres found
 *   no usable solution or the covariance could not be computed (the views do not determine every
 *   parameter), SHIM_STATUS_OUT_OF_MEMORY, SHIM_STATUS_INTERNAL_ERROR. No C++ exception leaves a call.
 * - Coordinates and models are OpenCV's: x to the right, y down, the centre of the top-left pixel
 *   at (0, 0); distortion coefficients in OpenCV's order; rotations as Rodrigues (angle-axis)
 *   vectors taking target points into the camera's frame.
 * - Every array is the caller's: the call reads the problem's and fills the solution's.
 */
#ifndef MCER_H
#define MCER_H

#include <stddef.h>
#include <stdint.h>

#include "CShimCore.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The lens models, with their intrinsics in this order: fx fy cx cy, then the distortion. */
typedef enum mcer_model {
    /* k1 k2 p1 p2 k3 (cv::projectPoints with 5 coefficients): 9 intrinsics. */
    MCER_MODEL_PINHOLE = 0,
    /* k1 k2 p1 p2 k3 k4 k5 k6 (the rational model): 12 intrinsics. */
    MCER_MODEL_RATIONAL = 1,
    /* Kannala-Brandt k1 k2 k3 k4 (cv::fisheye::projectPoints, no skew): 8 intrinsics. */
    MCER_MODEL_FISHEYE = 2,
    /* MCER_MODEL_PINHOLE with k3 held at its initial value (0): 9 intrinsics, 8 of them refined
     * (Kalibr's pinhole-radtan); its covariance row and column are 0, and it is not regularized. */
    MCER_MODEL_PINHOLE_RADTAN = 3,
} mcer_model;

/* The most intrinsics any model has. */
#define MCER_MAX_INTRINSICS 12

/* How the refinement treats corners and coefficients.
 * - `loss_scale`: the Huber loss's scale in pixels; a corner's squared error counts in full up to
 *   it and grows only linearly beyond, in the first, robust solve.
 * - `drop_sigmas`, `drop_floor`: after a solve, a corner whose reprojection error exceeds
 *   `drop_sigmas` robust standard deviations (1.4826 times the median absolute residual over the
 *   x and y residuals of every corner), and at least `drop_floor` pixels, is dropped, and the kept
 *   corners are solved again by plain least squares; repeated until no corner changes side, at most
 *   `rounds` times.
 * - `regularization`: each higher distortion coefficient (k3 of the pinhole model, k3 to k6 of the
 *   rational one, k3 and k4 of the fisheye one) adds a residual `regularization * coefficient`,
 *   in pixels, pulling it towards 0 where the corners say little about it.
 * - `hold_distortion`: when nonzero, the distortion coefficients keep their initial values (only
 *   fx fy cx cy and the poses are refined; no regularization; their covariance is 0).
 * - `skip_covariance`: when nonzero, no covariance is computed (a solve whose spread alone is
 *   wanted): the solution's covariance blocks are 0 and its `full_covariance` must be NULL.
 * - `rational_weights`: when not NULL, 8 weights, one per distortion coefficient of the rational
 *   model in its order (k1 k2 p1 p2 k3 k4 k5 k6), each adding the residual `weight * coefficient`
 *   in place of `regularization` on k3 to k6 (a weight of 0 adds none).
 * - `guard_weight`: when positive, a camera whose guard radii are set (mcer_rig_camera, or
 *   `guard_inner` and `guard_outer` here for mcer_refine) gets residuals that keep its radial
 *   mapping r -> r x radial(r) from folding or bending away where no corner is: at radii between
 *   the corners' farthest (`guard_inner`, as tan of the angle off the axis) and the image corners'
 *   (`guard_outer`), its slope below 0.1 and its second difference over each step, in pixels at
 *   `guard_scale` pixels per unit (the focal length), `guard_weight` times each.
 * With `loss_scale` 0 the first solve is already plain least squares, and it is not repeated when
 * no corner is dropped. */
typedef struct mcer_settings {
    double loss_scale;
    double drop_sigmas;
    double drop_floor;
    double regularization;
    int32_t rounds;
    int32_t hold_distortion;
    int32_t skip_covariance;
    const double *rational_weights;
    double guard_weight;
    double guard_inner;
    double guard_outer;
    double guard_scale;
    /* Nonzero: the first solve starts beside its minimum (the corners of a solve already made,
     * some views left out), and Levenberg-Marquardt's first steps are left undamped. Ceres's first
     * trust-region radius, 1e4, damps every step, and such a solve creeps to its minimum in 5 steps
     * where undamped ones take 2. The drop-and-solve rounds after the first start from the round
     * before, and always start so. */
    int32_t starts_beside_minimum;
} mcer_settings;

/* Views of a planar target, as in mcal_problem, with the starting point of the refinement:
 * `initial_intrinsics` (as many as the model has), and per view a rotation and a translation
 * (3 doubles each). */
typedef struct mcer_problem {
    mcer_model model;
    size_t view_count;
    const int32_t *point_counts;
    const double *object_points;
    const double *image_points;
    const double *initial_intrinsics;
    const double *initial_rotations;
    const double *initial_translations;
} mcer_problem;

/* What the refinement found, into the caller's arrays:
 * - `intrinsics` (as many as the model has) and `covariance` (that count squared, row by row):
 *   sigma^2 times the intrinsics' block of (J^T J)^-1 over intrinsics and poses
 *   (ceres::Covariance), where sigma^2 = (sum of the kept corners' squared errors) /
 *   (2 x kept corners - refined intrinsics - 6 x views);
 * - `rotations`, `translations`: 3 doubles per view;
 * - `projected`: where the refined camera projects every corner, 2 doubles per corner;
 * - `kept`: 1 per corner, 1 when it took part in the final solve, 0 when it was dropped;
 * and the scalars below. */
typedef struct mcer_solution {
    double *intrinsics;
    double *covariance;
    double *rotations;
    double *translations;
    double *projected;
    uint8_t *kept;
    /* Optional (NULL: not computed): the covariance over the intrinsics and every view's pose,
     * (intrinsics + 6 x views) squared doubles, row by row, in the order intrinsics, then per view
     * its rotation (3) and translation (3); sigma^2 times (J^T J)^-1 as for `covariance`, whose
     * block it contains. Held distortion coefficients have 0 rows and columns. */
    double *full_covariance;
    /* Root mean square reprojection error over the kept corners, in pixels. */
    double rms;
    /* sqrt(sigma^2) above, in pixels. */
    double sigma;
    /* The drop threshold of the last round, in pixels. */
    double drop_threshold;
    size_t kept_count;
    /* 2 x kept corners - refined intrinsics - 6 x views. */
    int64_t degrees_of_freedom;
    /* Solves run (the robust one included). */
    int32_t solves;
} mcer_solution;

/* The number of intrinsics of `model` (9, 12 or 8), or 0 for an unknown model. */
int32_t mcer_model_intrinsic_count(mcer_model model);

/* Refines `problem` with `settings` into `solution`: the rig of one camera (mcer_rig_refine), every
 * view a set of its own. */
shim_status mcer_refine(const mcer_problem *problem, const mcer_settings *settings, mcer_solution *solution,
                        shim_error *error);

/* One camera of a rig: its model, where its refinement starts (as many intrinsics as the model
 * has), and whether its distortion coefficients keep their initial values (as `hold_distortion` of
 * mcer_settings, for this camera alone). */
typedef struct mcer_rig_camera {
    mcer_model model;
    const double *initial_intrinsics;
    int32_t hold_distortion;
    /* The guard's radii and scale for this camera (mcer_settings' `guard_weight`); 0: no guard. */
    double guard_inner;
    double guard_outer;
    double guard_scale;
} mcer_rig_camera;

/* A rig's views of a planar target.
 * - `cameras`: `camera_count` cameras; camera 0 is the reference, at the origin.
 * - `initial_camera_rotations`, `initial_camera_translations`: 3 doubles per camera, the pose taking
 *   a point of camera 0's frame into that camera's frame (camera 0's are read and ignored).
 * - `initial_set_rotations`, `initial_set_translations`: 3 doubles per set, the target's pose in
 *   camera 0's frame (whether or not camera 0 saw the set).
 * - `observation_count` observations, each one camera's view of one set: its camera
 *   (`observation_cameras`), its set (`observation_sets`) and its points (`point_counts`, at least
 *   4 each; `object_points` 3 doubles and `image_points` 2 doubles per point, observation after
 *   observation).
 * - `hold_intrinsics`: when nonzero, every camera's intrinsics keep their initial values (only
 *   the camera and target poses are refined; their covariance is 0). */
typedef struct mcer_rig_problem {
    size_t camera_count;
    const mcer_rig_camera *cameras;
    const double *initial_camera_rotations;
    const double *initial_camera_translations;
    size_t set_count;
    const double *initial_set_rotations;
    const double *initial_set_translations;
    size_t observation_count;
    const int32_t *observation_cameras;
    const int32_t *observation_sets;
    const int32_t *point_counts;
    const double *object_points;
    const double *image_points;
    int32_t hold_intrinsics;
} mcer_rig_problem;

/* What the rig refinement found, into the caller's arrays:
 * - `intrinsics`: each camera's, one camera after another (as many as its model has);
 * - `covariance`: each camera's intrinsics' covariance (its count squared, row by row), one camera
 *   after another: sigma^2 times the camera's block of (J^T J)^-1 over every parameter;
 * - `camera_rotations`, `camera_translations`: 3 doubles per camera (camera 0's are 0);
 * - `camera_covariance`: 36 doubles per camera, the covariance of (rotation, translation) of its
 *   pose, row by row (camera 0's are 0);
 * - `set_rotations`, `set_translations`: 3 doubles per set;
 * - `projected`, `kept`: per point, as in mcer_solution;
 * - `camera_rms`, `drop_thresholds`: one per camera: the RMS reprojection error over its kept
 *   corners, and its corner drop threshold of the last round (the drop rule runs camera by camera);
 * - `full_covariance`, optional (NULL: not computed): the covariance over every camera's
 *   intrinsics (camera after camera), every camera's pose but the first's (rotation 3,
 *   translation 3) and every set's target pose (rotation 3, translation 3), in that order, row by
 *   row; the blocks above are parts of it. For one camera it is mcer_solution's `full_covariance`.
 * - sigma^2 = (sum of the kept corners' squared errors) / (2 x kept corners - refined intrinsics -
 *   6 x (cameras - 1) - 6 x sets), over the whole rig. */
typedef struct mcer_rig_solution {
    double *intrinsics;
    double *covariance;
    double *camera_rotations;
    double *camera_translations;
    double *camera_covariance;
    double *set_rotations;
    double *set_translations;
    double *projected;
    uint8_t *kept;
    double *camera_rms;
    double *drop_thresholds;
    double *full_covariance;
    double rms;
    double sigma;
    size_t kept_count;
    int64_t degrees_of_freedom;
    int32_t solves;
} mcer_rig_solution;

/* Refines the rig `problem` with `settings` (its `hold_distortion` is ignored: each camera says its
 * own) into `solution`. */
shim_status mcer_rig_refine(const mcer_rig_problem *problem, const mcer_settings *settings,
                            mcer_rig_solution *solution, shim_error *error);

#ifdef __cplusplus
}
#endif

#endif /* MCER_H */
