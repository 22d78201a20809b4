// Shared by the shim's .cpp files: turning C++ failures into shim_status, and wrapping C pixels as
// cv::Mat without a copy. Never included by the public header.
#pragma once

#include "COpenCVShim.h"

#include <opencv2/core.hpp>

#include <cstdarg>
#include <cstdint>
#include <string>
#include <vector>

namespace msd {

// Thrown inside a shim function to fail with a chosen status; `guarded` turns it into the result.
struct Failure {
    shim_status status;
    std::string message;
    int system_errno = 0;
    int64_t width = 0;
    int64_t height = 0;
    int64_t file_bytes = 0;
};

[[noreturn]] void fail(shim_status status, const char *format, ...) __attribute__((format(printf, 2, 3)));

// Writes `failure` into `error` (when not NULL) and returns its status.
shim_status report(shim_error *error, const Failure &failure);

// Runs `body` (which returns nothing on success) and turns every exception into a status: a
// Failure keeps its own, cv::Exception, std::bad_alloc and std::exception get theirs.
template <typename Body>
shim_status guarded(shim_error *error, Body &&body) noexcept {
    try {
        body();
        return report(error, Failure{SHIM_STATUS_OK, ""});
    } catch (const Failure &failure) {
        return report(error, failure);
    } catch (const cv::Exception &exception) {
        return report(error, Failure{SHIM_STATUS_LIBRARY_ERROR, "OpenCV error in " + exception.func + ": " + exception.err});
    } catch (const std::bad_alloc &) {
        return report(error, Failure{SHIM_STATUS_OUT_OF_MEMORY, "out of memory"});
    } catch (const std::exception &exception) {
        return report(error, Failure{SHIM_STATUS_INTERNAL_ERROR, std::string("internal error: ") + exception.what()});
    } catch (...) {
        return report(error, Failure{SHIM_STATUS_INTERNAL_ERROR, "internal error: unknown exception"});
    }
}

// Fails with SHIM_STATUS_INVALID_ARGUMENT when `pointer` is NULL.
void require(const void *pointer, const char *name);

// A regular file opened for reading. Anything else (a FIFO, a device, a directory, a socket) is
// refused from its metadata, before it is opened, so that reading never waits on a writer or
// streams from a device; a file larger than `max_bytes` is refused before any byte is read.
class RegularFile {
public:
    RegularFile(const char *path, int64_t max_bytes);
    ~RegularFile();
    RegularFile(const RegularFile &) = delete;
    RegularFile &operator=(const RegularFile &) = delete;

    // The file's size when it was opened.
    size_t size() const { return size_; }
    // Appends up to `count` more bytes to `bytes`, fewer only at the end of the file (or at the
    // size it had when opened, should it grow).
    void read_into(std::vector<uint8_t> &bytes, size_t count);

private:
    [[noreturn]] void fail_io(const char *what, int code) const;

    std::string path_;
    int descriptor_ = -1;
    size_t size_ = 0;
    size_t offset_ = 0;
};

// The caller's pixels as a cv::Mat over the same memory (no copy), after checking the geometry.
cv::Mat wrap(const shim_pixels *pixels);

// The pixels as one gray channel: `wrapped` itself for GRAY8, a converted copy otherwise.
cv::Mat gray(const cv::Mat &wrapped, shim_pixel_format format);

// The pixels as a BGR24 copy that the caller may draw on.
cv::Mat bgr_copy(const cv::Mat &wrapped, shim_pixel_format format);

}  // namespace msd

// An image whose pixels the shim owns.
struct msd_image {
    cv::Mat mat;
    shim_pixel_format format;
};

namespace cv {
namespace aruco {
class Dictionary;
}
}  // namespace cv

// A marker dictionary: predefined, or read from a file.
struct msd_dictionary {
    cv::Ptr<cv::aruco::Dictionary> dictionary;
};
