// Identification of an unknown target: the steps msd_identify runs on one image. Never included by
// the public header.
#pragma once

#include "shim.hpp"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace msd {

// One marker read by its code (msd_coded_marker with OpenCV's types).
struct CodedMarker {
    int code_set;
    int id;
    std::vector<cv::Point2f> corners;  // clockwise from the marker's own top-left

    cv::Point2f centre() const { return (corners[0] + corners[1] + corners[2] + corners[3]) * 0.25f; }
};

// Markers of every predefined dictionary in `gray`: OpenCV's marker candidates (found once, by
// cv::aruco::detectMarkers), each read at 4x4 to 7x7 bits and looked up without error correction
// in the largest dictionary of each nest and in the AprilTag and ArUco-original ones.
std::vector<CodedMarker> read_coded_markers(const cv::Mat &gray);

// The layouts markers of one code set form in `gray` (see msd_layout): the best fitting board, or
// a loose layout when they fit none.
msd_layout fit_marker_layout(const cv::Mat &gray, int code_set, const std::vector<CodedMarker> &markers);

// A chessboard `gray` shows, counted from its dark squares and confirmed by
// cv::findChessboardCorners (its size left 0 when the image does not show where it ends); false
// when there is none.
bool identify_chessboard(const cv::Mat &gray, msd_layout &layout);

// A symmetric or asymmetric circle grid `gray` shows, counted from its circles and confirmed by
// cv::findCirclesGrid; a grid of a dozen circles or more not seen whole gives its kind alone
// (MSD_LAYOUT_CIRCLES, size 0); false when there is none.
bool identify_circle_grid(const cv::Mat &gray, msd_layout &layout);

// Moves a marker's four corners (clockwise, a black border inside, white outside) to the crossings
// of lines fitted to its edges, each edge found at the points where the gray level crosses halfway
// from the border's black to the white around it, looked for within `reach` pixels across the
// edge. Blur spreads an edge evenly, so the marker keeps its size, where a corner refined as a
// corner moves into the rounded black. False, leaving the corners as they were, where an edge
// cannot be found.
bool settle_marker_edges(const cv::Mat &gray, std::vector<cv::Point2f> &corners, double reach);

// The gray level at a point between pixel centres (bilinear); -1 outside the image. The offsets
// within the pixel are worked out in the point's own type (cv::Point2f or cv::Point2d).
template <typename Point>
double gray_at(const cv::Mat &gray, Point p) {
    if (!(p.x >= 0 && p.y >= 0 && p.x <= gray.cols - 1 && p.y <= gray.rows - 1)) return -1;
    const int x = std::min(int(p.x), gray.cols - 2), y = std::min(int(p.y), gray.rows - 2);
    const double fx = p.x - x, fy = p.y - y;
    const auto v = [&](int dx, int dy) { return double(gray.at<uint8_t>(y + dy, x + dx)); };
    return (v(0, 0) * (1 - fx) + v(1, 0) * fx) * (1 - fy) + (v(0, 1) * (1 - fx) + v(1, 1) * fx) * fy;
}

// Whether a point lies at least `margin` pixels inside an image of `size`.
inline bool inside(cv::Point2f point, cv::Size size, float margin) {
    return point.x >= margin && point.y >= margin && point.x <= size.width - 1 - margin &&
           point.y <= size.height - 1 - margin;
}

}  // namespace msd

struct msd_identification {
    std::vector<msd_layout> layouts;
    std::vector<msd_coded_marker> markers;
};
