// Stereo rectification for the calibration shim: a pair's rectifying rotations and projections,
// and points and pictures carried through them.
#include "calibration.hpp"

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <cstring>

namespace {

cv::Mat matrix(const double *values, int rows, int cols) {
    return cv::Mat(rows, cols, CV_64F, const_cast<double *>(values)).clone();
}

void copy_out(const cv::Mat &source, double *destination, int rows, int cols) {
    cv::Mat converted;
    source.convertTo(converted, CV_64F);
    if (converted.rows != rows || converted.cols != cols) {
        mcal::fail(SHIM_STATUS_INTERNAL_ERROR, "a %dx%d matrix where %dx%d was expected", converted.rows, converted.cols,
                   rows, cols);
    }
    converted = converted.clone();
    std::memcpy(destination, converted.ptr<double>(), size_t(rows * cols) * sizeof(double));
}

}  // namespace

extern "C" {

shim_status mcal_stereo_rectify(const mcal_camera *first, const mcal_camera *second, int32_t width, int32_t height,
                                const double *rotation, const double *translation, double *r1, double *r2,
                                double *p1, double *p2, double *q, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(first, "first");
        mcal::require(second, "second");
        mcal::require(rotation, "rotation");
        mcal::require(translation, "translation");
        mcal::require(r1, "r1");
        mcal::require(r2, "r2");
        mcal::require(p1, "p1");
        mcal::require(p2, "p2");
        mcal::require(q, "q");
        if (width < 1 || height < 1) mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "image size %dx%d", width, height);
        if ((first->model == MCAL_MODEL_FISHEYE) != (second->model == MCAL_MODEL_FISHEYE)) {
            mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "a fisheye camera is rectified only with another fisheye camera");
        }
        const cv::Mat K1 = mcal::camera_matrix(*first), D1 = mcal::distortion(*first);
        const cv::Mat K2 = mcal::camera_matrix(*second), D2 = mcal::distortion(*second);
        const cv::Mat R = matrix(rotation, 3, 3), T = matrix(translation, 3, 1);
        const cv::Size size(width, height);
        cv::Mat R1, R2, P1, P2, Q;
        if (first->model == MCAL_MODEL_FISHEYE) {
            cv::fisheye::stereoRectify(K1, D1, K2, D2, size, R, T, R1, R2, P1, P2, Q, cv::CALIB_ZERO_DISPARITY, size, 0.0, 1.0);
        } else {
            cv::stereoRectify(K1, D1, K2, D2, size, R, T, R1, R2, P1, P2, Q, cv::CALIB_ZERO_DISPARITY, 0, size);
        }
        copy_out(R1, r1, 3, 3);
        copy_out(R2, r2, 3, 3);
        copy_out(P1, p1, 3, 4);
        copy_out(P2, p2, 3, 4);
        copy_out(Q, q, 4, 4);
    });
}

shim_status mcal_points_rectify(const mcal_camera *camera, const double *rectification, const double *projection,
                                const double *image_points, size_t count, double *rectified_points, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(camera, "camera");
        mcal::require(rectification, "rectification");
        mcal::require(projection, "projection");
        mcal::require(image_points, "image_points");
        mcal::require(rectified_points, "rectified_points");
        if (count == 0) return;
        const cv::Mat K = mcal::camera_matrix(*camera), D = mcal::distortion(*camera);
        const cv::Mat R = matrix(rectification, 3, 3), P = matrix(projection, 3, 4);
        cv::Mat source(int(count), 1, CV_64FC2, const_cast<double *>(image_points));
        cv::Mat result;
        if (camera->model == MCAL_MODEL_FISHEYE) {
            cv::fisheye::undistortPoints(source, result, K, D, R, P);
        } else {
            cv::undistortPoints(source, result, K, D, R, P,
                                cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 100, 1e-12));
        }
        result.convertTo(result, CV_64FC2);
        result = result.clone();
        std::memcpy(rectified_points, result.ptr<double>(), count * 2 * sizeof(double));
    });
}

shim_status mcal_image_rectify(const shim_pixels *source, const mcal_camera *camera, const double *rectification,
                               const double *projection, const shim_pixels *destination, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(camera, "camera");
        mcal::require(rectification, "rectification");
        mcal::require(projection, "projection");
        const cv::Mat input = mcal::wrap(source);
        cv::Mat output = mcal::wrap(destination);
        if (input.type() != output.type()) {
            mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "destination has %d channels, source %d", output.channels(),
                       input.channels());
        }
        const cv::Mat K = mcal::camera_matrix(*camera), D = mcal::distortion(*camera);
        const cv::Mat R = matrix(rectification, 3, 3), P = matrix(projection, 3, 4);
        cv::Mat map1, map2;
        if (camera->model == MCAL_MODEL_FISHEYE) {
            cv::fisheye::initUndistortRectifyMap(K, D, R, P, output.size(), CV_32FC1, map1, map2);
        } else {
            cv::initUndistortRectifyMap(K, D, R, P, output.size(), CV_32FC1, map1, map2);
        }
        cv::Mat result;
        cv::remap(input, result, map1, map2, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
        result.copyTo(output);
    });
}

}  // extern "C"
