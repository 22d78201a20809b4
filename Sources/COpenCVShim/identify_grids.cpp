// Chessboards and circle grids of unknown size: their squares or circles placed on a lattice, the
// lattice counted where the image shows it whole, the count confirmed by OpenCV's own finder.
#include "circles_grid.hpp"
#include "identify.hpp"

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <queue>
#include <set>

namespace msd {
namespace {

// A copy of `gray` shrunk by whole blocks to under about 1900 pixels on its longer side (1920x1080
// to 960x540), and the factor it was shrunk by.
cv::Mat working_copy(const cv::Mat &gray, int &factor) {
    factor = std::max(1, std::max(gray.cols, gray.rows) / 960);
    if (factor == 1) return gray;
    cv::Mat small;
    cv::resize(gray, small, cv::Size(), 1.0 / factor, 1.0 / factor, cv::INTER_AREA);
    return small;
}

// Lattice places and the image positions they were found at.
struct Places {
    std::vector<cv::Point> at;
    std::vector<cv::Point2f> image;
    int conflicts = 0;
};

// Fits an affine map from places to the image; the image direction of the lattice's first axis.
cv::Point2d first_axis(const Places &places) {
    cv::Mat a(int(places.at.size()), 3, CV_64F), bx(int(places.at.size()), 1, CV_64F), by(int(places.at.size()), 1, CV_64F);
    for (size_t k = 0; k < places.at.size(); ++k) {
        a.at<double>(int(k), 0) = places.at[k].x;
        a.at<double>(int(k), 1) = places.at[k].y;
        a.at<double>(int(k), 2) = 1;
        bx.at<double>(int(k)) = places.image[k].x;
        by.at<double>(int(k)) = places.image[k].y;
    }
    cv::Mat sx, sy;
    if (!cv::solve(a, bx, sx, cv::DECOMP_SVD) || !cv::solve(a, by, sy, cv::DECOMP_SVD)) return {1, 0};
    return {sx.at<double>(0), sy.at<double>(0)};
}

// MARK: Chessboards

struct Quad {
    std::vector<cv::Point2f> corners;  // clockwise in the image
    cv::Point2f centre;
    double side;
};

std::vector<Quad> dark_quads(const cv::Mat &binary) {
    // Dark regions as foreground.
    cv::Mat dark = 255 - binary;
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(dark, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
    std::vector<Quad> quads;
    for (const auto &contour : contours) {
        const double area = cv::contourArea(contour);
        if (area < 30) continue;
        std::vector<cv::Point> polygon;
        cv::approxPolyDP(contour, polygon, 0.06 * cv::arcLength(contour, true), true);
        if (polygon.size() != 4 || !cv::isContourConvex(polygon)) continue;
        Quad quad;
        double shortest = HUGE_VAL, longest = 0;
        for (int k = 0; k < 4; ++k) {
            quad.corners.emplace_back(polygon[size_t(k)]);
            const double length = cv::norm(polygon[size_t(k)] - polygon[size_t((k + 1) % 4)]);
            shortest = std::min(shortest, length), longest = std::max(longest, length);
        }
        if (longest > 4 * shortest) continue;
        // Clockwise in the image (y down): positive signed area.
        double signed_area = 0;
        for (int k = 0; k < 4; ++k) {
            const cv::Point2f &p = quad.corners[size_t(k)], &q = quad.corners[size_t((k + 1) % 4)];
            signed_area += double(p.x) * q.y - double(q.x) * p.y;
        }
        if (signed_area < 0) std::reverse(quad.corners.begin(), quad.corners.end());
        quad.centre = (quad.corners[0] + quad.corners[1] + quad.corners[2] + quad.corners[3]) * 0.25f;
        quad.side = std::sqrt(area);
        quads.push_back(std::move(quad));
    }
    return quads;
}

// Dark squares that touch corner to corner, placed on the board's squares (steps of one square
// each way along a diagonal); the largest connected group.
Places link_quads(const std::vector<Quad> &quads) {
    const size_t n = quads.size();
    // Quad i's corner k meets quad j's corner m.
    struct Touch { size_t other; int own, theirs; };
    std::vector<std::vector<Touch>> touches(n);
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = i + 1; j < n; ++j) {
            if (cv::norm(quads[i].centre - quads[j].centre) > 2.5 * std::max(quads[i].side, quads[j].side)) continue;
            const double reach = std::max(3.0, 0.3 * std::min(quads[i].side, quads[j].side));
            for (int k = 0; k < 4; ++k) {
                for (int m = 0; m < 4; ++m) {
                    const cv::Point2f a = quads[i].corners[size_t(k)], b = quads[j].corners[size_t(m)];
                    if (cv::norm(a - b) > reach) continue;
                    // Beyond each other's corner, not side by side.
                    if ((quads[j].centre - a).dot(a - quads[i].centre) <= 0) continue;
                    touches[i].push_back({j, k, m});
                    touches[j].push_back({i, m, k});
                }
            }
        }
    }
    // A quad's corner k points along the diagonal `direction[k]`, turned with the quad.
    const auto turn = [](cv::Point d) { return cv::Point(-d.y, d.x); };  // a quarter clockwise in the image
    Places best;
    std::vector<int> group(n, -1);
    std::vector<cv::Point> at(n), first_direction(n);
    for (size_t seed = 0; seed < n; ++seed) {
        if (group[seed] >= 0 || touches[seed].empty()) continue;
        Places places;
        std::queue<size_t> queue;
        group[seed] = int(seed);
        at[seed] = {0, 0};
        first_direction[seed] = {-1, -1};
        queue.push(seed);
        while (!queue.empty()) {
            const size_t i = queue.front();
            queue.pop();
            places.at.push_back(at[i]);
            places.image.push_back(quads[i].centre);
            for (const Touch &touch : touches[i]) {
                cv::Point direction = first_direction[i];
                for (int t = 0; t < touch.own; ++t) direction = turn(direction);
                const cv::Point there = at[i] + direction;
                // The other quad's touching corner points back.
                cv::Point back = -direction;
                for (int t = 0; t < (4 - touch.theirs) % 4; ++t) back = turn(back);
                if (group[touch.other] < 0) {
                    group[touch.other] = int(seed);
                    at[touch.other] = there;
                    first_direction[touch.other] = back;
                    queue.push(touch.other);
                } else if (group[touch.other] == int(seed) && (at[touch.other] != there || first_direction[touch.other] != back)) {
                    ++places.conflicts;
                }
            }
        }
        if (places.at.size() > best.at.size()) best = std::move(places);
    }
    return best;
}

// Whether the chessboard whose inner corners OpenCV found (`columns` x `rows`, in its order) ends
// on every side, in the image: beyond each light square of its outer ring, where a longer board
// would go on with a dark square, the paper just past the board's edge (from 0.02 to 0.09 of a
// square: a board's margin is often not much wider) is not as dark as the board's squares. Each square's outer edge is taken one
// square on from the corners, along the step from the row (or column) of corners before: lens
// distortion bends a board, so no one homography would place the edges of all four sides.
bool chessboard_closed(const cv::Mat &gray, const std::vector<cv::Point2f> &corners, int columns, int rows) {
    // As dark as the board's dark squares, nearly: a mid-gray background (a frame, a table) is not.
    const cv::Rect board = cv::boundingRect(corners) & cv::Rect(0, 0, gray.cols, gray.rows);
    int histogram[256] = {0};
    for (int y = board.y; y < board.y + board.height; ++y) {
        for (int x = board.x; x < board.x + board.width; ++x) ++histogram[gray.at<uint8_t>(y, x)];
    }
    const long total = long(board.area());
    int black = 0, white = 255;
    for (long seen = 0; black < 255 && (seen += histogram[black]) * 10 < total;) ++black;
    for (long seen = 0; white > 0 && (seen += histogram[white]) * 10 < total;) --white;
    const double threshold = black + 0.2 * (white - black);
    const auto at = [&](int column, int row) { return corners[size_t(row * columns + column)]; };
    struct Side { int count; int lines; std::function<cv::Point2f(int, int)> corner; };
    // Each side as a line of corners (k along it; depth 0 the outermost line, 1 the one before it).
    const Side sides[] = {
        {columns, rows, [&](int k, int depth) { return at(k, depth); }},
        {columns, rows, [&](int k, int depth) { return at(k, rows - 1 - depth); }},
        {rows, columns, [&](int k, int depth) { return at(depth, k); }},
        {rows, columns, [&](int k, int depth) { return at(columns - 1 - depth, k); }},
    };
    int looked = 0;
    for (const Side &side : sides) {
        for (int k = 0; k + 1 < side.count; ++k) {
            const cv::Point2f a = side.corner(k, 0), b = side.corner(k + 1, 0);
            // The step out to the edge: the step from the line before, grown or shrunk as the
            // steps before it were (perspective), where the board has a line more.
            const auto outward = [&](int along) {
                const cv::Point2f last = side.corner(along, 0) - side.corner(along, 1);
                if (side.lines < 3) return last;
                const cv::Point2f before = side.corner(along, 1) - side.corner(along, 2);
                const double ratio = std::clamp(cv::norm(last) / std::max(cv::norm(before), 1e-6), 0.5, 2.0);
                return last * float(ratio);
            };
            const cv::Point2f step_a = outward(k), step_b = outward(k + 1);
            // The share of samples darker than the threshold over s (along the side) and t (steps out).
            const auto dark = [&](double s0, double s1, double t0, double t1) {
                int samples = 0, darker = 0;
                for (int i = 0; i <= 6; ++i) {
                    for (int j = 0; j <= 3; ++j) {
                        const double s = s0 + (s1 - s0) * i / 6, t = t0 + (t1 - t0) * j / 3;
                        const cv::Point2f p(float((1 - s) * (a.x + t * step_a.x) + s * (b.x + t * step_b.x)),
                                            float((1 - s) * (a.y + t * step_a.y) + s * (b.y + t * step_b.y)));
                        const double level = gray_at(gray, p);
                        if (level < 0) return -1.0;
                        ++samples;
                        darker += level < threshold;
                    }
                }
                return double(darker) / samples;
            };
            // The outer square's middle: a dark one says nothing of what lies beyond.
            const double square = dark(0.3, 0.7, 0.3, 0.7);
            if (square < 0) return false;
            if (square > 0.5) continue;
            const double beyond = dark(0.25, 0.75, 1.02, 1.09);
            if (beyond < 0 || beyond > 0.25) return false;  // out of the image, or the board goes on
            ++looked;
        }
    }
    return looked > 0;
}

// Whether the squares between the chessboard's inner corners are each one shade, as a plain
// chessboard's are: a ChArUco board whose markers could not be read passes for a chessboard with
// OpenCV, but its light squares hold markers.
bool squares_plain(const cv::Mat &gray, const std::vector<cv::Point2f> &corners, int columns, int rows) {
    const cv::Rect board = cv::boundingRect(corners) & cv::Rect(0, 0, gray.cols, gray.rows);
    cv::Mat ignored;
    const double threshold = cv::threshold(gray(board), ignored, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    const auto at = [&](int column, int row) { return corners[size_t(row * columns + column)]; };
    int mixed = 0, squares = 0;
    for (int row = 0; row + 1 < rows; ++row) {
        for (int column = 0; column + 1 < columns; ++column) {
            const cv::Point2f a = at(column, row), b = at(column + 1, row), c = at(column + 1, row + 1), d = at(column, row + 1);
            int dark = 0, samples = 0;
            for (int i = 1; i <= 5; ++i) {
                for (int j = 1; j <= 5; ++j) {
                    // The middle 60% of the square, bilinearly between its corners.
                    const float s = 0.2f + 0.6f * (i - 1) / 4, t = 0.2f + 0.6f * (j - 1) / 4;
                    const cv::Point2f p = (a * (1 - s) + b * s) * (1 - t) + (d * (1 - s) + c * s) * t;
                    const double level = gray_at(gray, p);
                    if (level < 0) continue;
                    ++samples;
                    dark += level < threshold;
                }
            }
            if (samples == 0) continue;
            ++squares;
            const double share = double(dark) / samples;
            if (share > 0.15 && share < 0.85) ++mixed;
        }
    }
    return squares > 0 && 10 * mixed <= squares;
}

// MARK: Circle grids

struct Blob {
    cv::Point2f centre;
    double size;
};

// Blobs placed on a square lattice, spread from a seed whose four nearest neighbours are two
// opposite pairs; each step predicted from the step before, so that perspective is followed.
Places blob_lattice(const std::vector<Blob> &blobs, std::vector<cv::Point2d> &axis_steps) {
    const size_t n = blobs.size();
    std::vector<std::vector<size_t>> nearest(n);
    for (size_t i = 0; i < n; ++i) {
        std::vector<std::pair<double, size_t>> by_distance;
        for (size_t j = 0; j < n; ++j) {
            if (i != j) by_distance.push_back({cv::norm(blobs[i].centre - blobs[j].centre), j});
        }
        const size_t keep = std::min<size_t>(8, by_distance.size());
        std::partial_sort(by_distance.begin(), by_distance.begin() + long(keep), by_distance.end());
        for (size_t k = 0; k < keep; ++k) nearest[i].push_back(by_distance[k].second);
    }
    const auto find_near = [&](cv::Point2f predicted, double reach, double size) -> int {
        int found = -1;
        double best = reach;
        for (size_t j = 0; j < n; ++j) {
            const double distance = cv::norm(blobs[j].centre - predicted);
            if (distance < best && blobs[j].size < 2.2 * size && blobs[j].size > size / 2.2) best = distance, found = int(j);
        }
        return found;
    };
    Places best;
    std::vector<bool> used(n, false);
    for (size_t seed = 0; seed < n; ++seed) {
        if (used[seed] || nearest[seed].size() < 4) continue;
        const cv::Point2f p = blobs[seed].centre;
        const double d1 = cv::norm(blobs[nearest[seed][0]].centre - p);
        // Exactly four neighbours near the nearest one's distance (a hexagonal grid has six).
        int close = 0;
        for (size_t j : nearest[seed]) close += cv::norm(blobs[j].centre - p) < 1.25 * d1;
        if (close != 4) continue;
        std::vector<cv::Point2f> v;
        for (size_t k = 0; k < 4; ++k) v.push_back(blobs[nearest[seed][k]].centre - p);
        // Pair each with its opposite.
        size_t opposite = 1;
        for (size_t k = 2; k < 4; ++k) {
            if (cv::norm(v[0] + v[k]) < cv::norm(v[0] + v[opposite])) opposite = k;
        }
        std::vector<size_t> rest;
        for (size_t k = 1; k < 4; ++k) {
            if (k != opposite) rest.push_back(k);
        }
        if (cv::norm(v[0] + v[opposite]) > 0.3 * d1 || cv::norm(v[rest[0]] + v[rest[1]]) > 0.3 * d1) continue;
        const cv::Point2d a(v[0]), b(v[rest[0]]);
        const double sine = std::abs(a.x * b.y - a.y * b.x) / (cv::norm(a) * cv::norm(b));
        if (sine < 0.6) continue;  // the two directions must cross at a good angle
        Places places;
        std::map<std::pair<int, int>, size_t> taken;
        struct Node { size_t blob; cv::Point at; cv::Point2d a, b; };
        std::queue<Node> queue;
        std::vector<bool> here(n, false);
        here[seed] = true;
        queue.push({seed, {0, 0}, a, b});
        taken[{0, 0}] = seed;
        while (!queue.empty()) {
            const Node node = queue.front();
            queue.pop();
            places.at.push_back(node.at);
            places.image.push_back(blobs[node.blob].centre);
            const cv::Point2f from = blobs[node.blob].centre;
            const struct { cv::Point step; cv::Point2d vector; bool first; } moves[] = {
                {{1, 0}, node.a, true}, {{-1, 0}, -node.a, true}, {{0, 1}, node.b, false}, {{0, -1}, -node.b, false}};
            for (const auto &move : moves) {
                const cv::Point there = node.at + move.step;
                const cv::Point2f predicted = from + cv::Point2f(move.vector);
                const int found = find_near(predicted, 0.3 * cv::norm(move.vector), blobs[node.blob].size);
                if (found < 0) continue;
                const auto existing = taken.find({there.x, there.y});
                if (existing != taken.end()) {
                    if (existing->second != size_t(found)) ++places.conflicts;
                    continue;
                }
                if (here[size_t(found)]) {
                    ++places.conflicts;
                    continue;
                }
                here[size_t(found)] = true;
                taken[{there.x, there.y}] = size_t(found);
                const cv::Point2d moved = cv::Point2d(blobs[size_t(found)].centre - from);
                Node next{size_t(found), there, node.a, node.b};
                if (move.first) next.a = move.step.x > 0 ? moved : -moved;
                else next.b = move.step.y > 0 ? moved : -moved;
                queue.push(next);
            }
        }
        for (size_t k = 0; k < n; ++k) {
            if (here[k]) used[k] = true;
        }
        if (places.at.size() > best.at.size()) {
            best = std::move(places);
            axis_steps = {a, b};
        }
    }
    return best;
}

}  // namespace

bool identify_chessboard(const cv::Mat &full, msd_layout &layout) {
    int factor = 1;
    const cv::Mat gray = working_copy(full, factor);
    Places best;
    const int block = std::max(11, (std::min(gray.cols, gray.rows) / 10) | 1);
    for (int pass = 0; pass < 4; ++pass) {
        cv::Mat binary;
        if (pass < 2) {
            cv::threshold(gray, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
        } else {
            cv::adaptiveThreshold(gray, binary, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY, block, 0);
        }
        // Thin the dark squares so that those meeting at a corner part.
        cv::dilate(binary, binary, cv::Mat(), cv::Point(-1, -1), pass % 2 + 1);
        const Places places = link_quads(dark_quads(binary));
        if (places.at.size() > best.at.size() && 10 * places.conflicts <= int(places.at.size())) {
            best = places;
        }
    }
    if (best.at.size() < 4) return false;
    int i0 = INT32_MAX, i1 = INT32_MIN, j0 = INT32_MAX, j1 = INT32_MIN;
    for (const cv::Point &p : best.at) {
        i0 = std::min(i0, p.x), i1 = std::max(i1, p.x), j0 = std::min(j0, p.y), j1 = std::max(j1, p.y);
    }
    const int across = i1 - i0, down = j1 - j0;  // inner corners each way
    if (across < 3 || down < 3) return false;
    // Nearly every dark square of the extent was found (OpenCV's finder and the board's edges
    // decide the rest).
    const long expected = (long(across + 1) * (down + 1) + 1) / 2;
    if (10 * long(best.at.size()) < 9 * expected || long(best.at.size()) > expected) return false;
    const cv::Point2d axis = first_axis(best);
    const bool first_across = std::abs(axis.x) >= std::abs(axis.y);
    const int columns = first_across ? across : down, rows = first_across ? down : across;
    std::vector<cv::Point2f> corners;
    const int flags = cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK;
    if (!cv::findChessboardCorners(gray, cv::Size(columns, rows), corners, flags)) return false;
    if (!squares_plain(gray, corners, columns, rows)) return false;
    layout = msd_layout{};
    layout.kind = MSD_LAYOUT_CHESSBOARD;
    layout.code_set = -1;
    layout.first_id = -1;
    layout.features = columns * rows;
    // A chessboard the image does not show the ends of: its size is not told.
    if (!chessboard_closed(gray, corners, columns, rows)) return true;
    layout.columns = columns;
    layout.rows = rows;
    layout.min_rows = rows;
    layout.columns_across = 1;
    return true;
}

bool identify_circle_grid(const cv::Mat &full, msd_layout &layout) {
    int factor = 1;
    const cv::Mat gray = working_copy(full, factor);
    std::vector<cv::KeyPoint> keypoints;
    circle_blob_detector(gray.size(), 16)->detect(gray, keypoints);
    if (keypoints.size() < 6) return false;
    std::vector<Blob> blobs;
    for (const cv::KeyPoint &k : keypoints) blobs.push_back({k.pt, k.size});
    std::vector<cv::Point2d> steps;
    const Places places = blob_lattice(blobs, steps);
    if (places.at.size() < 6 || 10 * places.conflicts > int(places.at.size())) return false;
    // Every place next to a member that is not one must lie inside the image: the grid ends in view.
    std::set<std::pair<int, int>> members;
    for (const cv::Point &p : places.at) members.insert({p.x, p.y});
    double size = 0;
    for (const Blob &blob : blobs) size += blob.size;
    size /= double(blobs.size());
    for (size_t k = 0; k < places.at.size(); ++k) {
        const cv::Point p = places.at[k];
        for (const cv::Point step : {cv::Point(1, 0), cv::Point(-1, 0), cv::Point(0, 1), cv::Point(0, -1)}) {
            if (members.count({p.x + step.x, p.y + step.y})) continue;
            // Predicted from the member's own neighbour on the other side when there is one.
            cv::Point2d vector = step.x != 0 ? steps[0] * double(step.x) : steps[1] * double(step.y);
            for (size_t o = 0; o < places.at.size(); ++o) {
                if (places.at[o] == p - step) vector = cv::Point2d(places.image[k] - places.image[o]);
            }
            if (!inside(places.image[k] + cv::Point2f(vector), gray.size(), float(size))) {
                // A grid, but not seen whole: its size is not told.
                layout = msd_layout{};
                layout.kind = MSD_LAYOUT_CIRCLES;
                layout.code_set = -1;
                layout.first_id = -1;
                layout.features = int(places.at.size());
                return places.at.size() >= 12;
            }
        }
    }
    int i0 = INT32_MAX, i1 = INT32_MIN, j0 = INT32_MAX, j1 = INT32_MIN;
    for (const cv::Point &p : places.at) i0 = std::min(i0, p.x), i1 = std::max(i1, p.x), j0 = std::min(j0, p.y), j1 = std::max(j1, p.y);
    const long count = long(places.at.size());
    const cv::Point2d axis_i = first_axis(places);
    // A full rectangle on the lattice is a symmetric grid; anything else may be an asymmetric one.
    const bool asymmetric = long(i1 - i0 + 1) * (j1 - j0 + 1) != count;
    int columns = 0, rows = 0;
    if (!asymmetric) {
        const bool i_across = std::abs(axis_i.x) >= std::abs(axis_i.y);
        columns = i_across ? i1 - i0 + 1 : j1 - j0 + 1;
        rows = i_across ? j1 - j0 + 1 : i1 - i0 + 1;
    } else {
        // OpenCV's asymmetric grid is this lattice turned an eighth: x = i - j, y = i + j.
        int x0 = INT32_MAX, x1 = INT32_MIN, y0 = INT32_MAX, y1 = INT32_MIN;
        Places turned;
        for (size_t k = 0; k < places.at.size(); ++k) {
            const cv::Point q(places.at[k].x - places.at[k].y, places.at[k].x + places.at[k].y);
            turned.at.push_back(q);
            turned.image.push_back(places.image[k]);
            x0 = std::min(x0, q.x), x1 = std::max(x1, q.x), y0 = std::min(y0, q.y), y1 = std::max(y1, q.y);
        }
        const int width = x1 - x0 + 1, height = y1 - y0 + 1;
        const cv::Point2d axis_x = first_axis(turned);
        // Rows of the grid along x (each `width / 2` circles) or along y.
        const bool x_rows_fit = width % 2 == 0 && long(width / 2) * height == count;
        const bool y_rows_fit = height % 2 == 0 && long(height / 2) * width == count;
        if (!x_rows_fit && !y_rows_fit) return false;
        const bool x_across = std::abs(axis_x.x) >= std::abs(axis_x.y);
        const bool rows_along_x = x_rows_fit && (!y_rows_fit || x_across);
        columns = rows_along_x ? width / 2 : height / 2;
        rows = rows_along_x ? height : width;
    }
    if (columns < 2 || rows < 2) return false;
    std::vector<cv::Point2f> points;
    if (!find_circle_grid(gray, columns, rows, asymmetric, keypoints, points)) return false;
    layout = msd_layout{};
    layout.kind = asymmetric ? MSD_LAYOUT_ACIRCLES : MSD_LAYOUT_CIRCLES;
    layout.columns = columns;
    layout.rows = rows;
    layout.code_set = -1;
    layout.first_id = -1;
    layout.features = int(count);
    layout.min_rows = layout.rows;
    layout.columns_across = 1;
    return true;
}

}  // namespace msd
