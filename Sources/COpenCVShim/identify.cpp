// msd_identify: what target an image shows, read from its markers of every code set, its chessboard
// squares and its circles.
#include "identify.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>

namespace msd {
namespace {

constexpr int minimum_side = 16;

void identify(const shim_pixels *pixels, const msd_coded_marker *extra, size_t extra_count,
              const msd_identify_options *options, msd_identification &result) {
    const cv::Mat wrapped = wrap(pixels);
    if (wrapped.cols < minimum_side || wrapped.rows < minimum_side) {
        Failure failure{SHIM_STATUS_IMAGE_TOO_SMALL, "image of " + std::to_string(wrapped.cols) + "x" +
                                                        std::to_string(wrapped.rows) + " pixels is too small to identify a target in"};
        failure.width = wrapped.cols;
        failure.height = wrapped.rows;
        throw failure;
    }
    if (extra_count > 0) require(extra, "extra");
    const cv::Mat gray = msd::gray(wrapped, pixels->format);
    std::vector<CodedMarker> markers;
    if (!options || options->read_markers) markers = read_coded_markers(gray);
    for (size_t k = 0; k < extra_count; ++k) {
        CodedMarker marker{extra[k].code_set, extra[k].id, {}};
        for (int c = 0; c < 4; ++c) marker.corners.emplace_back(extra[k].corners[2 * c], extra[k].corners[2 * c + 1]);
        // Tags found in an image with black thinned (AprilGrids) come out a little small: their
        // edges are found on the image itself, as OpenCV's markers' are (about a third of a cell's
        // reach: a tag is 6 to 11 cells across).
        double side = HUGE_VAL;
        for (size_t c = 0; c < 4; ++c) side = std::min(side, double(cv::norm(marker.corners[c] - marker.corners[(c + 1) % 4])));
        settle_marker_edges(gray, marker.corners, std::max(1.5, side / 30));
        markers.push_back(std::move(marker));
    }
    std::map<int, std::vector<CodedMarker>> sets;
    for (const CodedMarker &marker : markers) {
        sets[marker.code_set].push_back(marker);
        msd_coded_marker out{marker.code_set, marker.id, {}};
        for (int c = 0; c < 4; ++c) {
            out.corners[2 * c] = marker.corners[size_t(c)].x;
            out.corners[2 * c + 1] = marker.corners[size_t(c)].y;
        }
        result.markers.push_back(out);
    }
    bool board = false;
    for (const auto &[code_set, members] : sets) {
        const msd_layout layout = fit_marker_layout(gray, code_set, members);
        board = board || layout.kind != MSD_LAYOUT_LOOSE;
        result.layouts.push_back(layout);
    }
    // Markers that form a board leave no chessboard or circle grid to look for (a ChArUco board's
    // dark squares would pass for a chessboard).
    if (!options || !options->plain_boards || board) return;
    msd_layout layout{};
    if (identify_chessboard(gray, layout)) {
        result.layouts.push_back(layout);
        return;
    }
    if (identify_circle_grid(gray, layout)) result.layouts.push_back(layout);
}

}  // namespace
}  // namespace msd

extern "C" {

shim_status msd_identify(const shim_pixels *pixels, const msd_coded_marker *extra, size_t extra_count,
                        const msd_identify_options *options, msd_identification **identification, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(pixels, "pixels");
        msd::require(identification, "identification");
        *identification = nullptr;
        auto result = std::make_unique<msd_identification>();
        msd::identify(pixels, extra, extra_count, options, *result);
        *identification = result.release();
    });
}

shim_status msd_identification_view_get(const msd_identification *identification, msd_identification_view *view,
                                       shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(identification, "identification");
        msd::require(view, "view");
        *view = msd_identification_view{identification->layouts.size(), identification->layouts.data(),
                                        identification->markers.size(), identification->markers.data()};
    });
}

void msd_identification_free(msd_identification *identification) { delete identification; }

}  // extern "C"
