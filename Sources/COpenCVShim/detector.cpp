// Dictionaries, detectors for the four pattern kinds, detection results and printable targets.
#include "shim.hpp"

#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <memory>
#include <vector>

#include "circles_grid.hpp"
#include "detector.hpp"

namespace msd {
namespace {

constexpr int minimum_side = 16;

int32_t marker_count(const cv::aruco::Dictionary &dictionary) { return dictionary.bytesList.rows; }

// The square (column, row) of a ChArUco board that holds marker `index`.
cv::Point marker_square(const cv::aruco::CharucoBoard &board, size_t index) {
    const cv::Point3f top_left = board.objPoints[index][0];
    const float side = board.getSquareLength();
    return {int(std::floor(top_left.x / side)), int(std::floor(top_left.y / side))};
}

// Rebuilds a ChArUco board's markers in the layout OpenCV used before 4.6 for even row counts: a
// marker in every square whose column + row is even (so the top-left square holds marker 0), ids
// row by row from the top. Then recomputes which markers (and which of their corners) surround each
// chessboard corner, which interpolateCornersCharuco relies on.
void use_legacy_layout(cv::aruco::CharucoBoard &board) {
    const cv::Size squares = board.getChessboardSize();
    const float side = board.getSquareLength();
    const float inset = (side - board.getMarkerLength()) / 2;
    const float length = board.getMarkerLength();
    board.objPoints.clear();
    board.ids.clear();
    for (int row = 0; row < squares.height; ++row) {
        for (int column = 0; column < squares.width; ++column) {
            if ((row + column) % 2 != 0) continue;
            const cv::Point3f origin(column * side + inset, row * side + inset, 0);
            board.objPoints.push_back({origin, origin + cv::Point3f(length, 0, 0), origin + cv::Point3f(length, length, 0),
                                       origin + cv::Point3f(0, length, 0)});
            board.ids.push_back(int(board.ids.size()));
        }
    }
    // Chessboard corner (c, r) is shared by squares (c, r), (c+1, r), (c, r+1), (c+1, r+1); the
    // two of them that hold markers touch it with their bottom-right, bottom-left, top-right or
    // top-left corner (OpenCV's corner indices 2, 3, 1, 0).
    const int inner_columns = squares.width - 1;
    board.nearestMarkerIdx.assign(board.chessboardCorners.size(), {});
    board.nearestMarkerCorners.assign(board.chessboardCorners.size(), {});
    for (size_t marker = 0; marker < board.objPoints.size(); ++marker) {
        const cv::Point square = marker_square(board, marker);
        const struct { int dx, dy, corner; } touching[] = {{-1, -1, 0}, {0, -1, 1}, {0, 0, 2}, {-1, 0, 3}};
        for (const auto &touch : touching) {
            const int column = square.x + touch.dx, row = square.y + touch.dy;
            if (column < 0 || row < 0 || column >= inner_columns || row >= squares.height - 1) continue;
            const size_t corner = size_t(row * inner_columns + column);
            board.nearestMarkerIdx[corner].push_back(int(marker));
            board.nearestMarkerCorners[corner].push_back(touch.corner);
        }
    }
}

void check_marker_supply(const msd_detector &detector, int64_t needed, int64_t first) {
    const int64_t available = marker_count(*detector.dictionary);
    if (first < 0 || needed > available - first) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "the board needs markers %lld...%lld but the dictionary has only %lld (0...%lld)",
             (long long)first, (long long)(first + needed - 1), (long long)available, (long long)(available - 1));
    }
}

// Lengths OpenCV's 32-bit floats hold, and whose ratios keep markers from collapsing to a point.
void check_lengths(std::initializer_list<std::pair<const char *, double>> lengths) {
    double shortest = HUGE_VAL, longest = 0;
    for (const auto &[name, length] : lengths) {
        if (!(length >= MSD_LENGTH_MIN && length <= MSD_LENGTH_MAX)) {
            fail(SHIM_STATUS_INVALID_ARGUMENT, "%s=%g is outside %g...%g (lengths are in any one unit)", name, length,
                 MSD_LENGTH_MIN, MSD_LENGTH_MAX);
        }
        shortest = std::min(shortest, length);
        longest = std::max(longest, length);
    }
    if (longest / shortest > MSD_LENGTH_MAX_RATIO) {
        std::string names;
        for (const auto &[name, length] : lengths) names += std::string(names.empty() ? "" : ", ") + name + "=" + std::to_string(length);
        fail(SHIM_STATUS_INVALID_ARGUMENT, "the board's lengths (%s) differ more than %g times", names.c_str(),
             MSD_LENGTH_MAX_RATIO);
    }
}

void configure(msd_detector &detector, const msd_dictionary *dictionary) {
    const msd_pattern &pattern = detector.pattern;
    if (pattern.kind != MSD_PATTERN_CHESSBOARD && !is_circle_grid(pattern)) {
        require(dictionary, "dictionary");
        detector.dictionary = dictionary->dictionary;
        detector.parameters = cv::aruco::DetectorParameters::create();
    }
    switch (pattern.kind) {
    case MSD_PATTERN_ARUCO: return;
    case MSD_PATTERN_ARUCO_GRID: {
        if (pattern.columns < 1 || pattern.rows < 1) {
            fail(SHIM_STATUS_INVALID_ARGUMENT, "a grid board needs at least 1x1 markers, not %dx%d", pattern.columns,
                 pattern.rows);
        }
        check_lengths({{"marker", pattern.marker_length}, {"gap", pattern.marker_separation}});
        check_marker_supply(detector, int64_t(pattern.columns) * pattern.rows, pattern.first_marker);
        detector.board = cv::aruco::GridBoard::create(pattern.columns, pattern.rows, float(pattern.marker_length),
                                                      float(pattern.marker_separation), detector.dictionary,
                                                      pattern.first_marker);
        detector.board_ids = detector.board->ids;
        return;
    }
    case MSD_PATTERN_CHARUCO: {
        if (pattern.columns < 2 || pattern.rows < 2) {
            fail(SHIM_STATUS_INVALID_ARGUMENT, "a ChArUco board needs at least 2x2 squares, not %dx%d", pattern.columns,
                 pattern.rows);
        }
        check_lengths({{"square", pattern.square_length}, {"marker", pattern.marker_length}});
        if (!(float(pattern.marker_length) < float(pattern.square_length))) {
            fail(SHIM_STATUS_INVALID_ARGUMENT, "a ChArUco marker (marker=%.12g) must be smaller than its square (square=%.12g)",
                 pattern.marker_length, pattern.square_length);
        }
        check_marker_supply(detector, int64_t(pattern.columns) * pattern.rows / 2, 0);
        detector.charuco = cv::aruco::CharucoBoard::create(pattern.columns, pattern.rows, float(pattern.square_length),
                                                           float(pattern.marker_length), detector.dictionary);
        if (pattern.legacy_layout && pattern.rows % 2 == 0) use_legacy_layout(*detector.charuco);
        detector.board = detector.charuco;
        detector.board_ids = detector.charuco->ids;
        std::sort(detector.board_ids.begin(), detector.board_ids.end());
        return;
    }
    case MSD_PATTERN_CHESSBOARD:
        if (pattern.columns < 3 || pattern.rows < 3) {
            fail(SHIM_STATUS_INVALID_ARGUMENT, "a chessboard needs at least 3x3 inner corners, not %dx%d", pattern.columns,
                 pattern.rows);
        }
        return;
    case MSD_PATTERN_CIRCLES:
    case MSD_PATTERN_ACIRCLES:
        if (pattern.columns < 2 || pattern.rows < 2) {
            fail(SHIM_STATUS_INVALID_ARGUMENT, "a circle grid needs at least 2x2 circles, not %dx%d", pattern.columns,
                 pattern.rows);
        }
        check_lengths({{"spacing", pattern.square_length}});
        return;
    }
    fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown pattern kind %d", int(pattern.kind));
}

}  // namespace

// Markers of the pattern's dictionary. For boards: only the board's ids, one detection per id (the
// largest, when OpenCV reports a marker twice from nested contours), and markers the first pass
// rejected are recovered from the board's layout (cv::aruco::refineDetectedMarkers).
Markers find_markers_full(const msd_detector &detector, const cv::Mat &gray) {
    Markers found;
    std::vector<std::vector<cv::Point2f>> rejected;
    cv::aruco::detectMarkers(gray, detector.dictionary, found.corners, found.ids, detector.parameters, rejected);
    if (detector.board && !has_every_board_marker(detector, found)) {
        cv::aruco::refineDetectedMarkers(gray, detector.board, found.corners, found.ids, rejected, cv::noArray(),
                                         cv::noArray(), 10.f, 3.f, true, cv::noArray(), detector.parameters);
    }
    return keep_board_markers(detector, std::move(found));
}

void move_detection(msd_detection &result, cv::Point2f offset) {
    for (size_t index = 0; index + 1 < result.marker_corners.size(); index += 2) {
        result.marker_corners[index] += offset.x;
        result.marker_corners[index + 1] += offset.y;
    }
    for (size_t index = 0; index + 1 < result.corner_points.size(); index += 2) {
        result.corner_points[index] += offset.x;
        result.corner_points[index + 1] += offset.y;
    }
}

bool clear_of_cut_edges(float x, float y, cv::Rect part, cv::Size image) {
    const float clearance = float(cut_edge_clearance);
    if (part.x > 0 && x < clearance) return false;
    if (part.y > 0 && y < clearance) return false;
    if (part.x + part.width < image.width && x > float(part.width - 1) - clearance) return false;
    if (part.y + part.height < image.height && y > float(part.height - 1) - clearance) return false;
    return true;
}

void drop_near_cut_edges(const msd_detector &detector, msd_detection &result, cv::Rect part, cv::Size image) {
    const auto clear = [&](const std::vector<float> &xy, size_t first, size_t count) {
        for (size_t index = first; index < first + count; index += 2) {
            if (!clear_of_cut_edges(xy[index], xy[index + 1], part, image)) return false;
        }
        return true;
    };
    msd_detection kept;
    for (size_t marker = 0; marker < result.marker_ids.size(); ++marker) {
        if (!clear(result.marker_corners, 8 * marker, 8)) continue;
        kept.marker_ids.push_back(result.marker_ids[marker]);
        kept.marker_corners.insert(kept.marker_corners.end(), result.marker_corners.begin() + 8 * marker,
                                   result.marker_corners.begin() + 8 * (marker + 1));
    }
    const bool chessboard = detector.pattern.kind == MSD_PATTERN_CHESSBOARD || is_circle_grid(detector.pattern);
    if (!chessboard || clear(result.corner_points, 0, result.corner_points.size())) {
        for (size_t corner = 0; corner < result.corner_ids.size(); ++corner) {
            if (!clear(result.corner_points, 2 * corner, 2)) continue;
            kept.corner_ids.push_back(result.corner_ids[corner]);
            kept.corner_points.push_back(result.corner_points[2 * corner]);
            kept.corner_points.push_back(result.corner_points[2 * corner + 1]);
        }
    }
    kept.has_sharpness = result.has_sharpness;
    kept.sharpness = result.sharpness;
    result = std::move(kept);
}

bool has_every_board_marker(const msd_detector &detector, const Markers &found) {
    if (found.ids.size() < detector.board_ids.size()) return false;
    std::vector<int> ids = found.ids;
    std::sort(ids.begin(), ids.end());
    return std::includes(ids.begin(), ids.end(), detector.board_ids.begin(), detector.board_ids.end());
}

Markers keep_board_markers(const msd_detector &detector, Markers found) {
    if (!detector.board) return found;
    std::vector<size_t> kept;
    for (size_t index = 0; index < found.ids.size(); ++index) {
        const bool on_board = std::binary_search(detector.board_ids.begin(), detector.board_ids.end(), found.ids[index]);
        if (!on_board) continue;
        auto same = std::find_if(kept.begin(), kept.end(), [&](size_t other) { return found.ids[other] == found.ids[index]; });
        if (same != kept.end()) {
            if (cv::arcLength(found.corners[index], true) > cv::arcLength(found.corners[*same], true)) *same = index;
            continue;
        }
        kept.push_back(index);
    }
    Markers result;
    for (size_t index : kept) {
        result.corners.push_back(found.corners[index]);
        result.ids.push_back(found.ids[index]);
    }
    return result;
}

bool refine_chessboard(const msd_pattern &pattern, const cv::Mat &gray, std::vector<cv::Point2f> &points) {
    const int columns = pattern.columns, rows = pattern.rows;
    const std::vector<cv::Point2f> found = points;
    bool settled = true;
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < columns; ++column) {
            const size_t index = size_t(row * columns + column);
            // Each corner looks as far as four tenths of the way to its nearest neighbour, so that
            // a board seen at a slant keeps every window on one corner.
            double nearest = HUGE_VAL;
            constexpr int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
            for (const auto &step : steps) {
                const int c = column + step[0], r = row + step[1];
                if (c < 0 || r < 0 || c >= columns || r >= rows) continue;
                nearest = std::min(nearest, double(cv::norm(found[size_t(r * columns + c)] - found[index])));
            }
            settled = settle_saddle(gray, points[index], std::clamp(0.4 * nearest, 3.0, 15.0)) && settled;
        }
    }
    return settled;
}

void order_chessboard(const msd_pattern &pattern, std::vector<cv::Point2f> &points) {
    const int columns = pattern.columns, rows = pattern.rows;
    if (columns % 2 != rows % 2 || points.size() != size_t(columns) * size_t(rows)) return;
    const auto at = [&](int row, int column) { return points[size_t(row * columns + column)]; };
    // From the first row's mean to the last's, and from the first column's to the last's.
    cv::Point2d down(0, 0), across(0, 0);
    for (int column = 0; column < columns; ++column) down += cv::Point2d(at(rows - 1, column) - at(0, column));
    for (int row = 0; row < rows; ++row) across += cv::Point2d(at(row, columns - 1) - at(row, 0));
    down /= double(columns);
    across /= double(rows);
    // The orders the corners can be given in, each with where its rows run down: as found, turned
    // half a turn, and for a square board turned a quarter turn either way (its first row then one
    // of the columns found).
    enum class Turn { none, half, quarter, threeQuarters };
    std::vector<std::pair<Turn, cv::Point2d>> turns = {{Turn::none, down}, {Turn::half, -down}};
    if (columns == rows) {
        turns.push_back({Turn::quarter, across});
        turns.push_back({Turn::threeQuarters, -across});
    }
    const auto lower = [](cv::Point2d a, cv::Point2d b) { return a.y != b.y ? a.y > b.y : a.x > b.x; };
    Turn best = Turn::none;
    cv::Point2d best_down = down;
    for (const auto &[turn, rows_down] : turns) {
        if (lower(rows_down, best_down)) best = turn, best_down = rows_down;
    }
    if (best == Turn::none) return;
    const std::vector<cv::Point2f> found = points;
    const int n = columns;  // the quarter turns are of a square board
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < columns; ++column) {
            cv::Point2f &point = points[size_t(row * columns + column)];
            switch (best) {
            case Turn::none: break;
            case Turn::half: point = found[size_t((rows - 1 - row) * columns + (columns - 1 - column))]; break;
            // The first row is the first column found, read upwards; the last, the last column.
            case Turn::quarter: point = found[size_t((n - 1 - column) * n + row)]; break;
            // The first row is the last column found, read downwards; the last, the first column.
            case Turn::threeQuarters: point = found[size_t(column * n + (n - 1 - row))]; break;
            }
        }
    }
}

std::vector<cv::Point2f> find_chessboard_full(const msd_pattern &pattern, const cv::Mat &gray) {
    std::vector<cv::Point2f> points;
    const int flags = cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK;
    if (!cv::findChessboardCorners(gray, cv::Size(pattern.columns, pattern.rows), points, flags)) return {};
    refine_chessboard(pattern, gray, points);
    order_chessboard(pattern, points);
    return points;
}

void add_chessboard_corners(const std::vector<cv::Point2f> &points, msd_detection &result) {
    for (size_t index = 0; index < points.size(); ++index) {
        result.corner_ids.push_back(int32_t(index));
        result.corner_points.push_back(points[index].x);
        result.corner_points.push_back(points[index].y);
    }
}

namespace {

// Where the markers around ChArUco corner `id` put it, and how far from it their nearest corners
// lie: each detected marker touching the corner maps the board onto the image by its own four
// corners (as interpolateCornersCharuco does), and its diagonal through the corner, times the
// white margin over the marker's side, is the corner's distance from that marker's corner. Both
// are local, so they hold whatever the lens and however the board is tilted.
struct MarkerFrame {
    cv::Point2f predicted;
    std::vector<std::pair<cv::Point2f, double>> corners;  // a marker's corner, its expected distance
    double nearest = HUGE_VAL;                             // the smallest expected distance
};

bool marker_frame(const cv::aruco::CharucoBoard &board, const std::map<int, const std::vector<cv::Point2f> *> &found, int id,
                  MarkerFrame &frame) {
    if (id < 0 || size_t(id) >= board.nearestMarkerIdx.size()) return false;
    const double inset = (board.getSquareLength() - board.getMarkerLength()) / (2 * board.getMarkerLength());
    const cv::Point3f corner = board.chessboardCorners[size_t(id)];
    cv::Point2d sum(0, 0);
    for (size_t near = 0; near < board.nearestMarkerIdx[size_t(id)].size(); ++near) {
        const size_t marker = size_t(board.nearestMarkerIdx[size_t(id)][near]);
        const auto it = found.find(board.ids[marker]);
        if (it == found.end() || it->second->size() != 4) continue;
        const std::vector<cv::Point2f> &image = *it->second;
        std::vector<cv::Point2f> flat;
        for (const cv::Point3f &point : board.objPoints[marker]) flat.emplace_back(point.x, point.y);
        std::vector<cv::Point2f> mapped;
        cv::perspectiveTransform(std::vector<cv::Point2f>{{corner.x, corner.y}}, mapped, cv::getPerspectiveTransform(flat, image));
        if (!std::isfinite(mapped[0].x) || !std::isfinite(mapped[0].y)) continue;
        sum += cv::Point2d(mapped[0].x, mapped[0].y);
        const size_t touching = size_t(board.nearestMarkerCorners[size_t(id)][near]);
        const double expected = cv::norm(image[touching] - image[(touching + 2) % 4]) * inset;
        frame.corners.emplace_back(image[touching], expected);
        frame.nearest = std::min(frame.nearest, expected);
    }
    if (frame.corners.empty()) return false;
    frame.predicted = cv::Point2f(float(sum.x / double(frame.corners.size())), float(sum.y / double(frame.corners.size())));
    return true;
}

// A refined ChArUco corner nearer a marker's corner than this share of the distance expected
// there, or farther from the markers' prediction than this share of the nearest such distance, is
// suspect. On rendered views (160 views, 5,141 corners) corners within 0.3 px of the truth lay at
// 0.93 or more of the expected distance in 99 cases of 100; the 32 corners over 2 px off (blurred
// views tilted 60 to 70 degrees, the search settled on or towards a marker's corner) at a median
// 0.55 (0.37 to 1.17; two of the four above 0.8 lay far from the prediction).
constexpr double suspect_nearer = 0.8;
constexpr double suspect_farther = 0.6;

bool fits_frame(const MarkerFrame &frame, cv::Point2f point) {
    for (const auto &[marker_corner, expected] : frame.corners) {
        if (!(cv::norm(point - marker_corner) >= suspect_nearer * expected)) return false;
    }
    return cv::norm(point - frame.predicted) <= suspect_farther * frame.nearest;
}

// A suspect corner is settled again from the markers' prediction with reaches of half and of 0.3
// of the nearest expected distance, which no marker corner can enter. It keeps its place when the
// wider search comes back to it (the markers, not the corner, were off), takes the new one when
// both searches agree on a place that is not suspect, and is dropped otherwise: a corner on a
// marker's corner does not depend on how far the search looks, one pulled between the two does.
// Returns false when the corner is to be dropped.
bool check_suspect_corner(const cv::Mat &gray, const MarkerFrame &frame, cv::Point2f &point) {
    const double agree = std::max(0.25, 0.05 * frame.nearest);
    cv::Point2f wide = frame.predicted, narrow = frame.predicted;
    if (!settle_saddle(gray, wide, std::clamp(0.5 * frame.nearest, 2.0, 12.0))) return false;
    if (cv::norm(wide - point) <= agree) return true;
    if (!settle_saddle(gray, narrow, std::clamp(0.3 * frame.nearest, 2.0, 12.0))) return false;
    if (!(cv::norm(wide - narrow) <= agree) || !fits_frame(frame, wide)) return false;
    point = wide;
    return true;
}

// OpenCV 4.6 stops refining a ChArUco corner once a step moves it less than 0.1 px, and picks its
// window in whole pixels from the markers' corners, so where a corner ends depends on where the
// markers first put it: fast mode's markers (refined at full resolution) and full mode's (ArUco's
// contour corners) gave corners up to 0.2 px apart on real recordings, and a window one pixel
// larger moved a blurred corner 0.47 px. Settling each corner (settle_saddle) with a reach that
// stops a pixel short of the nearest marker corner, measured from the corners one square away
// (which both modes place alike), makes it depend on the image alone. Its window can still hold a
// marker's corner in a blurred, steeply tilted view (OpenCV's, seen askew, reaches it), so a
// corner the markers around it disown is checked again (check_suspect_corner) and dropped when the
// check fails.
void settle_charuco_corners(const cv::aruco::CharucoBoard &board, const cv::Mat &gray, const Markers &markers,
                            std::vector<cv::Point2f> &points, std::vector<int> &ids) {
    const int columns = board.getChessboardSize().width - 1;
    std::map<int, cv::Point2f> by_id;
    for (size_t index = 0; index < ids.size(); ++index) by_id[ids[index]] = points[index];
    std::map<int, const std::vector<cv::Point2f> *> found;
    for (size_t index = 0; index < markers.ids.size(); ++index) found[markers.ids[index]] = &markers.corners[index];
    // The nearest marker corner lies half the white margin around a marker away in x and in y.
    const double margin = (board.getSquareLength() - board.getMarkerLength()) / (2 * board.getSquareLength());
    size_t kept = 0;
    for (size_t index = 0; index < ids.size(); ++index) {
        const int column = ids[index] % columns;
        double square = HUGE_VAL;
        constexpr int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (const auto &step : steps) {
            const int neighbour_column = column + step[0];
            if (neighbour_column < 0 || neighbour_column >= columns) continue;
            const auto neighbour = by_id.find(ids[index] + step[0] + step[1] * columns);
            if (neighbour != by_id.end()) square = std::min(square, double(cv::norm(neighbour->second - points[index])));
        }
        // A corner that does not settle keeps OpenCV's place.
        if (square != HUGE_VAL) settle_saddle(gray, points[index], std::clamp(square * margin * std::sqrt(2.0) - 1, 2.0, 12.0));
        MarkerFrame frame;
        if (marker_frame(board, found, ids[index], frame) && !fits_frame(frame, points[index]) &&
            !check_suspect_corner(gray, frame, points[index])) {
            continue;
        }
        points[kept] = points[index];
        ids[kept] = ids[index];
        ++kept;
    }
    points.resize(kept);
    ids.resize(kept);
}

}  // namespace

void add_markers_and_corners(const msd_detector &detector, const cv::Mat &gray, const Markers &markers,
                             msd_detection &result) {
    for (size_t index = 0; index < markers.ids.size(); ++index) {
        result.marker_ids.push_back(markers.ids[index]);
        for (const cv::Point2f &point : markers.corners[index]) {
            result.marker_corners.push_back(point.x);
            result.marker_corners.push_back(point.y);
        }
    }
    if (!detector.charuco || markers.ids.empty()) return;
    std::vector<cv::Point2f> points;
    std::vector<int> point_ids;
    cv::aruco::interpolateCornersCharuco(markers.corners, markers.ids, gray, detector.charuco, points, point_ids);
    // OpenCV 4.6 moves each corner half a pixel left and up before cornerSubPix and back
    // afterwards, but cornerSubPix converges to the same saddle point either way, so the
    // result ends up half a pixel right and down of it. Undo that, so that ChArUco corners
    // use the same pixel-centre convention as markers and chessboard corners.
    for (cv::Point2f &point : points) point -= cv::Point2f(0.5f, 0.5f);
    settle_charuco_corners(*detector.charuco, gray, markers, points, point_ids);
    for (size_t index = 0; index < points.size(); ++index) {
        result.corner_ids.push_back(point_ids[index]);
        result.corner_points.push_back(points[index].x);
        result.corner_points.push_back(points[index].y);
    }
}

namespace {

// Variance of the Laplacian over the convex hull of everything detected: high for a sharp view of
// the target, low for a blurred one.
void measure_sharpness(const cv::Mat &gray, msd_detection &result) {
    std::vector<cv::Point2f> points;
    for (size_t index = 0; index + 1 < result.marker_corners.size(); index += 2) {
        points.emplace_back(result.marker_corners[index], result.marker_corners[index + 1]);
    }
    for (size_t index = 0; index + 1 < result.corner_points.size(); index += 2) {
        points.emplace_back(result.corner_points[index], result.corner_points[index + 1]);
    }
    if (points.empty()) return;
    std::vector<cv::Point2f> hull;
    cv::convexHull(points, hull);
    const cv::Rect region = cv::boundingRect(hull) & cv::Rect(0, 0, gray.cols, gray.rows);
    if (region.area() == 0) return;
    std::vector<cv::Point> outline;
    for (const cv::Point2f &point : hull) {
        outline.emplace_back(int(std::lround(point.x)) - region.x, int(std::lround(point.y)) - region.y);
    }
    cv::Mat mask = cv::Mat::zeros(region.size(), CV_8UC1);
    cv::fillConvexPoly(mask, outline, cv::Scalar(255));
    cv::Mat laplacian;
    cv::Laplacian(gray(region), laplacian, CV_16S);
    cv::Scalar mean, deviation;
    cv::meanStdDev(laplacian, mean, deviation, mask);
    result.has_sharpness = true;
    result.sharpness = deviation[0] * deviation[0];
}

void check_size(int width, int height) {
    if (width < minimum_side || height < minimum_side) {
        Failure failure{SHIM_STATUS_IMAGE_TOO_SMALL, ""};
        failure.width = width;
        failure.height = height;
        failure.message = "image of " + std::to_string(width) + "x" + std::to_string(height) +
                          " pixels is smaller than the " + std::to_string(minimum_side) + "x" +
                          std::to_string(minimum_side) + " a detector needs";
        throw failure;
    }
}

void detect_full(const msd_detector &detector, const cv::Mat &gray, msd_detection &result) {
    if (detector.pattern.kind == MSD_PATTERN_CHESSBOARD) {
        add_chessboard_corners(find_chessboard_full(detector.pattern, gray), result);
    } else {
        add_markers_and_corners(detector, gray, find_markers_full(detector, gray), result);
    }
}

// The part of the image to search: the whole image, or the options' region clipped to it (for YUYV
// widened to whole pixel pairs).
cv::Rect search_region(const shim_pixels &pixels, const msd_detect_options *options) {
    const cv::Rect whole(0, 0, pixels.width, pixels.height);
    if (!options || options->region_width == 0 || options->region_height == 0) return whole;
    if (options->region_width < 0 || options->region_height < 0) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "a search region cannot have a negative size (%dx%d)", options->region_width,
             options->region_height);
    }
    const int64_t right = int64_t(options->region_x) + options->region_width;
    const int64_t bottom = int64_t(options->region_y) + options->region_height;
    const int64_t x0 = std::max<int64_t>(options->region_x, 0), y0 = std::max<int64_t>(options->region_y, 0);
    const int64_t x1 = std::min<int64_t>(right, pixels.width), y1 = std::min<int64_t>(bottom, pixels.height);
    if (x1 <= x0 || y1 <= y0) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "the search region %dx%d at (%d, %d) lies outside the %dx%d image",
             options->region_width, options->region_height, options->region_x, options->region_y, pixels.width,
             pixels.height);
    }
    cv::Rect region(int(x0), int(y0), int(x1 - x0), int(y1 - y0));
    if (pixels.format == SHIM_PIXEL_FORMAT_YUYV) {
        const int left = region.x & ~1, end = std::min(pixels.width, (region.x + region.width + 1) & ~1);
        region = cv::Rect(left, region.y, end - left, region.height);
    }
    return region;
}

void detect(const msd_detector &detector, const shim_pixels *pixels, const msd_detect_options *options,
            msd_detection &result) {
    const cv::Mat wrapped = wrap(pixels);
    check_size(wrapped.cols, wrapped.rows);
    const msd_detect_mode mode = options ? options->mode : MSD_DETECT_FULL;
    if (mode != MSD_DETECT_FULL && mode != MSD_DETECT_FAST) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown detection mode %d (0 full, 1 fast)", int(mode));
    }
    const cv::Rect region = search_region(*pixels, options);
    check_size(region.width, region.height);
    const cv::Mat gray = msd::gray(wrapped(region), pixels->format);
    const bool downscaled_only = mode == MSD_DETECT_FAST && options->downscaled_only != 0;
    if (downscaled_only && options->downscaled_pass < 0) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "no downscaled pass %d: 0 runs them all, 1 the first", options->downscaled_pass);
    }
    const double feature_side = options ? options->hint_feature_side : 0;
    if (!(feature_side >= 0 && std::isfinite(feature_side))) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "a hint's feature side must be 0 or more pixels, not %g", feature_side);
    }
    const cv::Rect near = options ? cv::Rect(options->hint_x, options->hint_y, options->hint_width, options->hint_height)
                                  : cv::Rect();
    if (near.width < 0 || near.height < 0) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "a hint's rectangle cannot have a negative size (%dx%d)", near.width,
             near.height);
    }
    const bool whole_image = region.size() == wrapped.size();
    const bool hinted = mode == MSD_DETECT_FAST && options && options->hint != 0 && !downscaled_only && whole_image;
    bool searched_near = false;
    if (hinted && !near.empty() && detect_near(detector, gray, near, feature_side, result, searched_near)) {
        measure_sharpness(gray, result);
        return;
    }
    result = msd_detection{};
    if (is_circle_grid(detector.pattern)) {
        // Found whole or not at all, by cv::findCirclesGrid (fast mode first in a shrunk copy).
        detect_circles(detector, gray, mode == MSD_DETECT_FAST, result);
        if (!whole_image) drop_near_cut_edges(detector, result, region, wrapped.size());
        measure_sharpness(gray, result);
        if (region.x != 0 || region.y != 0) move_detection(result, cv::Point2f(float(region.x), float(region.y)));
        return;
    }
    bool tried = false;
    msd_detection partial;
    // A chessboard is looked for by the passes all the same: a frame without one costs them a few
    // milliseconds, and the frame where one comes back is found there, not by the full-resolution
    // search (up to half a second at 1280x720).
    const bool nothing_before = hinted && near.empty() && detector.pattern.kind != MSD_PATTERN_CHESSBOARD;
    // A board that has left the region where the frame before showed it may have changed its size
    // too (a cut, another view): the whole image is searched from the typical board's scale, not
    // from the markers' size before, which for a small board meant no downscaled pass at all.
    const double whole_side = hinted && !searched_near ? feature_side : 0;
    Markers seen;
    const bool fast = mode == MSD_DETECT_FAST && !nothing_before &&
                      detect_fast(detector, gray, double(wrapped.cols), double(wrapped.rows), whole_side,
                                  result, tried, downscaled_only ? &partial : nullptr,
                                  downscaled_only ? options->downscaled_pass : 0, &seen);
    if (!fast) {
        if (downscaled_only && tried) {
            result = std::move(partial);
        } else {
            result = msd_detection{};
            // Part of the board seen by a downscaled pass: the full-resolution search looks where
            // the board is before it looks everywhere.
            const bool around = tried && whole_image &&
                                (detect_around_board(detector, gray, seen, result) ||
                                 detect_chessboard_half(detector, gray, result));
            if (!around) {
                result = msd_detection{};
                detect_full(detector, gray, result);
            }
        }
    }
    // What a search of part of the image found near an edge that cuts the image is not what the
    // whole image shows there.
    if (!whole_image) drop_near_cut_edges(detector, result, region, wrapped.size());
    measure_sharpness(gray, result);
    if (region.x != 0 || region.y != 0) move_detection(result, cv::Point2f(float(region.x), float(region.y)));
}

// MARK: Printable targets

struct Canvas {
    cv::Mat image;
    int margin;

    // The largest whole number of pixels per `unit` at which `extent` units fit inside the margins.
    int scale(cv::Size2d extent) const {
        const double across = (image.cols - 2 * margin) / extent.width;
        const double down = (image.rows - 2 * margin) / extent.height;
        return int(std::floor(std::min(across, down)));
    }

    // The top-left pixel of a `size` pixels area centred on the canvas.
    cv::Point centred(cv::Size size) const { return {(image.cols - size.width) / 2, (image.rows - size.height) / 2}; }

    void draw_marker(const cv::aruco::Dictionary &dictionary, int id, cv::Point at, int side) {
        cv::Mat marker;
        dictionary.drawMarker(id, side, marker, 1);
        marker.copyTo(image(cv::Rect(at, cv::Size(side, side))));
    }
};

void require_pixels(int value, int minimum, const char *what) {
    if (value < minimum) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "the image is too small to draw this target: %s would be %d pixels (at least %d)",
             what, value, minimum);
    }
}

void render_charuco(const msd_detector &detector, Canvas &canvas) {
    const cv::aruco::CharucoBoard &board = *detector.charuco;
    const cv::Size squares = board.getChessboardSize();
    const int side = canvas.scale(cv::Size2d(squares));
    const int bits = detector.dictionary->markerSize + 2;
    const int marker_side = int(std::lround(side * board.getMarkerLength() / board.getSquareLength()));
    require_pixels(marker_side, bits, "a marker");
    const cv::Point origin = canvas.centred(cv::Size(squares.width * side, squares.height * side));
    std::vector<int> marker_at(size_t(squares.area()), -1);
    for (size_t index = 0; index < board.objPoints.size(); ++index) {
        const cv::Point square = marker_square(board, index);
        marker_at[size_t(square.y * squares.width + square.x)] = board.ids[index];
    }
    const int inset = (side - marker_side) / 2;
    for (int row = 0; row < squares.height; ++row) {
        for (int column = 0; column < squares.width; ++column) {
            const cv::Point corner = origin + cv::Point(column * side, row * side);
            const int id = marker_at[size_t(row * squares.width + column)];
            if (id < 0) {
                canvas.image(cv::Rect(corner, cv::Size(side, side))).setTo(0);
            } else {
                canvas.draw_marker(*detector.dictionary, id, corner + cv::Point(inset, inset), marker_side);
            }
        }
    }
}

void render_grid(const msd_detector &detector, Canvas &canvas) {
    const msd_pattern &pattern = detector.pattern;
    const double pitch = pattern.marker_length + pattern.marker_separation;
    const cv::Size2d extent(pattern.columns * pitch - pattern.marker_separation,
                            pattern.rows * pitch - pattern.marker_separation);
    // Pixels per unit of length, then whole pixels for markers and gaps.
    const double unit = std::min((canvas.image.cols - 2 * canvas.margin) / extent.width,
                                 (canvas.image.rows - 2 * canvas.margin) / extent.height);
    const int marker_side = int(std::floor(pattern.marker_length * unit));
    const int gap = int(std::floor(pattern.marker_separation * unit));
    require_pixels(marker_side, detector.dictionary->markerSize + 2, "a marker");
    require_pixels(gap, 1, "the gap between markers");
    const cv::Point origin = canvas.centred(cv::Size(pattern.columns * (marker_side + gap) - gap,
                                                     pattern.rows * (marker_side + gap) - gap));
    for (int row = 0; row < pattern.rows; ++row) {
        for (int column = 0; column < pattern.columns; ++column) {
            const int id = pattern.first_marker + row * pattern.columns + column;
            canvas.draw_marker(*detector.dictionary, id, origin + cv::Point(column, row) * (marker_side + gap), marker_side);
        }
    }
}

void render_chessboard(const msd_pattern &pattern, Canvas &canvas) {
    const cv::Size squares(pattern.columns + 1, pattern.rows + 1);
    const int side = canvas.scale(cv::Size2d(squares));
    require_pixels(side, 4, "a square");
    const cv::Point origin = canvas.centred(cv::Size(squares.width * side, squares.height * side));
    for (int row = 0; row < squares.height; ++row) {
        for (int column = 0; column < squares.width; ++column) {
            if ((row + column) % 2 != 0) continue;
            canvas.image(cv::Rect(origin + cv::Point(column * side, row * side), cv::Size(side, side))).setTo(0);
        }
    }
}

}  // namespace
}  // namespace msd

extern "C" {

shim_status msd_dictionary_create_predefined(msd_predefined_dictionary name, msd_dictionary **dictionary,
                                            shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(dictionary, "dictionary");
        *dictionary = nullptr;
        if (name < MSD_DICT_4X4_50 || name > MSD_DICT_APRILTAG_36h11) {
            msd::fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown predefined dictionary %d", int(name));
        }
        *dictionary = new msd_dictionary{cv::aruco::getPredefinedDictionary(int(name))};
    });
}

shim_status msd_dictionary_size_get(const msd_dictionary *dictionary, int32_t *marker_count, int32_t *bits_per_side,
                                   shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(dictionary, "dictionary");
        msd::require(marker_count, "marker_count");
        msd::require(bits_per_side, "bits_per_side");
        *marker_count = msd::marker_count(*dictionary->dictionary);
        *bits_per_side = dictionary->dictionary->markerSize;
    });
}

void msd_dictionary_free(msd_dictionary *dictionary) { delete dictionary; }

shim_status msd_detector_create(const msd_pattern *pattern, const msd_dictionary *dictionary, msd_detector **detector,
                               shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(pattern, "pattern");
        msd::require(detector, "detector");
        *detector = nullptr;
        auto result = std::make_unique<msd_detector>();
        result->pattern = *pattern;
        msd::configure(*result, dictionary);
        *detector = result.release();
    });
}

void msd_detector_free(msd_detector *detector) { delete detector; }

shim_status msd_detector_detect(const msd_detector *detector, const shim_pixels *pixels, msd_detection **detection,
                               shim_error *error) {
    return msd_detector_detect_with(detector, pixels, nullptr, detection, error);
}

shim_status msd_detector_detect_with(const msd_detector *detector, const shim_pixels *pixels,
                                    const msd_detect_options *options, msd_detection **detection, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(detector, "detector");
        msd::require(detection, "detection");
        *detection = nullptr;
        auto result = std::make_unique<msd_detection>();
        msd::detect(*detector, pixels, options, *result);
        *detection = result.release();
    });
}

shim_status msd_detector_fast_scale_get(const msd_detector *detector, int32_t width, int32_t height, double *scale,
                                       shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(detector, "detector");
        msd::require(scale, "scale");
        if (width < 1 || height < 1) msd::fail(SHIM_STATUS_INVALID_ARGUMENT, "no image is %dx%d pixels", width, height);
        *scale = msd::fast_scale(*detector, width, height);
    });
}

shim_status msd_detection_view_get(const msd_detection *detection, msd_detection_view *view, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(detection, "detection");
        msd::require(view, "view");
        *view = msd_detection_view{detection->marker_ids.size(), detection->marker_ids.data(),
                                   detection->marker_corners.data(), detection->corner_ids.size(),
                                   detection->corner_ids.data(), detection->corner_points.data(),
                                   detection->has_sharpness ? 1 : 0, detection->sharpness};
    });
}

void msd_detection_free(msd_detection *detection) { delete detection; }

shim_status msd_detector_render(const msd_detector *detector, int32_t width, int32_t height, int32_t margin,
                               msd_image **image, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(detector, "detector");
        msd::require(image, "image");
        *image = nullptr;
        if (width > MSD_RENDER_MAX_SIDE || height > MSD_RENDER_MAX_SIDE) {
            msd::fail(SHIM_STATUS_INVALID_ARGUMENT, "cannot draw a %dx%d target: at most %d pixels a side", width, height,
                      MSD_RENDER_MAX_SIDE);
        }
        if (width < 1 || height < 1 || margin < 0 || 2 * int64_t(margin) >= std::min(width, height)) {
            msd::fail(SHIM_STATUS_INVALID_ARGUMENT, "cannot draw a %dx%d target with a margin of %d pixels", width, height,
                      margin);
        }
        msd::Canvas canvas{cv::Mat(height, width, CV_8UC1, cv::Scalar(255)), margin};
        switch (detector->pattern.kind) {
        case MSD_PATTERN_ARUCO:
            msd::fail(SHIM_STATUS_INVALID_ARGUMENT, "loose markers have no printable layout; describe a grid board");
        case MSD_PATTERN_ARUCO_GRID: msd::render_grid(*detector, canvas); break;
        case MSD_PATTERN_CHARUCO: msd::render_charuco(*detector, canvas); break;
        case MSD_PATTERN_CHESSBOARD: msd::render_chessboard(detector->pattern, canvas); break;
        case MSD_PATTERN_CIRCLES:
        case MSD_PATTERN_ACIRCLES: msd::render_circles(detector->pattern, canvas.image, canvas.margin); break;
        }
        *image = new msd_image{canvas.image, SHIM_PIXEL_FORMAT_GRAY8};
    });
}

}  // extern "C"
