// Shared by the detection .cpp files: the detector and detection objects, and the steps of one
// detection that full and fast mode both use. Never included by the public header.
#pragma once

#include "shim.hpp"

#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>

#include <vector>

// Immutable after msd_detector_create, so concurrent detections only read it.
struct msd_detector {
    msd_pattern pattern;
    cv::Ptr<cv::aruco::Dictionary> dictionary;
    cv::Ptr<cv::aruco::DetectorParameters> parameters;
    cv::Ptr<cv::aruco::CharucoBoard> charuco;
    // The board whose layout recovers markers the first pass missed (ChArUco or grid board).
    cv::Ptr<cv::aruco::Board> board;
    // Marker ids that belong to a board (sorted); markers with other ids are dropped.
    std::vector<int> board_ids;
};

struct msd_detection {
    std::vector<int32_t> marker_ids;
    std::vector<float> marker_corners;
    std::vector<int32_t> corner_ids;
    std::vector<float> corner_points;
    bool has_sharpness = false;
    double sharpness = 0;
};

namespace msd {

// Marker corners and ids as OpenCV's aruco functions take them.
struct Markers {
    std::vector<std::vector<cv::Point2f>> corners;
    std::vector<int> ids;
};

// Board markers (or loose markers) found in `gray` by OpenCV at full resolution, after
// refineDetectedMarkers for boards, filtered to the board's ids, one per id.
Markers find_markers_full(const msd_detector &detector, const cv::Mat &gray);

// Moves every marker corner and board corner of `result` by `offset` (from a part of an image to
// the whole).
void move_detection(msd_detection &result, cv::Point2f offset);

// How far inside a search region's edge (one that cuts the image, not the image's own) a point
// must lie to be what a search of the whole image finds: thresholding windows (up to 23 px wide)
// and corner refinement (a reach of up to 15 px, plus a pixel for the gradients) near such an edge
// see the edge instead of the image, and their corners come out moved.
constexpr int cut_edge_clearance = 16;

// Whether the point (x, y) of `part` (in the part's coordinates) lies cut_edge_clearance pixels or
// more inside every edge of `part` that is not an edge of the `image` it was cut from.
bool clear_of_cut_edges(float x, float y, cv::Rect part, cv::Size image);

// Drops from `result` (in `part`'s coordinates) what lies too near an edge of `part` that cuts the
// image: markers with such a corner, ChArUco corners, and a chessboard's corners all together (a
// chessboard is found whole or not at all).
void drop_near_cut_edges(const msd_detector &detector, msd_detection &result, cv::Rect part, cv::Size image);

// Whether every marker of the board is among `found` (then refineDetectedMarkers has nothing to
// recover).
bool has_every_board_marker(const msd_detector &detector, const Markers &found);

// Keeps only the board's ids (one detection per id, the largest) for board patterns.
Markers keep_board_markers(const msd_detector &detector, Markers found);

// Chessboard corners found at full resolution and refined there, in row order (empty when not found).
std::vector<cv::Point2f> find_chessboard_full(const msd_pattern &pattern, const cv::Mat &gray);

// Puts a chessboard's corners (in row order) in one order, whichever corner OpenCV's search started
// from, where the board's colours do not fix it. A board whose columns and rows of corners are both
// even or both odd looks the same turned half a turn, and OpenCV numbers it from either end (for
// even x even boards it makes the first row the upper one, from the first corners of the first and
// last rows alone); a square board's grid is also the same turned a quarter turn, and OpenCV numbers
// it from any of its four corners. Of those orders, the one kept is the one whose rows run most
// nearly down the image (from the first row's mean to the last's; level ones, the one running
// right), so that two searches that find the same corners number them alike. Either order is the
// same grid of the same board, so calibration takes either; boards whose colours fix the order
// (columns and rows of different parity, not square) keep OpenCV's.
void order_chessboard(const msd_pattern &pattern, std::vector<cv::Point2f> &points);

// Refines chessboard corners (in row order) on `gray`, each with settle_saddle; false when a corner
// did not settle (it then stays where it was).
bool refine_chessboard(const msd_pattern &pattern, const cv::Mat &gray, std::vector<cv::Point2f> &points);

// Moves `point` onto the saddle point of `gray` (8-bit, one channel) around it: the point nearest
// the lines along which the image does not change at each pixel within `radius` (Foerstner's
// corner estimator, as cv::cornerSubPix solves it), each pixel weighted by a kernel that falls
// smoothly to zero at `radius`, taken again from each answer until it moves less than 0.001 px.
// Unlike cornerSubPix with its whole-pixel window, the answer changes smoothly with the start and
// the radius, so two searches that start a little apart, or measure the board a little apart, end
// at the same place. False, leaving `point` as it was, where the image around it has no corner (its
// gradients all run one way) or the answer wanders further than `radius` from the start.
bool settle_saddle(const cv::Mat &gray, cv::Point2f &point, double radius);

// Adds chessboard corners to `result`, numbered in the order given.
void add_chessboard_corners(const std::vector<cv::Point2f> &points, msd_detection &result);

// Fills `result` from markers and board corners (ChArUco corners interpolated from the markers on `gray`).
void add_markers_and_corners(const msd_detector &detector, const cv::Mat &gray, const Markers &markers,
                             msd_detection &result);

// Fast mode: markers or chessboard corners found in a downscaled copy of `gray`, refined on `gray`
// itself; false when the caller should run full mode instead (see MSD_DETECT_FAST). The passes
// start at the scale for markers (or squares) of `feature_side` pixels, or for a typical board
// when it is 0. `tried` tells whether any downscaled pass ran (none for an image fast mode does
// not shrink). With `partial`, the largest part of a board the passes found without accounting for
// all of it goes there. `only_pass` > 0 runs that pass alone (counted from 1, wrapping around the
// passes the image takes).
// With `seen`, the most board markers any pass found without accounting for the whole board go
// there (refined at full resolution), for detect_around_board.
bool detect_fast(const msd_detector &detector, const cv::Mat &gray, double full_width, double full_height,
                 double feature_side, msd_detection &result, bool &tried, msd_detection *partial, int only_pass = 0,
                 Markers *seen = nullptr);

// After the downscaled passes found no chessboard in the whole image `gray` (one that fast mode
// shrinks): the search full mode runs (OpenCV's, with its ladder of adaptive thresholds) at half
// scale, its corners refined at full resolution and checked as a pass's are; false when it finds
// none, and the full-resolution search follows. Where the passes' global thresholds miss a board
// (uneven light, a tilted or small board), the ladder found it at half scale in a fifth of the time
// it took at full resolution on real 1280x720 frames (108 against 574 ms; 51 against 269 ms); a
// board it does not find costs a quarter more.
bool detect_chessboard_half(const msd_detector &detector, const cv::Mat &gray, msd_detection &result);

// After the downscaled passes found part of a board but could not account for the rest (markers
// too small, tilted or blurred for them, or missing in the full-resolution image too): the
// full-resolution search of the part of `gray` where the homography from the markers `seen`
// (three or more) puts the whole board, with a margin, instead of the whole image. True, with
// `result` in `gray`'s coordinates, when what that search finds accounts for the board in the whole
// image, as detect_near decides it (markers clear of the part's cut edges; every board marker not
// found would lie outside the image or inside the part, where the search looked for it); false
// when the whole image must be searched. On views whose board fills a small part of the image this
// saves most of the full-resolution search, which otherwise runs on about a third of such frames.
bool detect_around_board(const msd_detector &detector, const cv::Mat &gray, const Markers &seen, msd_detection &result);

// A search of the part of `gray` that `near` covers first (where the frame before showed the
// board), in fast mode's way: true, with `result` in `gray`'s coordinates, when what it finds
// accounts for the board in the whole image (see msd_detect_options' hint); false when the whole
// image must be searched. `searched` tells whether the part was searched at all (not when it is
// too small, or most of the image).
bool detect_near(const msd_detector &detector, const cv::Mat &gray, cv::Rect near, double feature_side,
                 msd_detection &result, bool &searched);

// The scale fast mode works at for an image of `width` x `height` pixels (1: no shrinking), for
// markers (or squares) of `feature_side` pixels, or a typical board's when it is 0.
double fast_scale(const msd_detector &detector, double width, double height, double feature_side = 0);

}  // namespace msd
