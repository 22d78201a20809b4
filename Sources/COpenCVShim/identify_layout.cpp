// Which board markers of one code set form: their places on a lattice, from each marker's own view
// of its neighbours; the ids those places call for (a grid board's, an AprilGrid's or a ChArUco
// board's numbering); the board's size where the image shows its edges; its proportions.
#include "identify.hpp"

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <queue>
#include <set>

namespace msd {
namespace {

constexpr int least_board_markers = 4;

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + long(middle), values.end());
    return values[middle];
}

// A marker with its view of the board: the homography from its own unit square (top-left (0, 0),
// x to its right, y down, as printed) to the image, and back.
struct Placed {
    const CodedMarker *marker;
    cv::Matx33d to_image;
    cv::Matx33d to_marker;
    double side;  // mean edge in pixels
};

cv::Point2d apply(const cv::Matx33d &h, cv::Point2d p) {
    const cv::Vec3d q = h * cv::Vec3d(p.x, p.y, 1);
    return {q[0] / q[2], q[1] / q[2]};
}

std::vector<Placed> place(const std::vector<CodedMarker> &markers) {
    std::vector<Placed> placed;
    const std::vector<cv::Point2f> square = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (const CodedMarker &marker : markers) {
        const cv::Mat h = cv::getPerspectiveTransform(square, marker.corners);
        if (h.empty()) continue;
        cv::Matx33d to_image(h);
        double side = 0;
        for (int k = 0; k < 4; ++k) side += cv::norm(marker.corners[size_t(k)] - marker.corners[size_t((k + 1) % 4)]);
        placed.push_back({&marker, to_image, to_image.inv(), side / 4});
    }
    return placed;
}

// Where marker `j`'s centre lies seen from marker `i`, in marker sides from `i`'s centre.
cv::Point2d offset(const Placed &i, const Placed &j) {
    const cv::Point2f centre = j.marker->centre();
    return apply(i.to_marker, cv::Point2d(centre.x, centre.y)) - cv::Point2d(0.5, 0.5);
}

// The lattice markers stand on: their integer places and the unit (pitch, or square side) in
// marker sides.
struct Lattice {
    bool charuco = false;
    double unit = 0;
    std::vector<size_t> members;     // indices into the placed markers
    std::vector<cv::Point> at;       // lattice place of each member
    int conflicts = 0;
};

// For each marker, its nearest neighbour's offset; the kind of lattice is the one most of them
// agree with: along an axis (a grid, neighbours a pitch apart) or along a diagonal (a ChArUco
// board, neighbours a square apart each way).
bool classify(const std::vector<Placed> &placed, bool &charuco, double &unit) {
    std::vector<double> axis, diagonal;
    for (size_t i = 0; i < placed.size(); ++i) {
        cv::Point2d nearest;
        double best = HUGE_VAL;
        for (size_t j = 0; j < placed.size(); ++j) {
            if (i == j) continue;
            const double image_distance = cv::norm(placed[i].marker->centre() - placed[j].marker->centre());
            if (image_distance > 8 * std::max(placed[i].side, placed[j].side)) continue;
            const cv::Point2d q = offset(placed[i], placed[j]);
            const double length = cv::norm(q);
            if (length < best) best = length, nearest = q;
        }
        if (!(best < 6)) continue;
        const double ax = std::abs(nearest.x), ay = std::abs(nearest.y);
        const double angle = std::atan2(std::min(ax, ay), std::max(ax, ay)) * 180 / CV_PI;  // 0 along an axis, 45 diagonal
        if (angle < 12 && std::max(ax, ay) > 1.02) axis.push_back(std::max(ax, ay));
        if (angle > 33 && 0.5 * (ax + ay) > 1.02) diagonal.push_back(0.5 * (ax + ay));
    }
    if (axis.size() < 2 && diagonal.size() < 2) return false;
    charuco = diagonal.size() > axis.size();
    unit = median(charuco ? diagonal : axis);
    return unit > 1;
}

// Integer lattice places, spread from a seed through each marker's view of its near neighbours;
// the largest connected group.
Lattice spread(const std::vector<Placed> &placed, bool charuco, double unit) {
    const size_t n = placed.size();
    // Steps between near neighbours: (du, dv) in lattice units, read from the first's own frame.
    std::vector<std::vector<std::pair<size_t, cv::Point>>> steps(n);
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) {
            if (i == j) continue;
            const double image_distance = cv::norm(placed[i].marker->centre() - placed[j].marker->centre());
            if (image_distance > 8 * std::max(placed[i].side, placed[j].side)) continue;
            const cv::Point2d q = offset(placed[i], placed[j]) * (1 / unit);
            const cv::Point step(int(std::lround(q.x)), int(std::lround(q.y)));
            if (step == cv::Point(0, 0) || std::abs(step.x) > 2 || std::abs(step.y) > 2) continue;
            if (std::abs(q.x - step.x) > 0.25 || std::abs(q.y - step.y) > 0.25) continue;
            // On a ChArUco board markers sit on squares of one colour: steps keep the parity.
            if (charuco && (step.x + step.y) % 2 != 0) continue;
            steps[i].push_back({j, step});
        }
    }
    Lattice best;
    std::vector<int> group(n, -1);
    std::vector<cv::Point> at(n);
    for (size_t seed = 0; seed < n; ++seed) {
        if (group[seed] >= 0) continue;
        Lattice lattice;
        lattice.charuco = charuco;
        lattice.unit = unit;
        std::queue<size_t> queue;
        group[seed] = int(seed);
        at[seed] = {0, 0};
        queue.push(seed);
        while (!queue.empty()) {
            const size_t i = queue.front();
            queue.pop();
            lattice.members.push_back(i);
            lattice.at.push_back(at[i]);
            for (const auto &[j, step] : steps[i]) {
                if (group[j] < 0) {
                    group[j] = int(seed);
                    at[j] = at[i] + step;
                    queue.push(j);
                } else if (group[j] == int(seed) && at[j] != at[i] + step) {
                    ++lattice.conflicts;
                }
            }
        }
        if (lattice.members.size() > best.members.size()) best = std::move(lattice);
    }
    // Two markers on one place: the group is no lattice.
    std::set<std::pair<int, int>> places;
    for (const cv::Point &p : best.at) {
        if (!places.insert({p.x, p.y}).second) ++best.conflicts;
    }
    return best;
}

// ChArUco numbering: marker k's square on a board `columns` wide whose top-left square holds a
// marker when `origin` (0: squares with column + row even hold markers) or not (1: odd).
cv::Point charuco_square(int k, int columns, int parity) {
    const int pair = k / columns, rest = k % columns;
    const int first_row_count = (columns - parity + 1) / 2;  // markers in the pair's first row
    const int row = 2 * pair + (rest >= first_row_count ? 1 : 0);
    const int index = rest >= first_row_count ? rest - first_row_count : rest;
    const int first_column = (row + parity) % 2;
    return {first_column + 2 * index, row};
}

struct Numbering {
    int columns = 0;       // 0: not told by the ids
    int parity = 1;        // ChArUco
    int direction = 1;     // grids: +1 ids count rows down, -1 up
    cv::Point offset;      // ChArUco: board place = lattice place - offset; grids: unused
    long constant = 0;     // grids: id - direction * v * columns - u
    std::vector<bool> fits;
    int count = 0;
};

// The ChArUco numbering that fits most members: a board `columns` wide and a parity, tried all.
Numbering charuco_numbering(const std::vector<Placed> &placed, const Lattice &lattice) {
    Numbering best;
    int ties = 0;
    const int most_columns = 128;
    for (int columns = 2; columns <= most_columns; ++columns) {
        for (int parity = 0; parity <= 1; ++parity) {
            std::map<std::pair<int, int>, int> votes;
            std::vector<cv::Point> offsets(lattice.members.size());
            for (size_t m = 0; m < lattice.members.size(); ++m) {
                const cv::Point square = charuco_square(placed[lattice.members[m]].marker->id, columns, parity);
                offsets[m] = lattice.at[m] - square;
                ++votes[{offsets[m].x, offsets[m].y}];
            }
            const auto top = std::max_element(votes.begin(), votes.end(), [](auto &a, auto &b) { return a.second < b.second; });
            if (top->second > best.count) {
                best = Numbering{};
                best.columns = columns;
                best.parity = parity;
                best.offset = {top->first.first, top->first.second};
                best.count = top->second;
                for (const cv::Point &o : offsets) best.fits.push_back(o == best.offset);
                ties = 0;
            } else if (top->second == best.count) {
                ++ties;
            }
        }
    }
    if (ties > 0) best.columns = 0;  // the markers seen fit several widths (one row of them, say)
    return best;
}

// The grid numbering (id = constant + direction * v * columns + u) that fits most members.
Numbering grid_numbering(const std::vector<Placed> &placed, const Lattice &lattice) {
    Numbering best;
    const size_t n = lattice.members.size();
    // Widths the pairs in different rows call for.
    std::map<std::pair<int, int>, int> candidates;  // (columns, direction) -> pairs
    bool two_rows = false;
    for (size_t a = 0; a < n; ++a) {
        for (size_t b = a + 1; b < n; ++b) {
            const cv::Point d = lattice.at[b] - lattice.at[a];
            if (d.y == 0) continue;
            two_rows = true;
            const long ids = long(placed[lattice.members[b]].marker->id) - placed[lattice.members[a]].marker->id;
            for (int direction : {1, -1}) {
                const long numerator = ids - d.x, denominator = long(direction) * d.y;
                if (numerator % denominator != 0) continue;
                const long columns = numerator / denominator;
                if (columns >= 1 && columns <= 100000) ++candidates[{int(columns), direction}];
            }
        }
    }
    if (!two_rows) {
        // One row: ids must count along it; the width is not told.
        Numbering row;
        row.direction = 1;
        std::map<long, int> votes;
        for (size_t m = 0; m < n; ++m) ++votes[long(placed[lattice.members[m]].marker->id) - lattice.at[m].x];
        const auto top = std::max_element(votes.begin(), votes.end(), [](auto &a, auto &b) { return a.second < b.second; });
        row.constant = top->first;
        row.count = top->second;
        for (size_t m = 0; m < n; ++m) row.fits.push_back(long(placed[lattice.members[m]].marker->id) - lattice.at[m].x == row.constant);
        return row;
    }
    for (const auto &[key, pairs] : candidates) {
        const auto [columns, direction] = key;
        std::map<long, int> votes;
        std::vector<long> constants(n);
        for (size_t m = 0; m < n; ++m) {
            constants[m] = long(placed[lattice.members[m]].marker->id) - long(direction) * lattice.at[m].y * columns - lattice.at[m].x;
            ++votes[constants[m]];
        }
        const auto top = std::max_element(votes.begin(), votes.end(), [](auto &a, auto &b) { return a.second < b.second; });
        // The members' columns must lie within one board width.
        int low = INT32_MAX, high = INT32_MIN;
        for (size_t m = 0; m < n; ++m) {
            if (constants[m] != top->first) continue;
            low = std::min(low, lattice.at[m].x);
            high = std::max(high, lattice.at[m].x);
        }
        if (high - low + 1 > columns) continue;
        if (top->second > best.count) {
            best = Numbering{};
            best.columns = columns;
            best.direction = direction;
            best.constant = top->first;
            best.count = top->second;
            for (long c : constants) best.fits.push_back(c == best.constant);
        }
    }
    return best;
}

// Gray levels of the markers themselves: their black and their white.
struct Levels {
    double black = 0, white = 255;
    // Dark as a marker's black, nearly: a mid-gray background (a table, a frame) is not.
    double threshold() const { return black + 0.3 * (white - black); }
};

Levels marker_levels(const cv::Mat &gray, const std::vector<const CodedMarker *> &markers) {
    int histogram[256] = {0};
    int count = 0;
    for (const CodedMarker *marker : markers) {
        const cv::Rect box = cv::boundingRect(marker->corners) & cv::Rect(0, 0, gray.cols, gray.rows);
        const int stride = std::max(1, std::min(box.width, box.height) / 24);
        for (int y = box.y; y < box.y + box.height; y += stride) {
            for (int x = box.x; x < box.x + box.width; x += stride) {
                if (cv::pointPolygonTest(marker->corners, cv::Point2f(float(x), float(y)), false) < 0) continue;
                ++histogram[gray.at<uint8_t>(y, x)];
                ++count;
            }
        }
    }
    Levels levels;
    if (count == 0) return levels;
    for (int seen = 0, level = 0; level < 256; ++level) {
        seen += histogram[level];
        if (seen * 10 >= count) { levels.black = level; break; }
    }
    for (int seen = 0, level = 255; level >= 0; --level) {
        seen += histogram[level];
        if (seen * 10 >= count) { levels.white = level; break; }
    }
    return levels;
}

// The share of pixels darker than `threshold` inside a quadrilateral; -1 when it does not lie
// inside the image with room to spare.
double dark_share(const cv::Mat &gray, const std::vector<cv::Point2f> &quad, double threshold) {
    for (const cv::Point2f &p : quad) {
        if (!inside(p, gray.size(), 2)) return -1;
    }
    const cv::Rect box = cv::boundingRect(quad) & cv::Rect(0, 0, gray.cols, gray.rows);
    const int stride = std::max(1, std::min(box.width, box.height) / 24);
    int dark = 0, count = 0;
    for (int y = box.y; y < box.y + box.height; y += stride) {
        for (int x = box.x; x < box.x + box.width; x += stride) {
            if (cv::pointPolygonTest(quad, cv::Point2f(float(x), float(y)), false) < 0) continue;
            ++count;
            if (gray.at<uint8_t>(y, x) < threshold) ++dark;
        }
    }
    return count >= 4 ? double(dark) / count : -1;
}

// A homography from board places (lattice units) to the image, fitted to the centres of the
// members whose place is within `reach` of `near` along `axis` (0: u, 1: v; -1: all members).
cv::Matx33d fit_places(const std::vector<Placed> &placed, const Lattice &lattice, const std::vector<bool> &fits,
                       int axis, int near, int reach, bool &ok) {
    std::vector<cv::Point2f> board, image;
    std::set<int> us, vs;
    for (size_t m = 0; m < lattice.members.size(); ++m) {
        if (!fits[m]) continue;
        const cv::Point p = lattice.at[m];
        if (axis == 0 && std::abs(p.x - near) > reach) continue;
        if (axis == 1 && std::abs(p.y - near) > reach) continue;
        board.emplace_back(float(p.x), float(p.y));
        image.push_back(placed[lattice.members[m]].marker->centre());
        us.insert(p.x);
        vs.insert(p.y);
    }
    ok = board.size() >= 4 && us.size() >= 2 && vs.size() >= 2;
    if (!ok) return cv::Matx33d::eye();
    const cv::Mat h = cv::findHomography(board, image, 0);
    ok = !h.empty();
    return ok ? cv::Matx33d(h) : cv::Matx33d::eye();
}

// A band of the square `half` a side around `centre` (lattice units), next to its side that faces
// the board (back along `outward`): from `from` to `to` in from that side, `across` to each side
// of the middle.
std::vector<cv::Point2d> near_half(cv::Point2d centre, cv::Point2d outward, double half, double from, double to, double across) {
    const cv::Point2d along(std::abs(outward.y), std::abs(outward.x));
    const cv::Point2d edge = centre - outward * half;  // the side facing the board
    return {edge + outward * from - along * across, edge + outward * to - along * across, edge + outward * to + along * across,
            edge + outward * from + along * across};
}

// Whether the board goes on beyond the outermost line of members on one side (`axis` 0: a column,
// 1: a row; `step` -1 or +1): +1 it ends there (the places one step out, inside the image, are as
// light as paper and hold no marker), -1 it goes on or the image does not tell, 0 it cannot be seen.
// `square` gives the quad of a place one step out in lattice units and whether a marker would be
// there (for a ChArUco board's squares); `range` the places along the line to look at.
template <typename Quad>
int side_ends(const cv::Mat &gray, const std::vector<Placed> &placed, const Lattice &lattice, const std::vector<bool> &fits,
              int axis, int step, int line, int first, int last, Levels levels, Quad quad) {
    bool ok = false;
    const cv::Matx33d h = fit_places(placed, lattice, fits, axis, line, 2, ok);
    if (!ok) return 0;
    int seen = 0, light = 0, places = 0;
    for (int along = first; along <= last; ++along) {
        const cv::Point place = axis == 0 ? cv::Point(line + step, along) : cv::Point(along, line + step);
        std::vector<cv::Point2f> corners;
        const cv::Point2d outward = axis == 0 ? cv::Point2d(step, 0) : cv::Point2d(0, step);
        for (const cv::Point2d &corner : quad(place, outward)) {
            const cv::Point2d p = apply(h, corner);
            corners.emplace_back(float(p.x), float(p.y));
        }
        if (corners.empty()) continue;
        ++places;
        const double share = dark_share(gray, corners, levels.threshold());
        if (share < 0) continue;
        ++seen;
        if (share < 0.08) ++light;
    }
    if (seen == 0 || 2 * seen < places) return 0;
    return light == seen ? 1 : -1;
}

// The proportion of a marker to its place's unit: the median over members of each marker's side
// measured through a homography fitted to its neighbours' centres.
double marker_share(const std::vector<Placed> &placed, const Lattice &lattice, const std::vector<bool> &fits) {
    std::vector<double> shares;
    for (size_t m = 0; m < lattice.members.size(); ++m) {
        if (!fits[m]) continue;
        std::vector<cv::Point2f> board, image;
        std::set<int> us, vs;
        for (size_t o = 0; o < lattice.members.size(); ++o) {
            if (!fits[o]) continue;
            const cv::Point d = lattice.at[o] - lattice.at[m];
            if (std::abs(d.x) > 2 || std::abs(d.y) > 2) continue;
            board.emplace_back(float(lattice.at[o].x), float(lattice.at[o].y));
            image.push_back(placed[lattice.members[o]].marker->centre());
            us.insert(lattice.at[o].x);
            vs.insert(lattice.at[o].y);
        }
        if (board.size() < 5 || us.size() < 2 || vs.size() < 2) continue;
        const cv::Mat fitted = cv::findHomography(image, board, 0);
        if (fitted.empty()) continue;
        const cv::Matx33d to_board(fitted);
        const CodedMarker &marker = *placed[lattice.members[m]].marker;
        double side = 0;
        for (int k = 0; k < 4; ++k) {
            const cv::Point2d a = apply(to_board, cv::Point2d(marker.corners[size_t(k)]));
            const cv::Point2d b = apply(to_board, cv::Point2d(marker.corners[size_t((k + 1) % 4)]));
            side += cv::norm(a - b);
        }
        shares.push_back(side / 4);
    }
    return median(shares);
}

}  // namespace

msd_layout fit_marker_layout(const cv::Mat &gray, int code_set, const std::vector<CodedMarker> &all) {
    msd_layout layout{};
    layout.kind = MSD_LAYOUT_LOOSE;
    layout.code_set = code_set;
    layout.first_id = -1;
    layout.features = int(all.size());
    layout.min_id = INT32_MAX;
    layout.max_id = INT32_MIN;
    for (const CodedMarker &marker : all) {
        layout.min_id = std::min(layout.min_id, marker.id);
        layout.max_id = std::max(layout.max_id, marker.id);
    }
    // Ids seen twice belong to no one board.
    std::map<int, int> copies;
    for (const CodedMarker &marker : all) ++copies[marker.id];
    std::vector<CodedMarker> markers;
    for (const CodedMarker &marker : all) {
        if (copies[marker.id] == 1) markers.push_back(marker);
    }
    if (int(markers.size()) < least_board_markers) return layout;
    const std::vector<Placed> placed = place(markers);
    bool charuco = false;
    double unit = 0;
    if (!classify(placed, charuco, unit)) return layout;
    const Lattice lattice = spread(placed, charuco, unit);
    if (int(lattice.members.size()) < least_board_markers || 10 * lattice.conflicts > int(lattice.members.size())) return layout;
    const Numbering numbering = charuco ? charuco_numbering(placed, lattice) : grid_numbering(placed, lattice);
    // Nearly every marker of the group must follow the numbering.
    if (numbering.count < least_board_markers || 10 * numbering.count < 9 * int(lattice.members.size())) return layout;

    std::vector<const CodedMarker *> members;
    int min_u = INT32_MAX, max_u = INT32_MIN, min_v = INT32_MAX, max_v = INT32_MIN;
    int min_id = INT32_MAX, max_id = INT32_MIN;
    for (size_t m = 0; m < lattice.members.size(); ++m) {
        if (!numbering.fits[m]) continue;
        const CodedMarker *marker = placed[lattice.members[m]].marker;
        members.push_back(marker);
        min_u = std::min(min_u, lattice.at[m].x), max_u = std::max(max_u, lattice.at[m].x);
        min_v = std::min(min_v, lattice.at[m].y), max_v = std::max(max_v, lattice.at[m].y);
        min_id = std::min(min_id, marker->id), max_id = std::max(max_id, marker->id);
    }
    const Levels levels = marker_levels(gray, members);
    if (levels.white - levels.black < 20) return layout;
    layout.features = numbering.count;
    layout.min_id = min_id;
    layout.max_id = max_id;
    const double share = marker_share(placed, lattice, numbering.fits);

    if (charuco) {
        // Places are squares; the numbering fixes the board's top-left square and its width.
        layout.kind = MSD_LAYOUT_CHARUCO;
        layout.columns = numbering.columns;
        layout.marker_at_origin = numbering.parity == 0;
        layout.ratio = share;
        const int last_row = max_v - numbering.offset.y;
        layout.min_rows = last_row + 1;
        if (numbering.columns > 0 && share > 0 && share < 1) {
            // One row further down: paper, or the black squares and markers of a longer board.
            // The next row's black squares, where they would meet the board: a square's edge is half
            // a square from its centre; look at a band from 0.04 to 0.14 of a square beyond it (a
            // board's margin of paper is often not much wider).
            const int parity = numbering.parity;
            const int ends = side_ends(gray, placed, lattice, numbering.fits, 1, 1, max_v, numbering.offset.x,
                                       numbering.offset.x + numbering.columns - 1, levels,
                                       [&](cv::Point place, cv::Point2d outward) {
                                           const bool marker = ((place.x - numbering.offset.x) + (place.y - numbering.offset.y) + parity) % 2 == 0;
                                           if (marker) return std::vector<cv::Point2d>{};
                                           return near_half(cv::Point2d(place), outward, 0.5, 0.04, 0.14, 0.3);
                                       });
            if (ends == 1) layout.rows = last_row + 1;
        }
    } else {
        // Places are marker positions a pitch apart.
        layout.kind = MSD_LAYOUT_GRID;
        layout.ids_up = numbering.direction < 0;
        layout.ratio = share > 0 && share < 1 ? (1 - share) / share : 0;
        // Where the next marker would begin, past the gap: a band from 0.05 to 0.2 of a marker into
        // it (a board's margin of paper is often not much wider than the gap and that).
        const double half = share > 0 ? 0.5 * share : 0.3;
        const auto marker_quad = [&](cv::Point place, cv::Point2d outward) {
            return near_half(cv::Point2d(place), outward, half, 0.1 * half, 0.4 * half, 0.7 * half);
        };
        const int left = side_ends(gray, placed, lattice, numbering.fits, 0, -1, min_u, min_v, max_v, levels, marker_quad);
        const int right = side_ends(gray, placed, lattice, numbering.fits, 0, 1, max_u, min_v, max_v, levels, marker_quad);
        const int top = side_ends(gray, placed, lattice, numbering.fits, 1, -1, min_v, min_u, max_u, levels, marker_quad);
        const int bottom = side_ends(gray, placed, lattice, numbering.fits, 1, 1, max_v, min_u, max_u, levels, marker_quad);
        int columns = numbering.columns;
        if (columns == 0 && left == 1 && right == 1) columns = max_u - min_u + 1;
        if (columns > 0 && (left == 1 && right == 1) && max_u - min_u + 1 != columns) return layout;  // edges disagree with ids
        layout.columns = columns;
        // The lattice column of the board's first column.
        bool column_known = false;
        int first_column = 0;
        if (left == 1) column_known = true, first_column = min_u;
        else if (right == 1 && columns > 0) column_known = true, first_column = max_u - columns + 1;
        else if (columns > 0 && max_u - min_u + 1 == columns) column_known = true, first_column = min_u;
        // The lattice row of the board's first row (top for grid boards, bottom for AprilGrids).
        const int direction = numbering.direction;
        const int near_side = direction > 0 ? top : bottom, far_side = direction > 0 ? bottom : top;
        const int near_line = direction > 0 ? min_v : max_v, far_line = direction > 0 ? max_v : min_v;
        bool row_known = false;
        int first_row = 0;
        if (near_side == 1) row_known = true, first_row = near_line;
        if (column_known && columns > 0) {
            // A marker whose id, less its column, is under one row's worth of ids from 0 is in the first row.
            for (size_t m = 0; m < lattice.members.size(); ++m) {
                if (!numbering.fits[m]) continue;
                const long column = lattice.at[m].x - first_column;
                const long id = placed[lattice.members[m]].marker->id;
                const long row_ids = id - column;
                if (row_ids >= 0 && row_ids < columns) {
                    const int row = lattice.at[m].y;
                    if (row_known && row != first_row) return layout;  // the ids disagree with the edge
                    row_known = true, first_row = row;
                }
            }
        }
        layout.min_rows = max_v - min_v + 1;
        if (row_known && column_known && columns > 0) {
            // id = first + row * columns + column for any member.
            for (size_t m = 0; m < lattice.members.size(); ++m) {
                if (!numbering.fits[m]) continue;
                const long column = lattice.at[m].x - first_column;
                const long row = direction * (lattice.at[m].y - first_row);
                const long first = placed[lattice.members[m]].marker->id - row * columns - column;
                if (first < 0 || column < 0 || column >= columns || row < 0) return layout;
                layout.first_id = int(first);
                break;
            }
            layout.min_rows = std::abs(far_line - first_row) + 1;
            if (far_side == 1) layout.rows = layout.min_rows;
        } else if (near_side == 1 && far_side == 1) {
            layout.rows = max_v - min_v + 1;
        }
    }
    // Fit quality, and which way the board's columns run in the image.
    bool ok = false;
    const cv::Matx33d h = fit_places(placed, lattice, numbering.fits, -1, 0, 0, ok);
    if (ok) {
        const cv::Point2d origin = apply(h, {double(min_u), double(min_v)});
        const cv::Point2d across = apply(h, {double(min_u) + 1, double(min_v)}) - origin;
        layout.columns_across = std::abs(across.x) >= std::abs(across.y);
        double squares = 0;
        int count = 0;
        for (size_t m = 0; m < lattice.members.size(); ++m) {
            if (!numbering.fits[m]) continue;
            const cv::Point2d predicted = apply(h, cv::Point2d(lattice.at[m]));
            const cv::Point2f centre = placed[lattice.members[m]].marker->centre();
            squares += std::pow(cv::norm(predicted - cv::Point2d(centre)), 2);
            ++count;
        }
        layout.error = std::sqrt(squares / std::max(count, 1));
    }
    return layout;
}

}  // namespace msd
