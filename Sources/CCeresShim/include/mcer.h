/*
 * mcer: marker-shutter refinement, a C interface over Ceres Solver: one camera's intrinsics,
 * distortion and every view's pose refined over all corners of planar target views, with a robust
 * per-corner loss, corners that fit far worse than the rest dropped, light regularisation of the
 * higher distortion terms, and the intrinsics' covariance with the poses marginalised out.
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
 *   fx fy cx cy and the poses are refined; no regularization; their covariance is 0). */
typedef struct mcer_settings {
    double loss_scale;
    double drop_sigmas;
    double drop_floor;
    double regularization;
    int32_t rounds;
    int32_t hold_distortion;
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

/* Refines `problem` with `settings` into `solution`. */
shim_status mcer_refine(const mcer_problem *problem, const mcer_settings *settings, mcer_solution *solution,
                        shim_error *error);

#ifdef __cplusplus
}
#endif

#endif /* MCER_H */
