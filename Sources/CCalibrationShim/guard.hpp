// Turning C++ failures into shim_status, shared by the shim's .cpp files; never included by the
// public header.
#pragma once

#include "CCalibrationShim.h"

#include <opencv2/core.hpp>

#include <string>

namespace mcal {

// Thrown inside a shim function to fail with a chosen status; `guarded` turns it into the result.
struct Failure {
    shim_status status;
    std::string message;
};

[[noreturn]] void fail(shim_status status, const char *format, ...) __attribute__((format(printf, 2, 3)));

// Writes `status` and `message` into `error` (when not NULL) and returns the status.
shim_status report(shim_error *error, shim_status status, const std::string &message);

// Runs `body` and turns every exception into a status.
template <typename Body>
shim_status guarded(shim_error *error, Body &&body) noexcept {
    try {
        body();
        return report(error, SHIM_STATUS_OK, "");
    } catch (const Failure &failure) {
        return report(error, failure.status, failure.message);
    } catch (const cv::Exception &exception) {
        return report(error, SHIM_STATUS_LIBRARY_ERROR, "OpenCV error in " + exception.func + ": " + exception.err);
    } catch (const std::bad_alloc &) {
        return report(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception &exception) {
        return report(error, SHIM_STATUS_INTERNAL_ERROR, std::string("internal error: ") + exception.what());
    } catch (...) {
        return report(error, SHIM_STATUS_INTERNAL_ERROR, "internal error: unknown exception");
    }
}

// Fails with SHIM_STATUS_INVALID_ARGUMENT when `pointer` is NULL.
void require(const void *pointer, const char *name);

// The caller's pixels as a cv::Mat over the same memory, after checking the geometry.
cv::Mat wrap(const mcal_pixels *pixels);

// The camera matrix and distortion coefficients as OpenCV matrices (CV_64F).
cv::Mat camera_matrix(const mcal_camera &camera);
cv::Mat distortion(const mcal_camera &camera);

}  // namespace mcal
