/*
 * mcal: marker-shutter calibration, a C interface over OpenCV 4.6's calib3d (camera calibration,
 * projection, undistortion) and imgproc (drawing on caller-owned pixels).
 *
 * Conventions (as in COpenCVShim.h):
 * - Every function returns a shim_status and writes results through out-parameters. When it
 *   fails and `error` is not NULL, `*error` says why. No C++ exception leaves a call.
 * - A solution is an opaque handle freed with mcal_solution_free, which accepts NULL.
 * - Coordinates are OpenCV's: x to the right, y down, the centre of the top-left pixel at (0, 0).
 */
#ifndef C_CALIBRATION_SHIM_H
#define C_CALIBRATION_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "CShimCore.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MARK: - Camera models */

typedef enum mcal_model {
    /* cv::calibrateCamera with standard deviations (calibrateCameraExtended): k1 k2 p1 p2 k3. */
    MCAL_MODEL_PINHOLE = 0,
    /* The same with CALIB_RATIONAL_MODEL: k1 k2 p1 p2 k3 k4 k5 k6. */
    MCAL_MODEL_RATIONAL = 1,
    /* cv::fisheye::calibrate (Kannala-Brandt, k1 k2 k3 k4), skew fixed at 0. */
    MCAL_MODEL_FISHEYE = 2,
    /* MCAL_MODEL_PINHOLE with k3 held at 0 (CALIB_FIX_K3): k1 k2 p1 p2, written as 5 coefficients
     * whose fifth is 0 (Kalibr's pinhole-radtan, mrcal's LENSMODEL_OPENCV4). */
    MCAL_MODEL_PINHOLE_RADTAN = 3,
} mcal_model;

/* The most distortion coefficients any model has. */
#define MCAL_MAX_DISTORTION 8

/* A camera: its matrix (row-major 3x3) and `distortion_count` coefficients in OpenCV's order. */
typedef struct mcal_camera {
    mcal_model model;
    double camera_matrix[9];
    int32_t distortion_count;
    double distortion[MCAL_MAX_DISTORTION];
} mcal_camera;

/* MARK: - Calibration */

/* Views of a planar target: view i has point_counts[i] points; object points are 3 doubles each
 * (z = 0), image points 2 doubles each, all views one after another. Nonzero `without_deviations`
 * says the solve is only a start (for a refinement that computes its own covariance): no standard
 * deviations are computed, and `intrinsic_std` is all 0 (OpenCV's come from inverting J^T J over
 * every view's pose, and the fisheye model's the same: 4 of the 13 billion instructions of a
 * 100-view fisheye solve). */
typedef struct mcal_problem {
    mcal_model model;
    int32_t image_width;
    int32_t image_height;
    size_t view_count;
    const int32_t *point_counts;
    const double *object_points;
    const double *image_points;
    int32_t without_deviations;
} mcal_problem;

typedef struct mcal_solution mcal_solution;

/* Solves for the camera and every view's pose. Pinhole models start from OpenCV's own initial
 * guess; the fisheye model uses CALIB_RECOMPUTE_EXTRINSIC | CALIB_FIX_SKEW. */
shim_status mcal_calibrate(const mcal_problem *problem, mcal_solution **solution, shim_error *error);

/* The closed-form start of a pinhole model's solve, for a refinement to start from (Zhang's
 * method): each view's homography from the target's plane (every object point at z = 0) to the
 * image; fx and fy from the linear equations those give (the target's axes perpendicular and of
 * equal length), with the principal point at the image's centre, (width - 1) / 2 and
 * (height - 1) / 2, as OpenCV's own initial guess; each view's pose from its points through that
 * camera (cv::solvePnP, SOLVEPNP_IPPE); every distortion coefficient 0. Views that do not fix
 * both focal lengths give one for both axes, and failing that max(width, height). Read as a
 * solution (mcal_solution_view_get), whose `intrinsic_std` are all 0. Refuses the fisheye model,
 * whose projection no homography follows far from the centre. */
shim_status mcal_initialize(const mcal_problem *problem, mcal_solution **solution, shim_error *error);

/* What a solve found; the arrays stay valid until mcal_solution_free.
 * - `rms`: the root mean square reprojection error over all points (OpenCV's return value).
 * - `intrinsic_std`: standard deviations of fx, fy, cx, cy and then each distortion coefficient,
 *   4 + camera.distortion_count values (for the fisheye model from the same Gauss-Newton
 *   covariance OpenCV uses for pinhole models: sigma^2 (J^T J)^-1 over intrinsics and poses).
 * - per view: `view_rms`, `rotations` and `translations` (3 each, Rodrigues vector and
 *   translation), and `projected_points` (2 per point, in the problem's order). */
typedef struct mcal_solution_view {
    double rms;
    mcal_camera camera;
    double intrinsic_std[4 + MCAL_MAX_DISTORTION];
    size_t view_count;
    const double *view_rms;
    const double *rotations;
    const double *translations;
    size_t point_count;
    const double *projected_points;
} mcal_solution_view;

shim_status mcal_solution_view_get(const mcal_solution *solution, mcal_solution_view *view, shim_error *error);
void mcal_solution_free(mcal_solution *solution);

/* Projects `count` points given in camera coordinates (3 doubles each, z > 0) through `camera`
 * into `image_points` (2 doubles each). */
shim_status mcal_points_project(const mcal_camera *camera, const double *camera_points, size_t count,
                                double *image_points, shim_error *error);

/* Turns `count` image points (2 doubles each) into normalized ideal coordinates (x/z, y/z) under
 * `camera` (cv::undistortPoints or cv::fisheye::undistortPoints). */
shim_status mcal_points_undistort(const mcal_camera *camera, const double *image_points, size_t count,
                                  double *normalized_points, shim_error *error);

/* MARK: - Stereo rectification */

/* The rectification of a pair (cv::stereoRectify, or cv::fisheye::stereoRectify, with
 * CALIB_ZERO_DISPARITY and alpha 0: every rectified pixel sees something, for the first camera's
 * `width` x `height`): `rotation` (row-major 3x3) and `translation` take a point of the first
 * camera's frame into the second's. Writes `r1`, `r2` (3x3), `p1`, `p2` (3x4) and `q` (4x4), row by row. */
shim_status mcal_stereo_rectify(const mcal_camera *first, const mcal_camera *second, int32_t width, int32_t height,
                                const double *rotation, const double *translation, double *r1, double *r2,
                                double *p1, double *p2, double *q, shim_error *error);

/* Where `count` image points (2 doubles each) of `camera` fall in its rectified picture, under the
 * rectification `rectification` (3x3) and `projection` (3x4) (cv::undistortPoints with R and P, or
 * the fisheye one). */
shim_status mcal_points_rectify(const mcal_camera *camera, const double *rectification, const double *projection,
                                const double *image_points, size_t count, double *rectified_points, shim_error *error);

/* MARK: - Pixels (shim_pixels: GRAY8 or BGR24) */

/* Writes into `destination` (same size and format as `source`) the picture `camera` would have
 * taken without distortion, keeping the camera matrix (cv::undistort, or
 * cv::fisheye::undistortImage). Pixels that see nothing are black. */
shim_status mcal_image_undistort(const shim_pixels *source, const mcal_camera *camera, const shim_pixels *destination,
                                 shim_error *error);

/* Writes into `destination` (of the rectified picture's size, the format of `source`) `camera`'s
 * picture `source` rectified by `rectification` (3x3) and `projection` (3x4)
 * (cv::initUndistortRectifyMap and cv::remap, or the fisheye ones). Pixels that see nothing are black. */
shim_status mcal_image_rectify(const shim_pixels *source, const mcal_camera *camera, const double *rectification,
                               const double *projection, const shim_pixels *destination, shim_error *error);

/* MARK: - Drawing on caller-owned BGR24 pixels, written in place */

typedef struct mcal_color {
    uint8_t blue;
    uint8_t green;
    uint8_t red;
} mcal_color;

/* A line, antialiased; `arrow` nonzero puts an arrow head at (x1, y1). */
shim_status mcal_draw_line(const shim_pixels *canvas, double x0, double y0, double x1, double y1, mcal_color color,
                           int32_t thickness, int32_t arrow, shim_error *error);
/* A rectangle from (x0, y0) to (x1, y1); `thickness` < 0 fills it. */
shim_status mcal_draw_rectangle(const shim_pixels *canvas, double x0, double y0, double x1, double y1,
                                mcal_color color, int32_t thickness, shim_error *error);
/* A circle; `thickness` < 0 fills it. */
shim_status mcal_draw_circle(const shim_pixels *canvas, double x, double y, double radius, mcal_color color,
                             int32_t thickness, shim_error *error);
/* ASCII text with its baseline starting at (x, y), in OpenCV's simplex font at `scale`. */
shim_status mcal_draw_text(const shim_pixels *canvas, const char *text, double x, double y, double scale,
                           mcal_color color, int32_t thickness, shim_error *error);

/* MARK: - OpenCV FileStorage documents */

/* Text made by the shim, freed with mcal_text_free (which accepts NULL). */
typedef struct mcal_text mcal_text;

/* Reads `count` bytes of an OpenCV FileStorage document (YAML with its %YAML directive, XML or
 * JSON, as cv::FileStorage reads them from memory) and writes its whole tree as JSON text into
 * `*json`: maps as objects (keys in the document's order), sequences as arrays, integers and reals
 * as numbers (a real that is not finite as null), strings as strings. A matrix
 * (`!!opencv-matrix`) is the map of its fields: rows, cols, dt, data. Nesting deeper than 64
 * levels is refused (SHIM_STATUS_INVALID_ARGUMENT), as is a document cv::FileStorage cannot read. */
shim_status mcal_storage_to_json(const char *bytes, size_t count, mcal_text **json, shim_error *error);
/* The text's bytes (NUL-terminated; `*count` without the NUL), valid until it is freed. */
shim_status mcal_text_get(const mcal_text *text, const char **data, size_t *count, shim_error *error);
void mcal_text_free(mcal_text *text);

#ifdef __cplusplus
}
#endif

#endif /* C_CALIBRATION_SHIM_H */
