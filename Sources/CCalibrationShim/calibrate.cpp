// Camera calibration: cv::calibrateCamera with standard deviations (Python's calibrateCameraExtended)
// for pinhole models, cv::fisheye::calibrate for the
// fisheye model, with the fisheye model's uncertainties from its own projection Jacobian; and the
// closed-form start of the pinhole models (Zhang's method) that the refinement can start from instead.
#include "calibration.hpp"

#include <opencv2/calib3d.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

struct mcal_solution {
    double rms = 0;
    mcal_camera camera{};
    double intrinsic_std[4 + MCAL_MAX_DISTORTION] = {};
    std::vector<double> view_rms;
    std::vector<double> rotations;
    std::vector<double> translations;
    std::vector<double> projected;
};

namespace {

struct Views {
    std::vector<std::vector<cv::Point3f>> object;
    std::vector<std::vector<cv::Point2f>> image;
};

Views views_of(const mcal_problem &problem) {
    mcal::require(problem.point_counts, "problem->point_counts");
    mcal::require(problem.object_points, "problem->object_points");
    mcal::require(problem.image_points, "problem->image_points");
    if (problem.image_width < 1 || problem.image_height < 1) {
        mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "image size %dx%d", problem.image_width, problem.image_height);
    }
    if (problem.view_count == 0) mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "no views");
    Views views;
    size_t offset = 0;
    for (size_t view = 0; view < problem.view_count; ++view) {
        const int32_t count = problem.point_counts[view];
        if (count < 4) mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "view %zu has %d points; at least 4 are needed", view, count);
        std::vector<cv::Point3f> object;
        std::vector<cv::Point2f> image;
        for (int32_t point = 0; point < count; ++point, ++offset) {
            const double *o = problem.object_points + 3 * offset;
            const double *i = problem.image_points + 2 * offset;
            object.emplace_back(float(o[0]), float(o[1]), float(o[2]));
            image.emplace_back(float(i[0]), float(i[1]));
        }
        views.object.push_back(std::move(object));
        views.image.push_back(std::move(image));
    }
    return views;
}

// Projects every view through the solved camera, and fills the per-view and overall RMS.
void project_all(const Views &views, const cv::Mat &K, const cv::Mat &D, mcal_model model,
                 const std::vector<cv::Mat> &rvecs, const std::vector<cv::Mat> &tvecs, mcal_solution &solution) {
    double total = 0;
    size_t points = 0;
    for (size_t view = 0; view < views.object.size(); ++view) {
        std::vector<cv::Point2d> projected;
        std::vector<cv::Point3d> object(views.object[view].begin(), views.object[view].end());
        if (model == MCAL_MODEL_FISHEYE) {
            cv::fisheye::projectPoints(object, projected, rvecs[view], tvecs[view], K, D);
        } else {
            cv::projectPoints(object, rvecs[view], tvecs[view], K, D, projected);
        }
        double sum = 0;
        for (size_t point = 0; point < projected.size(); ++point) {
            const double dx = projected[point].x - views.image[view][point].x;
            const double dy = projected[point].y - views.image[view][point].y;
            sum += dx * dx + dy * dy;
            solution.projected.push_back(projected[point].x);
            solution.projected.push_back(projected[point].y);
        }
        solution.view_rms.push_back(std::sqrt(sum / double(projected.size())));
        total += sum;
        points += projected.size();
        for (int axis = 0; axis < 3; ++axis) {
            solution.rotations.push_back(rvecs[view].at<double>(axis));
            solution.translations.push_back(tvecs[view].at<double>(axis));
        }
    }
    solution.rms = std::sqrt(total / double(points));
}

// sigma^2 (J^T J)^-1 over fx fy cx cy k1..k4 and six pose parameters per view, as OpenCV computes
// the pinhole models' standard deviations; only the intrinsic part is kept.
void fisheye_uncertainty(const Views &views, const cv::Mat &K, const cv::Mat &D, const std::vector<cv::Mat> &rvecs,
                         const std::vector<cv::Mat> &tvecs, mcal_solution &solution) {
    const int intrinsics = 8;
    const int parameters = intrinsics + 6 * int(views.object.size());
    cv::Mat normal = cv::Mat::zeros(parameters, parameters, CV_64F);
    double squared = 0;
    size_t equations = 0;
    for (size_t view = 0; view < views.object.size(); ++view) {
        std::vector<cv::Point3d> object(views.object[view].begin(), views.object[view].end());
        std::vector<cv::Point2d> projected;
        cv::Mat jacobian;
        cv::fisheye::projectPoints(object, projected, rvecs[view], tvecs[view], K, D, 0, jacobian);
        // Columns: f (2), c (2), k (4), rotation (3), translation (3), skew (1).
        cv::Mat intrinsic = jacobian.colRange(0, 8);
        cv::Mat pose = jacobian.colRange(8, 14);
        const int at = intrinsics + 6 * int(view);
        normal(cv::Rect(0, 0, 8, 8)) += intrinsic.t() * intrinsic;
        cv::Mat cross = intrinsic.t() * pose;
        normal(cv::Rect(at, 0, 6, 8)) += cross;
        normal(cv::Rect(0, at, 8, 6)) += cross.t();
        normal(cv::Rect(at, at, 6, 6)) += pose.t() * pose;
        for (size_t point = 0; point < projected.size(); ++point) {
            const double dx = projected[point].x - views.image[view][point].x;
            const double dy = projected[point].y - views.image[view][point].y;
            squared += dx * dx + dy * dy;
        }
        equations += 2 * projected.size();
    }
    if (equations <= size_t(parameters)) return;  // no redundancy: standard deviations stay 0
    const double sigma2 = squared / double(equations - size_t(parameters));
    cv::Mat covariance;
    cv::invert(normal, covariance, cv::DECOMP_SVD);
    for (int index = 0; index < intrinsics; ++index) {
        // A negative variance (a problem the views do not determine) is passed on as NaN, for the
        // caller to refuse, rather than hidden as a standard deviation of 0.
        const double variance = covariance.at<double>(index, index) * sigma2;
        solution.intrinsic_std[index] = variance >= 0 ? std::sqrt(variance) : std::numeric_limits<double>::quiet_NaN();
    }
}

void solve(const mcal_problem &problem, mcal_solution &solution) {
    const Views views = views_of(problem);
    const cv::Size size(problem.image_width, problem.image_height);
    cv::Mat K, D;
    std::vector<cv::Mat> rvecs, tvecs;
    solution.camera.model = problem.model;
    switch (problem.model) {
    case MCAL_MODEL_PINHOLE:
    case MCAL_MODEL_PINHOLE_RADTAN:
    case MCAL_MODEL_RATIONAL: {
        const int flags = problem.model == MCAL_MODEL_RATIONAL          ? cv::CALIB_RATIONAL_MODEL
                          : problem.model == MCAL_MODEL_PINHOLE_RADTAN ? cv::CALIB_FIX_K3
                                                                        : 0;
        if (problem.without_deviations) {
            cv::calibrateCamera(views.object, views.image, size, K, D, rvecs, tvecs, flags);
            break;
        }
        cv::Mat std_intrinsics, std_extrinsics, per_view;
        cv::calibrateCamera(views.object, views.image, size, K, D, rvecs, tvecs, std_intrinsics,
                                    std_extrinsics, per_view, flags);
        const int count = problem.model == MCAL_MODEL_RATIONAL ? 8 : 5;
        // stdDeviationsIntrinsics: fx fy cx cy k1 k2 p1 p2 k3 k4 k5 k6 s1..s4 taux tauy.
        for (int index = 0; index < 4 + count; ++index) solution.intrinsic_std[index] = std_intrinsics.at<double>(index);
        break;
    }
    case MCAL_MODEL_FISHEYE: {
        std::vector<cv::Mat> object, image;
        for (size_t view = 0; view < views.object.size(); ++view) {
            object.push_back(cv::Mat(views.object[view], true).reshape(3, 1));
            image.push_back(cv::Mat(views.image[view], true).reshape(2, 1));
        }
        cv::Mat K64, D64;
        const int flags = cv::fisheye::CALIB_RECOMPUTE_EXTRINSIC | cv::fisheye::CALIB_FIX_SKEW;
        cv::fisheye::calibrate(object, image, size, K64, D64, rvecs, tvecs, flags,
                               cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, DBL_EPSILON));
        K = K64;
        D = D64;
        break;
    }
    default:
        mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown model %d", int(problem.model));
    }
    K.convertTo(K, CV_64F);
    D.convertTo(D, CV_64F);
    std::vector<cv::Mat> rotations, translations;
    for (size_t view = 0; view < rvecs.size(); ++view) {
        cv::Mat r, t;
        rvecs[view].convertTo(r, CV_64F);
        tvecs[view].convertTo(t, CV_64F);
        rotations.push_back(r.reshape(1, 3));
        translations.push_back(t.reshape(1, 3));
    }
    for (int index = 0; index < 9; ++index) solution.camera.camera_matrix[index] = K.at<double>(index / 3, index % 3);
    const int count = int(D.total());
    solution.camera.distortion_count = std::min(count, problem.model == MCAL_MODEL_RATIONAL ? 8 : problem.model == MCAL_MODEL_FISHEYE ? 4 : 5);
    for (int index = 0; index < solution.camera.distortion_count; ++index) {
        solution.camera.distortion[index] = D.ptr<double>()[index];
    }
    cv::Mat Dused(1, solution.camera.distortion_count, CV_64F, solution.camera.distortion);
    project_all(views, K, Dused, problem.model, rotations, translations, solution);
    if (problem.model == MCAL_MODEL_FISHEYE && !problem.without_deviations) {
        fisheye_uncertainty(views, K, Dused, rotations, translations, solution);
    }
}

// The closed-form start (Zhang's method, with the principal point held at the image's centre as
// OpenCV's own initial guess holds it): each view's homography from the board's plane to the image
// gives two linear equations in 1/fx^2 and 1/fy^2 (the board's two axes are perpendicular and of
// equal length); their least-squares solution gives fx and fy, and each view's pose then follows
// from its points (OpenCV's IPPE, the planar pose from the homography). No distortion.
void initialize(const mcal_problem &problem, mcal_solution &solution) {
    if (problem.model == MCAL_MODEL_FISHEYE) {
        mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "the closed-form start is for the pinhole models; a fisheye solve starts from cv::fisheye::calibrate");
    }
    if (problem.model != MCAL_MODEL_PINHOLE && problem.model != MCAL_MODEL_PINHOLE_RADTAN &&
        problem.model != MCAL_MODEL_RATIONAL) {
        mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown model %d", int(problem.model));
    }
    const Views views = views_of(problem);
    const double cx = (problem.image_width - 1) / 2.0, cy = (problem.image_height - 1) / 2.0;
    std::vector<cv::Matx33d> homographies;
    std::vector<std::vector<cv::Point3d>> objects;
    std::vector<std::vector<cv::Point2d>> images;
    size_t offset = 0;
    for (size_t view = 0; view < problem.view_count; ++view) {
        std::vector<cv::Point2d> plane;
        std::vector<cv::Point3d> object;
        std::vector<cv::Point2d> image;
        for (int32_t point = 0; point < problem.point_counts[view]; ++point, ++offset) {
            const double *o = problem.object_points + 3 * offset;
            const double *i = problem.image_points + 2 * offset;
            if (o[2] != 0) {
                mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "view %zu: the target's points must lie in its plane z = 0, not z = %g",
                           view, o[2]);
            }
            plane.emplace_back(o[0], o[1]);
            object.emplace_back(o[0], o[1], 0.0);
            image.emplace_back(i[0], i[1]);
        }
        const cv::Mat found = cv::findHomography(plane, image, 0);
        if (found.empty()) mcal::fail(SHIM_STATUS_LIBRARY_ERROR, "view %zu: no homography from the target to the image", view);
        // Centred on the image: rows 0 and 1 less cx and cy times row 2, then scaled to unit norm.
        cv::Matx33d h(found);
        for (int column = 0; column < 3; ++column) {
            h(0, column) -= cx * h(2, column);
            h(1, column) -= cy * h(2, column);
        }
        h *= 1 / cv::norm(h);
        homographies.push_back(h);
        objects.push_back(std::move(object));
        images.push_back(std::move(image));
    }
    // a = 1/fx^2, b = 1/fy^2: columns h1, h2 of each homography are K [r1 r2] up to scale, so
    // h1' B h2 = 0 and h1' B h1 = h2' B h2 with B = diag(a, b, 1).
    cv::Mat A(int(2 * homographies.size()), 2, CV_64F), rhs(int(2 * homographies.size()), 1, CV_64F);
    for (size_t view = 0; view < homographies.size(); ++view) {
        const cv::Matx33d &h = homographies[view];
        const int row = int(2 * view);
        A.at<double>(row, 0) = h(0, 0) * h(0, 1);
        A.at<double>(row, 1) = h(1, 0) * h(1, 1);
        rhs.at<double>(row) = -h(2, 0) * h(2, 1);
        A.at<double>(row + 1, 0) = h(0, 0) * h(0, 0) - h(0, 1) * h(0, 1);
        A.at<double>(row + 1, 1) = h(1, 0) * h(1, 0) - h(1, 1) * h(1, 1);
        rhs.at<double>(row + 1) = -(h(2, 0) * h(2, 0) - h(2, 1) * h(2, 1));
    }
    double fx = 0, fy = 0;
    cv::Mat ab;
    if (cv::solve(A, rhs, ab, cv::DECOMP_SVD) && ab.at<double>(0) > 0 && ab.at<double>(1) > 0) {
        fx = 1 / std::sqrt(ab.at<double>(0));
        fy = 1 / std::sqrt(ab.at<double>(1));
    }
    // Views that do not fix both (all of them nearly square on, or turned about one axis alone):
    // one focal length for both axes, and failing that one a normal lens might have.
    const double largest = std::max(problem.image_width, problem.image_height);
    const auto plausible = [&](double f) { return std::isfinite(f) && f > 0.05 * largest && f < 50 * largest; };
    if (!plausible(fx) || !plausible(fy)) {
        cv::Mat sum(A.rows, 1, CV_64F), a;
        for (int row = 0; row < A.rows; ++row) sum.at<double>(row) = A.at<double>(row, 0) + A.at<double>(row, 1);
        const bool one = cv::solve(sum, rhs, a, cv::DECOMP_SVD) && a.at<double>(0) > 0;
        fx = fy = one ? 1 / std::sqrt(a.at<double>(0)) : largest;
        if (!plausible(fx)) fx = fy = largest;
    }
    const cv::Matx33d K(fx, 0, cx, 0, fy, cy, 0, 0, 1);
    std::vector<cv::Mat> rotations, translations;
    for (size_t view = 0; view < objects.size(); ++view) {
        cv::Mat rvec, tvec;
        if (!cv::solvePnP(objects[view], images[view], K, cv::noArray(), rvec, tvec, false, cv::SOLVEPNP_IPPE)) {
            mcal::fail(SHIM_STATUS_LIBRARY_ERROR, "view %zu: no pose for the closed-form start", view);
        }
        rotations.push_back(rvec.reshape(1, 3));
        translations.push_back(tvec.reshape(1, 3));
    }
    solution.camera.model = problem.model;
    for (int index = 0; index < 9; ++index) solution.camera.camera_matrix[index] = K(index / 3, index % 3);
    solution.camera.distortion_count = problem.model == MCAL_MODEL_RATIONAL ? 8 : 5;
    std::fill(std::begin(solution.camera.distortion), std::end(solution.camera.distortion), 0.0);
    const cv::Mat D = cv::Mat::zeros(1, solution.camera.distortion_count, CV_64F);
    project_all(views, cv::Mat(K), D, problem.model, rotations, translations, solution);
}

// A new solution of `problem` by `make`, handed to the caller through `solution`.
shim_status solution_by(void (*make)(const mcal_problem &, mcal_solution &), const mcal_problem *problem,
                        mcal_solution **solution, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(problem, "problem");
        mcal::require(solution, "solution");
        auto result = std::make_unique<mcal_solution>();
        make(*problem, *result);
        *solution = result.release();
    });
}

}  // namespace

extern "C" {

shim_status mcal_initialize(const mcal_problem *problem, mcal_solution **solution, shim_error *error) {
    return solution_by(initialize, problem, solution, error);
}

shim_status mcal_calibrate(const mcal_problem *problem, mcal_solution **solution, shim_error *error) {
    return solution_by(solve, problem, solution, error);
}

shim_status mcal_solution_view_get(const mcal_solution *solution, mcal_solution_view *view, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(solution, "solution");
        mcal::require(view, "view");
        *view = mcal_solution_view{};
        view->rms = solution->rms;
        view->camera = solution->camera;
        std::copy(std::begin(solution->intrinsic_std), std::end(solution->intrinsic_std), view->intrinsic_std);
        view->view_count = solution->view_rms.size();
        view->view_rms = solution->view_rms.data();
        view->rotations = solution->rotations.data();
        view->translations = solution->translations.data();
        view->point_count = solution->projected.size() / 2;
        view->projected_points = solution->projected.data();
    });
}

void mcal_solution_free(mcal_solution *solution) { delete solution; }

shim_status mcal_points_project(const mcal_camera *camera, const double *camera_points, size_t count,
                                double *image_points, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(camera, "camera");
        mcal::require(camera_points, "camera_points");
        mcal::require(image_points, "image_points");
        if (count == 0) return;
        const cv::Mat K = mcal::camera_matrix(*camera), D = mcal::distortion(*camera);
        std::vector<cv::Point3d> points(count);
        for (size_t index = 0; index < count; ++index) {
            points[index] = cv::Point3d(camera_points[3 * index], camera_points[3 * index + 1], camera_points[3 * index + 2]);
        }
        std::vector<cv::Point2d> projected;
        const cv::Mat zero = cv::Mat::zeros(3, 1, CV_64F);
        if (camera->model == MCAL_MODEL_FISHEYE) {
            cv::fisheye::projectPoints(points, projected, zero, zero, K, D);
        } else {
            cv::projectPoints(points, zero, zero, K, D, projected);
        }
        for (size_t index = 0; index < count; ++index) {
            image_points[2 * index] = projected[index].x;
            image_points[2 * index + 1] = projected[index].y;
        }
    });
}

shim_status mcal_points_undistort(const mcal_camera *camera, const double *image_points, size_t count,
                                  double *normalized_points, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(camera, "camera");
        mcal::require(image_points, "image_points");
        mcal::require(normalized_points, "normalized_points");
        if (count == 0) return;
        const cv::Mat K = mcal::camera_matrix(*camera), D = mcal::distortion(*camera);
        cv::Mat source(int(count), 1, CV_64FC2, const_cast<double *>(image_points));
        cv::Mat result;
        if (camera->model == MCAL_MODEL_FISHEYE) {
            cv::fisheye::undistortPoints(source, result, K, D);
        } else {
            // More iterations than the default 5: strong distortion near the corners needs them.
            cv::undistortPoints(source, result, K, D, cv::noArray(), cv::noArray(),
                                cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 100, 1e-12));
        }
        result.convertTo(result, CV_64FC2);
        std::memcpy(normalized_points, result.ptr<double>(), count * 2 * sizeof(double));
    });
}

shim_status mcal_image_undistort(const shim_pixels *source, const mcal_camera *camera, const shim_pixels *destination,
                                 shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(camera, "camera");
        const cv::Mat input = mcal::wrap(source);
        cv::Mat output = mcal::wrap(destination);
        if (input.size() != output.size() || input.type() != output.type()) {
            mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "destination %dx%d (%d channels) differs from source %dx%d (%d channels)",
                       output.cols, output.rows, output.channels(), input.cols, input.rows, input.channels());
        }
        const cv::Mat K = mcal::camera_matrix(*camera), D = mcal::distortion(*camera);
        cv::Mat result;
        if (camera->model == MCAL_MODEL_FISHEYE) {
            cv::fisheye::undistortImage(input, result, K, D, K);
        } else {
            cv::undistort(input, result, K, D);
        }
        result.copyTo(output);
    });
}

}  // extern "C"
