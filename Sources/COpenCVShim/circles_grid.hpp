// Circle grids (MSD_PATTERN_CIRCLES, MSD_PATTERN_ACIRCLES): detection, centre refinement and
// drawing, and the blob detector identification shares. Never included by the public header.
#pragma once

#include "detector.hpp"

#include <opencv2/features2d.hpp>

#include <vector>

namespace msd {

// A printed circle's diameter, in spacings (the distance between neighbouring rows).
constexpr double printed_circle_diameter = 0.5;

// Whether `pattern` is a circle grid.
bool is_circle_grid(const msd_pattern &pattern);

// Where point `id` of a circle grid lies on the board, in the pattern's length unit.
cv::Point2d circle_grid_point(const msd_pattern &pattern, int id);

// OpenCV's blob detector set for dark circles in an image of `image` pixels holding about `points`
// of them: small and slanted circles count, none larger than its share of the image.
cv::Ptr<cv::SimpleBlobDetector> circle_blob_detector(cv::Size image, int points);

// cv::findCirclesGrid for a grid of `columns` x `rows` (a symmetric one also when turned a quarter,
// then labelled as the board's own rows and columns); the centres in OpenCV's order.
bool find_circle_grid(const cv::Mat &gray, int columns, int rows, bool asymmetric, std::vector<cv::Point2f> &points);

// The same with the blobs found already (`blobs`, in `gray`'s pixels) instead of OpenCV's blob detector.
bool find_circle_grid(const cv::Mat &gray, int columns, int rows, bool asymmetric, const std::vector<cv::KeyPoint> &blobs,
                      std::vector<cv::Point2f> &points);

// Moves `point`, near a dark blob's centre, to the centroid of the blob's darkness within `radius`
// (levels taken from the disc itself), again from each answer until it settles. False, leaving
// `point` as it was, where the disc has no contrast or the answer leaves it.
bool settle_blob_centre(const cv::Mat &gray, cv::Point2f &point, double radius);

// Settles every centre of a found grid (in OpenCV's order) within half the distance to its nearest
// neighbour on the grid.
void refine_circle_centres(const cv::Mat &gray, const msd_pattern &pattern, std::vector<cv::Point2f> &points);

// Finds the detector's circle grid in `gray` (fast: first in a shrunk copy) and adds its centres,
// refined, to `result` as board corners numbered in OpenCV's order.
void detect_circles(const msd_detector &detector, const cv::Mat &gray, bool fast, msd_detection &result);

// Draws the circle grid black on white, centred in `image` with `margin` pixels and a quiet zone
// of one spacing around it; the spacing is whole pixels.
void render_circles(const msd_pattern &pattern, cv::Mat &image, int margin);

}  // namespace msd
