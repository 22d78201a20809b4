// Regular files, gray and BGR copies, owned images and OpenCV's thread count.
#include "shim.hpp"

#include <opencv2/core/utility.hpp>
#include <opencv2/core/version.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace msd {

namespace {

const char *file_kind(mode_t mode) {
    switch (mode & S_IFMT) {
    case S_IFIFO: return "FIFO";
    case S_IFCHR: return "character device";
    case S_IFBLK: return "block device";
    case S_IFDIR: return "directory";
    case S_IFSOCK: return "socket";
    default: return "special file";
    }
}

[[noreturn]] void fail_not_regular(mode_t mode) { throw Failure{SHIM_STATUS_NOT_REGULAR_FILE, file_kind(mode)}; }

void check_regular(const struct stat &status, const std::string &path, int64_t max_bytes) {
    if (!S_ISREG(status.st_mode)) fail_not_regular(status.st_mode);
    if (status.st_size > max_bytes) {
        Failure failure{SHIM_STATUS_FILE_TOO_LARGE, ""};
        failure.file_bytes = status.st_size;
        failure.message = "'" + path + "' is " + std::to_string(status.st_size) + " bytes, more than the limit of " +
                          std::to_string(max_bytes) + " bytes";
        throw failure;
    }
}

}  // namespace

RegularFile::RegularFile(const char *path, int64_t max_bytes) : path_(path) {
    // stat first: opening a FIFO waits for a writer, and opening some devices has effects.
    struct stat status;
    if (::stat(path, &status) != 0) fail_io("open", errno);
    check_regular(status, path_, max_bytes);
    do {
        descriptor_ = ::open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    } while (descriptor_ < 0 && errno == EINTR);
    if (descriptor_ < 0) fail_io("open", errno);
    // The path may have been replaced between stat and open: check what was opened.
    if (::fstat(descriptor_, &status) != 0) fail_io("read", errno);
    check_regular(status, path_, max_bytes);
    size_ = size_t(status.st_size);
}

RegularFile::~RegularFile() {
    if (descriptor_ >= 0) ::close(descriptor_);
}

void RegularFile::fail_io(const char *what, int code) const {
    Failure failure{SHIM_STATUS_IO, std::string("cannot ") + what + " '" + path_ + "': " + std::strerror(code)};
    failure.system_errno = code;
    throw failure;
}

void RegularFile::read_into(std::vector<uint8_t> &bytes, size_t count) {
    count = std::min(count, size_ - offset_);
    const size_t start = bytes.size();
    bytes.resize(start + count);
    size_t got = 0;
    while (got < count) {
        const ssize_t result = ::read(descriptor_, bytes.data() + start + got, count - got);
        if (result < 0 && errno == EINTR) continue;
        if (result < 0) {
            bytes.resize(start + got);
            fail_io("read", errno);
        }
        if (result == 0) break;  // the file shrank
        got += size_t(result);
    }
    bytes.resize(start + got);
    offset_ += got;
}

cv::Mat gray(const cv::Mat &wrapped, shim_pixel_format format) {
    cv::Mat result;
    switch (format) {
    case SHIM_PIXEL_FORMAT_GRAY8: return wrapped;
    case SHIM_PIXEL_FORMAT_BGR24: cv::cvtColor(wrapped, result, cv::COLOR_BGR2GRAY); break;
    case SHIM_PIXEL_FORMAT_RGB24: cv::cvtColor(wrapped, result, cv::COLOR_RGB2GRAY); break;
    case SHIM_PIXEL_FORMAT_YUYV: cv::cvtColor(wrapped, result, cv::COLOR_YUV2GRAY_YUY2); break;
    }
    return result;
}

cv::Mat bgr_copy(const cv::Mat &wrapped, shim_pixel_format format) {
    cv::Mat result;
    switch (format) {
    case SHIM_PIXEL_FORMAT_GRAY8: cv::cvtColor(wrapped, result, cv::COLOR_GRAY2BGR); break;
    case SHIM_PIXEL_FORMAT_BGR24: result = wrapped.clone(); break;
    case SHIM_PIXEL_FORMAT_RGB24: cv::cvtColor(wrapped, result, cv::COLOR_RGB2BGR); break;
    case SHIM_PIXEL_FORMAT_YUYV: cv::cvtColor(wrapped, result, cv::COLOR_YUV2BGR_YUY2); break;
    }
    return result;
}

}  // namespace msd

extern "C" {

shim_status msd_image_pixels_get(const msd_image *image, shim_pixels *pixels, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(image, "image");
        msd::require(pixels, "pixels");
        *pixels = shim_pixels{image->mat.data, image->mat.cols, image->mat.rows, image->mat.step[0], image->format};
    });
}

void msd_image_free(msd_image *image) { delete image; }

shim_status msd_threads_set(int32_t count, shim_error *error) {
    // OpenCV's TBB backend asks TBB for count - 1 workers, and TBB refuses more than the cores
    // allow with a warning on standard error: never more threads than cores are asked for.
    return msd::guarded(error, [&] { cv::setNumThreads(std::min(count, int32_t(std::max(1, cv::getNumberOfCPUs())))); });
}

shim_status msd_threads_get(int32_t *count, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(count, "count");
        *count = cv::getNumThreads();
    });
}

shim_status msd_opencv_version_get(msd_opencv_version *version, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(version, "version");
        std::snprintf(version->running, sizeof version->running, "%s", cv::getVersionString().c_str());
        std::snprintf(version->built, sizeof version->built, "%s", CV_VERSION);
    });
}

}  // extern "C"
