// Shared by the shim's .cpp files: the shim convention (shim_guard.hpp) reporting as the detection
// shim, regular files, and gray or BGR copies of pixels. Never included by the public header.
#pragma once

#include "COpenCVShim.h"
#include "shim_guard.hpp"

#include <opencv2/core.hpp>

#include <cstdarg>
#include <cstdint>
#include <string>
#include <vector>

namespace msd {

using shim::fail;
using shim::Failure;
using shim::require;
using shim::wrap;

// shim::guarded, reporting as the detection shim.
inline constexpr shim::Guard<SHIM_AREA_DETECTION> guarded{};

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
