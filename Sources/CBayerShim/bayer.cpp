// Bayer demosaicing through OpenCV's cvtColor. OpenCV names a mosaic by the colours of the second
// and third pixels of its second row, ROS by the first two pixels of its first two rows, so ROS's
// RGGB is OpenCV's BayerBG (as cv_bridge maps them).
#include "CBayerShim.h"
#include "shim_guard.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace {

// OpenCV's conversion code for `pattern` into `channels` (1: gray, 3: BGR).
int conversion(mbs_bayer_pattern pattern, int channels) {
    switch (pattern) {
    case MBS_BAYER_RGGB: return channels == 1 ? cv::COLOR_BayerBG2GRAY : cv::COLOR_BayerBG2BGR;
    case MBS_BAYER_BGGR: return channels == 1 ? cv::COLOR_BayerRG2GRAY : cv::COLOR_BayerRG2BGR;
    case MBS_BAYER_GBRG: return channels == 1 ? cv::COLOR_BayerGR2GRAY : cv::COLOR_BayerGR2BGR;
    case MBS_BAYER_GRBG: return channels == 1 ? cv::COLOR_BayerGB2GRAY : cv::COLOR_BayerGB2BGR;
    }
    shim::fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown Bayer pattern %d", int(pattern));
}

}  // namespace

extern "C" shim_status mbs_bayer_demosaic(const shim_pixels *mosaic, mbs_bayer_pattern pattern, const shim_pixels *output,
                                          shim_error *error) {
    return shim::guarded(SHIM_AREA_BAYER, error, [&] {
        shim::require(mosaic, "mosaic");
        shim::require(output, "output");
        if (mosaic->format != SHIM_PIXEL_FORMAT_GRAY8) {
            shim::fail(SHIM_STATUS_INVALID_ARGUMENT, "a mosaic has one byte a pixel (GRAY8), got format %d", int(mosaic->format));
        }
        if (output->format != SHIM_PIXEL_FORMAT_GRAY8 && output->format != SHIM_PIXEL_FORMAT_BGR24) {
            shim::fail(SHIM_STATUS_INVALID_ARGUMENT, "demosaicing writes GRAY8 or BGR24, not format %d", int(output->format));
        }
        const cv::Mat input = shim::wrap(mosaic);
        cv::Mat target = shim::wrap(output);
        if (input.cols < 2 || input.rows < 2) {
            shim::fail(SHIM_STATUS_INVALID_ARGUMENT, "a Bayer mosaic of %dx%d pixels is smaller than one 2x2 cell", input.cols, input.rows);
        }
        if (target.size() != input.size()) {
            shim::fail(SHIM_STATUS_INVALID_ARGUMENT, "output of %dx%d pixels for a mosaic of %dx%d", target.cols, target.rows,
                       input.cols, input.rows);
        }
        cv::Mat result;
        cv::cvtColor(input, result, conversion(pattern, target.channels()));
        if (result.size() != target.size() || result.type() != target.type()) {
            shim::fail(SHIM_STATUS_INTERNAL_ERROR, "OpenCV's demosaicing gave a %dx%d image of type %d", result.cols, result.rows,
                       result.type());
        }
        result.copyTo(target);
    });
}
