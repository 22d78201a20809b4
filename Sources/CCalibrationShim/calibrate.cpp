// Camera calibration: cv::calibrateCamera with standard deviations (Python's calibrateCameraExtended)
// for pinhole models, cv::fisheye::calibrate for the
// fisheye model, with the fisheye model's uncertainties from its own projection Jacobian.
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
    if (problem.model == MCAL_MODEL_FISHEYE) fisheye_uncertainty(views, K, Dused, rotations, translations, solution);
}

}  // namespace

extern "C" {

shim_status mcal_calibrate(const mcal_problem *problem, mcal_solution **solution, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(problem, "problem");
        mcal::require(solution, "solution");
        auto result = std::make_unique<mcal_solution>();
        solve(*problem, *result);
        *solution = result.release();
    });
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
