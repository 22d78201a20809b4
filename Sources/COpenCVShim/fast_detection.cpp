// Fast mode: boards found in a downscaled copy of the image, their corners refined at full
// resolution, and full mode whenever the downscaled pass might have missed something.
#include "detector.hpp"

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace msd {
namespace {

// The scale is chosen so that a board spanning this fraction of the image width (a typical
// calibration view; smaller boards are still found, by the full-resolution fallback) shows its
// markers, or chessboard squares, at the working sides below in the downscaled image.
constexpr double typical_board_fraction = 0.3;
// Marker side in working pixels: 2.5 pixels a bit for 6x6 markers (8 cells with the border).
constexpr double working_marker_side = 20;
// Chessboard square side in working pixels.
constexpr double working_square_side = 16;
// Shrinking by less than this saves too little to pay for a second pass when the first one fails.
constexpr double largest_useful_scale = 0.8;
// Never shrink below this many pixels on the image's longer side.
constexpr double smallest_working_side = 320;

// The side, in full-resolution pixels, of the pattern's markers (or chessboard squares) when the
// board spans typical_board_fraction of the image width; 0 for patterns always found at full resolution.
double typical_feature_side(const msd_pattern &pattern, double width) {
    const double board = typical_board_fraction * width;
    switch (pattern.kind) {
    // Loose markers have no board to size; a grid board's points are its marker corners, which a
    // downscaled pass finds less exactly than a full-resolution one (see BENCHMARKS.md): both are
    // always detected at full resolution.
    case MSD_PATTERN_ARUCO:
    case MSD_PATTERN_ARUCO_GRID: return 0;
    case MSD_PATTERN_CHARUCO: return board * pattern.marker_length / (pattern.columns * pattern.square_length);
    case MSD_PATTERN_CHESSBOARD: return board / (pattern.columns + 1);
    // Circle grids are searched in a shrunk copy of their own (circles_grid.cpp).
    case MSD_PATTERN_CIRCLES:
    case MSD_PATTERN_ACIRCLES: return 0;
    }
    return 0;
}

// Maps a point of the downscaled image to the full-resolution one (pixel centres at integers).
cv::Point2f upscale(cv::Point2f point, double scale_x, double scale_y) {
    return {float((point.x + 0.5) / scale_x - 0.5), float((point.y + 0.5) / scale_y - 0.5)};
}

// Moves each marker corner onto the full-resolution image's corner (cornerSubPix), with a window
// of three quarters of one bit so that it sees the marker's border and not its inner bits.
void refine_marker_corners(const cv::Mat &gray, int bits_per_side, std::vector<std::vector<cv::Point2f>> &markers) {
    for (std::vector<cv::Point2f> &corners : markers) {
        double side = HUGE_VAL;
        for (size_t index = 0; index < corners.size(); ++index) {
            side = std::min(side, double(cv::norm(corners[index] - corners[(index + 1) % corners.size()])));
        }
        const int half_window = std::clamp(int(0.75 * side / (bits_per_side + 2)), 2, 12);
        cv::cornerSubPix(gray, corners, cv::Size(half_window, half_window), cv::Size(-1, -1),
                         cv::TermCriteria(cv::TermCriteria::EPS | cv::TermCriteria::COUNT, 30, 0.01));
    }
}

// Where each of the board's marker ids stands in its lists.
std::map<int, size_t> board_indices(const cv::aruco::Board &board) {
    std::map<int, size_t> index_of;
    for (size_t index = 0; index < board.ids.size(); ++index) index_of[board.ids[index]] = index;
    return index_of;
}

// The homography from the board's plane to the image that the corners of `markers` (all of them
// the board's; `index_of` from board_indices) give; empty where OpenCV finds none.
cv::Mat board_to_image(const cv::aruco::Board &board, const std::map<int, size_t> &index_of, const Markers &markers) {
    std::vector<cv::Point2f> on_board, in_image;
    for (size_t marker = 0; marker < markers.ids.size(); ++marker) {
        const auto &object = board.objPoints[index_of.at(markers.ids[marker])];
        for (size_t corner = 0; corner < 4; ++corner) {
            on_board.emplace_back(object[corner].x, object[corner].y);
            in_image.push_back(markers.corners[marker][corner]);
        }
    }
    return cv::findHomography(on_board, in_image, 0);
}

// Whether `markers` account for the whole board as far as `size` shows it: every board marker not
// among them would lie at least partly outside the image, going by the homography from the board
// to the image that the markers found give. With a `searched` rectangle (a search that looked
// there only), a marker that would lie inside it, clear of its edges, counts as looked for too:
// the rest of the image would not show it. That needs a homography from at least three markers.
bool accounts_for_board(const msd_detector &detector, const Markers &markers, cv::Size size,
                        cv::Rect searched = cv::Rect()) {
    const cv::aruco::Board &board = *detector.board;
    if (markers.ids.size() == board.ids.size()) return true;
    // Thresholding and contours near an edge see different pixels than in the whole image: half
    // the largest adaptive threshold window, and a little more.
    const int edge = detector.parameters->adaptiveThreshWinSizeMax / 2 + 4;
    const cv::Rect looked = markers.ids.size() >= 3 && searched.width > 2 * edge && searched.height > 2 * edge
                                ? cv::Rect(searched.x + edge, searched.y + edge, searched.width - 2 * edge,
                                           searched.height - 2 * edge)
                                : cv::Rect();
    const std::map<int, size_t> index_of = board_indices(board);
    const cv::Mat homography = board_to_image(board, index_of, markers);
    if (homography.empty()) return false;
    std::vector<bool> found(board.ids.size(), false);
    for (int id : markers.ids) found[index_of.at(id)] = true;
    for (size_t index = 0; index < board.ids.size(); ++index) {
        if (found[index]) continue;
        std::vector<cv::Point2f> object, projected;
        for (const cv::Point3f &point : board.objPoints[index]) object.emplace_back(point.x, point.y);
        cv::perspectiveTransform(object, projected, homography);
        const bool inside = std::all_of(projected.begin(), projected.end(), [&](cv::Point2f point) {
            return point.x >= 0 && point.y >= 0 && point.x <= size.width - 1 && point.y <= size.height - 1;
        });
        const bool looked_for = !looked.empty() && std::all_of(projected.begin(), projected.end(), [&](cv::Point2f point) {
            return point.x >= looked.x && point.y >= looked.y && point.x <= looked.x + looked.width - 1 &&
                   point.y <= looked.y + looked.height - 1;
        });
        if (inside && !looked_for) return false;
    }
    return true;
}

// How far a chessboard corner may lie from where the corners around it put it, as a fraction of its
// distance to its neighbours. Corners found whole at full resolution stay within 0.035 of a square
// (the shared chessboard photos and the recorded Gloworm folders, lens distortion included); each
// board with wrong corners a downscaled pass returned on those folders had one 0.5 to 0.76 of a
// square off (its other wrong corners 0.1 to 0.4).
constexpr double grid_tolerance = 0.1;

// Whether every corner of a chessboard (in row order) lies where its neighbours put it: a
// homography from the board to the image, fitted to the corners around it (one square away, or two
// at the board's corners) but not to itself, maps its board position within grid_tolerance of a
// square of where it was found. A downscaled pass now and then returns a board with a few corners
// on the wrong structure; their refinement at full resolution cannot bring them back.
bool corners_fit_grid(const msd_pattern &pattern, const std::vector<cv::Point2f> &points) {
    const int columns = pattern.columns, rows = pattern.rows;
    const auto at = [&](int column, int row) { return points[size_t(row * columns + column)]; };
    std::vector<cv::Point2f> on_board, in_image;
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < columns; ++column) {
            for (int reach = 1; reach <= 2; ++reach) {
                on_board.clear();
                in_image.clear();
                for (int r = std::max(0, row - reach); r <= std::min(rows - 1, row + reach); ++r) {
                    for (int c = std::max(0, column - reach); c <= std::min(columns - 1, column + reach); ++c) {
                        if (r == row && c == column) continue;
                        on_board.emplace_back(float(c), float(r));
                        in_image.push_back(at(c, r));
                    }
                }
                if (on_board.size() >= 6) break;
            }
            const cv::Mat homography = cv::findHomography(on_board, in_image, 0);
            if (homography.empty()) return false;
            std::vector<cv::Point2f> predicted;
            cv::perspectiveTransform(std::vector<cv::Point2f>{{float(column), float(row)}}, predicted, homography);
            const cv::Point2f point = at(column, row);
            double spacing = 0;
            int neighbours = 0;
            constexpr int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
            for (const auto &step : steps) {
                const int c = column + step[0], r = row + step[1];
                if (c < 0 || r < 0 || c >= columns || r >= rows) continue;
                spacing += cv::norm(at(c, r) - point);
                ++neighbours;
            }
            spacing /= neighbours;
            if (!(cv::norm(predicted[0] - point) <= grid_tolerance * spacing)) return false;
        }
    }
    return true;
}

bool detect_chessboard_fast(const msd_pattern &pattern, const cv::Mat &gray, const cv::Mat &small, double scale,
                            msd_detection &result, bool adaptive = false) {
    std::vector<cv::Point2f> points;
    // No adaptive threshold in the passes: where it finds no board, OpenCV 4.6 tries one threshold
    // window after another, which took 60 to 1500 ms on 1920x1080 frames whose boards the global
    // threshold finds in a few (see BENCHMARKS.md). The search at half scale
    // (detect_chessboard_half) and full mode, which come after the passes failed, keep it.
    const int flags = cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK | (adaptive ? cv::CALIB_CB_ADAPTIVE_THRESH : 0);
    if (!cv::findChessboardCorners(small, cv::Size(pattern.columns, pattern.rows), points, flags)) return false;
    for (cv::Point2f &point : points) point = upscale(point, scale, scale);
    // A board whose corners do not all settle at full resolution, or do not hold together there,
    // is searched for again, at a larger scale or in full.
    if (!refine_chessboard(pattern, gray, points) || !corners_fit_grid(pattern, points)) return false;
    order_chessboard(pattern, points);
    add_chessboard_corners(points, result);
    return true;
}

// Board markers found in `small` (`gray` shrunk by `scale`) and refined on `gray` into `kept`;
// whether they account for the whole board as far as `gray` shows it.
bool find_board_markers_fast(const msd_detector &detector, const cv::Mat &gray, const cv::Mat &small, double scale,
                             Markers &kept) {
    Markers found;
    std::vector<std::vector<cv::Point2f>> rejected;
    cv::aruco::detectMarkers(small, detector.dictionary, found.corners, found.ids, detector.parameters, rejected);
    kept = Markers{};
    if (found.ids.empty()) return false;
    for (auto *set : {&found.corners, &rejected}) {
        for (auto &corners : *set) {
            for (cv::Point2f &point : corners) point = upscale(point, scale, scale);
        }
    }
    refine_marker_corners(gray, detector.dictionary->markerSize, found.corners);
    // Markers the downscaled pass saw as shapes but could not read are read again at full
    // resolution where the board's layout says a marker should be.
    if (!has_every_board_marker(detector, found)) {
        cv::aruco::refineDetectedMarkers(gray, detector.board, found.corners, found.ids, rejected, cv::noArray(),
                                         cv::noArray(), 10.f, 3.f, true, cv::noArray(), detector.parameters);
    }
    kept = keep_board_markers(detector, std::move(found));
    return !kept.ids.empty() && accounts_for_board(detector, kept, gray.size());
}

// How far a ChArUco corner found from a downscaled pass may lie from where the corners around it put
// it, as a fraction of its distance to the nearest of them. Corners that full mode finds lie within
// a thousandth of a square of it on synthetic views; the wrong ones a downscaled pass gave at
// 3840x2160 (a corner refined onto a marker's corner) lay 0.055 of a square off.
constexpr double charuco_grid_tolerance = 0.03;

// Whether every ChArUco corner of `found` lies where the board's corners around it put it: a
// homography from the board to the image fitted to the corners found within one square of it (two
// when fewer than six are), not to itself, maps its board position within charuco_grid_tolerance
// of its distance to the nearest of them. Corners with too few neighbours found are not judged.
bool charuco_corners_fit_grid(const msd_detector &detector, const msd_detection &found) {
    if (!detector.charuco) return true;
    const std::vector<cv::Point3f> &board = detector.charuco->chessboardCorners;
    const double square = double(detector.charuco->getSquareLength());
    const size_t count = found.corner_ids.size();
    std::vector<cv::Point2f> on_board, in_image;
    for (size_t index = 0; index < count; ++index) {
        const cv::Point3f own = board[size_t(found.corner_ids[index])];
        const cv::Point2f point(found.corner_points[2 * index], found.corner_points[2 * index + 1]);
        double nearest = HUGE_VAL;
        for (int reach = 1; reach <= 2; ++reach) {
            on_board.clear();
            in_image.clear();
            nearest = HUGE_VAL;
            for (size_t other = 0; other < count; ++other) {
                if (other == index) continue;
                const cv::Point3f at = board[size_t(found.corner_ids[other])];
                if (std::abs(at.x - own.x) > reach * square * 1.01 || std::abs(at.y - own.y) > reach * square * 1.01) continue;
                on_board.emplace_back(at.x, at.y);
                in_image.emplace_back(found.corner_points[2 * other], found.corner_points[2 * other + 1]);
                nearest = std::min(nearest, double(cv::norm(in_image.back() - point)));
            }
            if (on_board.size() >= 6) break;
        }
        if (on_board.size() < 4) continue;
        // The homography by least squares (the direct linear transform, h33 = 1), in coordinates
        // centred on the corner judged and scaled by a square and by `nearest`, so that it is well
        // conditioned; the corner's own board position is then the origin, mapped to (h13, h23).
        const size_t rows = 2 * on_board.size();
        cv::Mat a(int(rows), 8, CV_64F, cv::Scalar(0)), b(int(rows), 1, CV_64F);
        for (size_t k = 0; k < on_board.size(); ++k) {
            const double u = (on_board[k].x - own.x) / square, v = (on_board[k].y - own.y) / square;
            const double x = (in_image[k].x - point.x) / nearest, y = (in_image[k].y - point.y) / nearest;
            double *first = a.ptr<double>(int(2 * k)), *second = a.ptr<double>(int(2 * k + 1));
            first[0] = u, first[1] = v, first[2] = 1, first[6] = -x * u, first[7] = -x * v;
            second[3] = u, second[4] = v, second[5] = 1, second[6] = -y * u, second[7] = -y * v;
            b.at<double>(int(2 * k)) = x;
            b.at<double>(int(2 * k + 1)) = y;
        }
        cv::Mat h;
        if (!cv::solve(a, b, h, cv::DECOMP_QR)) return false;
        // The corner's offset from where its neighbours put it, in units of `nearest`.
        if (!(std::hypot(h.at<double>(2), h.at<double>(5)) <= charuco_grid_tolerance)) return false;
    }
    return true;
}

bool detect_board_fast(const msd_detector &detector, const cv::Mat &gray, const cv::Mat &small, double scale,
                       msd_detection &result, msd_detection *partial, size_t &partial_markers, Markers *seen) {
    Markers kept;
    bool whole = find_board_markers_fast(detector, gray, small, scale, kept);
    if (whole) {
        // ChArUco corners from markers a downscaled pass found stand only when they hold together at
        // full resolution; otherwise the board is searched at full resolution.
        msd_detection found;
        add_markers_and_corners(detector, gray, kept, found);
        if (charuco_corners_fit_grid(detector, found)) {
            result = std::move(found);
            return true;
        }
        whole = false;
    }
    if (seen && kept.ids.size() > seen->ids.size()) *seen = kept;
    if (partial && kept.ids.size() > partial_markers) {
        *partial = msd_detection{};
        add_markers_and_corners(detector, gray, kept, *partial);
        partial_markers = kept.ids.size();
    }
    return false;
}

// The downscaled passes' scales: `first` (1/n, see fast_scale), then about doubled (n halved,
// rounded) while still shrinking.
std::vector<double> pass_scales(double first) {
    std::vector<double> scales;
    if (!(first < 1)) return scales;
    for (long factor = std::lround(1 / first); factor >= 2;) {
        scales.push_back(1.0 / double(factor));
        const long next = std::lround(double(factor) / 2);
        if (next >= factor) break;
        factor = next;
    }
    return scales;
}

// The passes detect_fast runs over an image of full_width x full_height: pass_scales from the scale
// `feature_side` calls for. For a chessboard, then the typical board's passes not run yet (a board
// other than the one seen before: for the frame before's size alone, a board that changed size
// was left to the full-resolution search, 100 to 500 ms on the recorded folders, where a pass finds
// it in a few), and last one coarser pass, twice as coarse as the first or as coarse as the
// smallest working side allows: a board larger than the typical one, whose squares the passes at
// the typical scale see too large to be taken for squares (on a real 960x720 folder, a board
// found at 1/3 and 1/4 but not at 1/2 took 100 ms at full resolution). A pass that finds nothing
// costs a few per cent of a search at full resolution.
std::vector<double> search_scales(const msd_detector &detector, double full_width, double full_height,
                                  double feature_side) {
    std::vector<double> scales = pass_scales(fast_scale(detector, full_width, full_height, feature_side));
    if (scales.empty() || detector.pattern.kind != MSD_PATTERN_CHESSBOARD) return scales;
    const auto add = [&](double scale) {
        if (std::find(scales.begin(), scales.end(), scale) == scales.end()) scales.push_back(scale);
    };
    if (feature_side > 0) {
        for (double scale : pass_scales(fast_scale(detector, full_width, full_height))) add(scale);
    }
    const long first = std::lround(1 / scales.front());
    const long coarsest = long(std::max(full_width, full_height) / smallest_working_side);
    const long coarse = std::min(2 * first, coarsest);
    if (coarse > first) add(1.0 / double(coarse));
    return scales;
}

// The size `shrink` gives `image` at `scale` (as cv::resize computes it).
cv::Size scaled_size(const cv::Mat &image, double scale) {
    return cv::Size(cvRound(image.cols * scale), cvRound(image.rows * scale));
}

// `image` shrunk by `scale` (1/n) with area averaging. Given as a scale rather than a size,
// cv::resize averages whole n x n blocks (its fast path, about 50 times faster at 1280x720 than the
// general one, which weighs fractions of pixels).
void shrink(const cv::Mat &image, cv::Mat &small, double scale) {
    cv::resize(image, small, cv::Size(), scale, scale, cv::INTER_AREA);
}

// Board markers found in `part` (the region where the frame before showed the board) by the
// downscaled passes (from the scale `feature_side` calls for) or, when none accounts for the whole
// board as far as `part` shows it, at full resolution. When the passes ran and saw not one board
// marker, the board has left the region (or is too blurred there for them): nothing is returned
// without the full-resolution search, and the caller searches the whole image, which finds what
// that search would have. On views that change from one frame to the next, the full-resolution
// search of a region the board has left was the costliest part of a frame.
Markers find_board_markers(const msd_detector &detector, const cv::Mat &part, double full_width, double full_height,
                           double feature_side) {
    const std::vector<double> scales = pass_scales(fast_scale(detector, full_width, full_height, feature_side));
    cv::Mat small;
    bool passed = false, saw_marker = false;
    for (double scale : scales) {
        const cv::Size working = scaled_size(part, scale);
        if (working.width < 32 || working.height < 32) continue;
        shrink(part, small, scale);
        Markers kept;
        if (find_board_markers_fast(detector, part, small, scale, kept)) return kept;
        passed = true;
        saw_marker = saw_marker || !kept.ids.empty();
    }
    if (passed && !saw_marker) return Markers{};
    return find_markers_full(detector, part);
}

}  // namespace

bool detect_near(const msd_detector &detector, const cv::Mat &gray, cv::Rect near, double feature_side,
                 msd_detection &result, bool &searched) {
    searched = false;
    if (detector.pattern.kind != MSD_PATTERN_CHESSBOARD && !detector.board) return false;
    const cv::Rect part = near & cv::Rect(0, 0, gray.cols, gray.rows);
    // Searching most of the image first would only risk searching it twice.
    if (part.width < 32 || part.height < 32 || 4 * double(part.area()) > 3 * double(gray.total())) return false;
    searched = true;
    const cv::Mat view = gray(part);
    const cv::Point2f offset(float(part.x), float(part.y));
    if (detector.pattern.kind == MSD_PATTERN_CHESSBOARD) {
        // A chessboard is found whole or not at all. The part is searched within a budget: its
        // downscaled passes, and at full resolution only when it holds at most a quarter of the
        // image's pixels. A search at full resolution that finds no board runs OpenCV's whole
        // ladder of thresholds (up to 56 of them): on parts that the board had left, it took 0.4
        // to 1.5 s on real 1920x1080 folders, where the frame alone took 8 to 12 ms, and the
        // whole image was searched after it all the same. The whole image's search follows at
        // once instead, and a failed full-resolution search of the part costs at most about a
        // quarter of the image's.
        msd_detection found;
        bool tried = false;
        if (!detect_fast(detector, view, gray.cols, gray.rows, feature_side, found, tried, nullptr, 0)) {
            if (4 * double(part.area()) > double(gray.total())) return false;
            const std::vector<cv::Point2f> points = find_chessboard_full(detector.pattern, view);
            if (points.empty()) return false;
            found = msd_detection{};
            add_chessboard_corners(points, found);
        }
        // A corner refined near an edge of the part was refined on a window that edge cut.
        for (size_t index = 0; index + 1 < found.corner_points.size(); index += 2) {
            if (!clear_of_cut_edges(found.corner_points[index], found.corner_points[index + 1], part, gray.size())) return false;
        }
        move_detection(found, offset);
        result = std::move(found);
        return true;
    }
    Markers markers = find_board_markers(detector, view, gray.cols, gray.rows, feature_side);
    if (markers.ids.empty()) return false;
    for (const auto &corners : markers.corners) {
        for (const cv::Point2f &point : corners) {
            if (!clear_of_cut_edges(point.x, point.y, part, gray.size())) return false;
        }
    }
    for (auto &corners : markers.corners) {
        for (cv::Point2f &point : corners) point += offset;
    }
    if (!accounts_for_board(detector, markers, gray.size(), part)) return false;
    msd_detection found;
    add_markers_and_corners(detector, gray, markers, found);
    if (!charuco_corners_fit_grid(detector, found)) return false;
    result = std::move(found);
    return true;
}

bool detect_around_board(const msd_detector &detector, const cv::Mat &gray, const Markers &seen, msd_detection &result) {
    if (!detector.board || seen.ids.size() < 3) return false;
    const cv::aruco::Board &board = *detector.board;
    const cv::Mat homography = board_to_image(board, board_indices(board), seen);
    if (homography.empty()) return false;
    std::vector<cv::Point2f> outline, projected;
    for (const auto &object : board.objPoints) {
        for (const cv::Point3f &point : object) outline.emplace_back(point.x, point.y);
    }
    cv::perspectiveTransform(outline, projected, homography);
    for (const cv::Point2f &point : projected) {
        if (!std::isfinite(point.x) || !std::isfinite(point.y)) return false;
    }
    // The board's markers as the markers seen place them, with room for a homography fitted to part
    // of the board, for thresholding windows and for the cut edges' clearance.
    double x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;
    for (const cv::Point2f &point : projected) {
        x0 = std::min(x0, double(point.x)), y0 = std::min(y0, double(point.y));
        x1 = std::max(x1, double(point.x)), y1 = std::max(y1, double(point.y));
    }
    const double room = 0.15 * std::max(x1 - x0, y1 - y0) + detector.parameters->adaptiveThreshWinSizeMax +
                        cut_edge_clearance;
    const double left = std::floor(x0 - room), top = std::floor(y0 - room);
    const double right = std::ceil(x1 + room), bottom = std::ceil(y1 + room);
    if (!(right - left < gray.cols && bottom - top < gray.rows)) return false;
    const cv::Rect part = cv::Rect(int(left), int(top), int(right - left), int(bottom - top)) &
                          cv::Rect(0, 0, gray.cols, gray.rows);
    // Searching most of the image would cost about what the whole image does.
    if (part.width < 32 || part.height < 32 || 4 * double(part.area()) > 3 * double(gray.total())) return false;
    Markers markers = find_markers_full(detector, gray(part));
    if (markers.ids.size() < 3) return false;
    for (const auto &corners : markers.corners) {
        for (const cv::Point2f &point : corners) {
            if (!clear_of_cut_edges(point.x, point.y, part, gray.size())) return false;
        }
    }
    const cv::Point2f offset(float(part.x), float(part.y));
    for (auto &corners : markers.corners) {
        for (cv::Point2f &point : corners) point += offset;
    }
    if (!accounts_for_board(detector, markers, gray.size(), part)) return false;
    add_markers_and_corners(detector, gray, markers, result);
    return true;
}

bool detect_chessboard_half(const msd_detector &detector, const cv::Mat &gray, msd_detection &result) {
    if (detector.pattern.kind != MSD_PATTERN_CHESSBOARD || fast_scale(detector, gray.cols, gray.rows) >= 1) return false;
    cv::Mat half;
    shrink(gray, half, 0.5);
    return detect_chessboard_fast(detector.pattern, gray, half, 0.5, result, true);
}

double fast_scale(const msd_detector &detector, double width, double height, double feature_side) {
    const double side = feature_side > 0 ? feature_side : typical_feature_side(detector.pattern, width);
    if (!(side > 0) || typical_feature_side(detector.pattern, width) <= 0) return 1;
    const double target = detector.pattern.kind == MSD_PATTERN_CHESSBOARD ? working_square_side : working_marker_side;
    const double scale = std::max(target / side, smallest_working_side / std::max(width, height));
    if (scale > largest_useful_scale) return 1;
    // Whole n x n blocks (see shrink): the nearest 1/n, not below the smallest working side.
    const long factor = std::min(std::lround(1 / scale), long(std::max(width, height) / smallest_working_side));
    return factor >= 2 ? 1.0 / double(factor) : 1;
}

bool detect_fast(const msd_detector &detector, const cv::Mat &gray, double full_width, double full_height,
                 double feature_side, msd_detection &result, bool &tried, msd_detection *partial, int only_pass,
                 Markers *seen) {
    tried = false;
    size_t partial_markers = 0;
    if (detector.pattern.kind != MSD_PATTERN_CHESSBOARD && !detector.board) return false;
    // A pass that fails is tried again at about twice the scale (a smaller or more tilted board than
    // the typical one), while that still shrinks (search_scales has the passes); then the caller's
    // full-resolution search.
    const std::vector<double> scales = search_scales(detector, full_width, full_height, feature_side);
    const auto size_at = [&](double scale) { return scaled_size(gray, scale); };
    // A search region too small to shrink is searched at full resolution.
    if (scales.empty() || size_at(scales[0]).width < 32 || size_at(scales[0]).height < 32) return false;
    tried = true;
    if (only_pass > 0) {
        const size_t pass = size_t(only_pass - 1) % scales.size();
        const cv::Size working = size_at(scales[pass]);
        if (working.width < 32 || working.height < 32) return false;
        cv::Mat small;
        shrink(gray, small, scales[pass]);
        return detector.pattern.kind == MSD_PATTERN_CHESSBOARD
                   ? detect_chessboard_fast(detector.pattern, gray, small, scales[pass], result)
                   : detect_board_fast(detector, gray, small, scales[pass], result, partial, partial_markers, seen);
    }
    // Each pass's image is shrunk from the full image by whole blocks (see shrink), which reads it
    // fast enough that chaining the passes' images saves nothing.
    cv::Mat small;
    for (const double scale : scales) {
        const cv::Size working = size_at(scale);
        if (working.width < 32 || working.height < 32) continue;
        shrink(gray, small, scale);
        const bool found = detector.pattern.kind == MSD_PATTERN_CHESSBOARD
                               ? detect_chessboard_fast(detector.pattern, gray, small, scale, result)
                               : detect_board_fast(detector, gray, small, scale, result, partial, partial_markers, seen);
        if (found) return true;
    }
    return false;
}

}  // namespace msd
