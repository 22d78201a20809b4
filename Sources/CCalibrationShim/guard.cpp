// Status reporting, pixel wrapping and camera conversion for the calibration shim.
#include "guard.hpp"

#include <cstdarg>
#include <cstdio>

namespace mcal {

void fail(shim_status status, const char *format, ...) {
    char buffer[sizeof(shim_error{}.message)];
    va_list arguments;
    va_start(arguments, format);
    std::vsnprintf(buffer, sizeof buffer, format, arguments);
    va_end(arguments);
    throw Failure{status, buffer};
}

shim_status report(shim_error *error, shim_status status, const std::string &message) {
    if (error != nullptr) {
        error->status = status;
        std::snprintf(error->message, sizeof error->message, "%s", message.c_str());
    }
    return status;
}

void require(const void *pointer, const char *name) {
    if (pointer == nullptr) fail(SHIM_STATUS_INVALID_ARGUMENT, "%s is NULL", name);
}

cv::Mat wrap(const mcal_pixels *pixels) {
    require(pixels, "pixels");
    require(pixels->data, "pixels->data");
    if (pixels->channels != 1 && pixels->channels != 3) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "pixels have %d channels; 1 or 3 are allowed", pixels->channels);
    }
    if (pixels->width < 1 || pixels->height < 1) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "empty image: %dx%d pixels", pixels->width, pixels->height);
    }
    if (pixels->row_stride < size_t(pixels->width) * size_t(pixels->channels)) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "row stride %zu is smaller than one row of %d pixels", pixels->row_stride,
             pixels->width);
    }
    return cv::Mat(pixels->height, pixels->width, CV_8UC(pixels->channels), pixels->data, pixels->row_stride);
}

cv::Mat camera_matrix(const mcal_camera &camera) {
    return cv::Mat(3, 3, CV_64F, const_cast<double *>(camera.camera_matrix)).clone();
}

cv::Mat distortion(const mcal_camera &camera) {
    const int expected = camera.model == MCAL_MODEL_PINHOLE ? 5 : camera.model == MCAL_MODEL_RATIONAL ? 8 : 4;
    if (camera.distortion_count != expected) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "model %d has %d distortion coefficients, not %d", int(camera.model),
             expected, camera.distortion_count);
    }
    return cv::Mat(1, expected, CV_64F, const_cast<double *>(camera.distortion)).clone();
}

}  // namespace mcal
