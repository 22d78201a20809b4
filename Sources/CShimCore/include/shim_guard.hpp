// The C++ half of the shim convention, for the shims' .cpp files (never included by a header Swift
// imports): failing with a chosen status, turning every exception into a status and an error
// record, and reading shim_pixels as a cv::Mat without a copy.
#pragma once

#include "CShimCore.h"

#include <opencv2/core.hpp>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <new>
#include <string>

namespace shim {

// Thrown inside a shim function to fail with a chosen status; `guarded` turns it into the result.
struct Failure {
    shim_status status;
    std::string message;
    int system_errno = 0;
    int64_t width = 0;
    int64_t height = 0;
    int64_t file_bytes = 0;
};

// Fails with `status` and the message `format` makes (as printf does).
[[noreturn]] inline __attribute__((format(printf, 2, 3))) void fail(shim_status status, const char *format, ...) {
    char buffer[sizeof(shim_error{}.message)];
    va_list arguments;
    va_start(arguments, format);
    std::vsnprintf(buffer, sizeof buffer, format, arguments);
    va_end(arguments);
    throw Failure{status, buffer};
}

// Writes `failure` into `error` (when not NULL) as coming from `area`, and returns its status.
inline shim_status report(shim_error *error, shim_area area, const Failure &failure) {
    shim_error_set(error, area, failure.status, "%s", failure.message.c_str());
    if (error != nullptr) {
        error->system_errno = failure.system_errno;
        error->width = failure.width;
        error->height = failure.height;
        error->file_bytes = failure.file_bytes;
    }
    return failure.status;
}

// Runs `body` (which returns nothing on success) and turns every exception into a status: a
// Failure keeps its own, cv::Exception, std::bad_alloc and std::exception get theirs.
template <typename Body>
shim_status guarded(shim_area area, shim_error *error, Body &&body) noexcept {
    try {
        body();
        return shim_error_clear(error, area);
    } catch (const Failure &failure) {
        return report(error, area, failure);
    } catch (const cv::Exception &exception) {
        return report(error, area,
                      Failure{SHIM_STATUS_LIBRARY_ERROR, "OpenCV error in " + exception.func + ": " + exception.err});
    } catch (const std::bad_alloc &) {
        return report(error, area, Failure{SHIM_STATUS_OUT_OF_MEMORY, "out of memory"});
    } catch (const std::exception &exception) {
        return report(error, area, Failure{SHIM_STATUS_INTERNAL_ERROR, std::string("internal error: ") + exception.what()});
    } catch (...) {
        return report(error, area, Failure{SHIM_STATUS_INTERNAL_ERROR, "internal error: unknown exception"});
    }
}

// `guarded` for one shim, its area given once: `inline constexpr shim::Guard<SHIM_AREA_X> guarded{};`
// in the shim's namespace, then `guarded(error, [&] { ... })` in each function.
template <shim_area Area>
struct Guard {
    template <typename Body>
    shim_status operator()(shim_error *error, Body &&body) const noexcept {
        return guarded(Area, error, static_cast<Body &&>(body));
    }
};

// Fails with SHIM_STATUS_INVALID_ARGUMENT when `pointer` is NULL.
inline void require(const void *pointer, const char *name) {
    if (pointer == nullptr) fail(SHIM_STATUS_INVALID_ARGUMENT, "%s is NULL", name);
}

// The caller's pixels as a cv::Mat over the same memory (no copy), after checking the geometry:
// one channel a byte (YUYV: two). The Mat is writable; only shims documented to write into
// pixels do.
inline cv::Mat wrap(const shim_pixels *pixels) {
    require(pixels, "pixels");
    require(pixels->data, "pixels->data");
    const int channels = shim_pixel_format_bytes(pixels->format);
    if (channels == 0) fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown pixel format %d", int(pixels->format));
    if (pixels->width < 1 || pixels->height < 1) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "empty image: %dx%d pixels", pixels->width, pixels->height);
    }
    const size_t row_bytes = size_t(pixels->width) * size_t(channels);
    if (pixels->row_stride < row_bytes) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "row stride %zu is smaller than one row of %d pixels (%zu bytes)",
             pixels->row_stride, pixels->width, row_bytes);
    }
    if (pixels->format == SHIM_PIXEL_FORMAT_YUYV && pixels->width % 2 != 0) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "YUYV images need an even width, got %d", pixels->width);
    }
    return cv::Mat(pixels->height, pixels->width, CV_8UC(channels), const_cast<void *>(pixels->data),
                   pixels->row_stride);
}

// `wrap`, for the shims that take gray or BGR pixels only.
inline cv::Mat wrap_gray_or_bgr(const shim_pixels *pixels) {
    require(pixels, "pixels");
    if (pixels->format != SHIM_PIXEL_FORMAT_GRAY8 && pixels->format != SHIM_PIXEL_FORMAT_BGR24) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "pixels in format %d; GRAY8 (0) or BGR24 (1) are allowed", int(pixels->format));
    }
    return wrap(pixels);
}

}  // namespace shim
