// Markers of every predefined dictionary at once: OpenCV's candidates found once, each read at the
// bit size its cells fit best and looked up in the dictionaries of that size.
#include "identify.hpp"

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

namespace msd {
namespace {

// The dictionaries markers are looked up in: for each bit size, the largest of OpenCV's nested
// dictionaries (the smaller ones are its first codes) and the others of that size.
struct CodeSet {
    msd_predefined_dictionary name;
    cv::Ptr<cv::aruco::Dictionary> dictionary;
};

const std::vector<CodeSet> &code_sets() {
    static const std::vector<CodeSet> sets = [] {
        std::vector<CodeSet> made;
        for (msd_predefined_dictionary name :
             {MSD_DICT_4X4_1000, MSD_DICT_APRILTAG_16h5, MSD_DICT_5X5_1000, MSD_DICT_ARUCO_ORIGINAL, MSD_DICT_APRILTAG_25h9,
              MSD_DICT_6X6_1000, MSD_DICT_APRILTAG_36h10, MSD_DICT_APRILTAG_36h11, MSD_DICT_7X7_1000}) {
            made.push_back({name, cv::aruco::getPredefinedDictionary(int(name))});
        }
        return made;
    }();
    return sets;
}

// A dictionary of one 7x7 code no printed marker carries (a checkerboard of bits), so that
// detectMarkers identifies nothing and hands every candidate back as rejected.
cv::Ptr<cv::aruco::Dictionary> nothing_dictionary() {
    static const cv::Ptr<cv::aruco::Dictionary> dictionary = [] {
        cv::Mat bits(7, 7, CV_8UC1);
        for (int y = 0; y < 7; ++y) {
            for (int x = 0; x < 7; ++x) bits.at<uint8_t>(y, x) = uint8_t((x + y) % 2);
        }
        return cv::makePtr<cv::aruco::Dictionary>(cv::aruco::Dictionary::getByteListFromBits(bits), 7, 0);
    }();
    return dictionary;
}

// A candidate's cells read at one size: the bits inside the border, how cleanly each cell is one
// shade, and how many border cells are not black.
struct Reading {
    cv::Mat bits;
    double purity = 0;
    int border_errors = 0;
};

constexpr int pixels_per_cell = 6;

Reading read_cells(const cv::Mat &gray, const std::vector<cv::Point2f> &corners, int bits) {
    const int cells = bits + 2, side = cells * pixels_per_cell;
    const std::array<cv::Point2f, 4> square = {cv::Point2f(0, 0), cv::Point2f(float(side - 1), 0),
                                              cv::Point2f(float(side - 1), float(side - 1)), cv::Point2f(0, float(side - 1))};
    const cv::Mat transform = cv::getPerspectiveTransform(corners.data(), square.data());
    cv::Mat patch, binary;
    cv::warpPerspective(gray, patch, transform, cv::Size(side, side), cv::INTER_LINEAR);
    Reading reading;
    cv::Scalar mean, deviation;
    cv::meanStdDev(patch, mean, deviation);
    if (deviation[0] < 5) return reading;  // one shade: no marker
    cv::threshold(patch, binary, 125, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    reading.bits = cv::Mat(bits, bits, CV_8UC1);
    const int inset = 1;  // pixels of each cell's edge left out, where the shades blur into each other
    const int inner = (pixels_per_cell - 2 * inset) * (pixels_per_cell - 2 * inset);
    double purity = 0;
    for (int y = 0; y < cells; ++y) {
        for (int x = 0; x < cells; ++x) {
            const cv::Rect cell(x * pixels_per_cell + inset, y * pixels_per_cell + inset, pixels_per_cell - 2 * inset,
                                pixels_per_cell - 2 * inset);
            const int white = cv::countNonZero(binary(cell));
            purity += std::abs(2.0 * white / inner - 1);
            const bool is_white = 2 * white > inner;
            if (x == 0 || y == 0 || x == cells - 1 || y == cells - 1) {
                if (is_white) ++reading.border_errors;
            } else {
                reading.bits.at<uint8_t>(y - 1, x - 1) = is_white ? 1 : 0;
            }
        }
    }
    reading.purity = purity / (cells * cells);
    return reading;
}

}  // namespace

std::vector<CodedMarker> read_coded_markers(const cv::Mat &gray) {
    std::vector<std::vector<cv::Point2f>> accepted, candidates;
    std::vector<int> ids;
    const cv::Ptr<cv::aruco::DetectorParameters> parameters = cv::aruco::DetectorParameters::create();
    cv::aruco::detectMarkers(gray, nothing_dictionary(), accepted, ids, parameters, candidates);
    candidates.insert(candidates.end(), accepted.begin(), accepted.end());
    // OpenCV's thresholds look at most 23 pixels around: the black of markers much larger than that
    // breaks up. A copy at half size finds them (their corners are settled at full size below).
    if (std::min(gray.cols, gray.rows) >= 720) {
        cv::Mat half;
        cv::resize(gray, half, cv::Size(), 0.5, 0.5, cv::INTER_AREA);
        std::vector<std::vector<cv::Point2f>> more;
        accepted.clear();
        cv::aruco::detectMarkers(half, nothing_dictionary(), accepted, ids, parameters, more);
        more.insert(more.end(), accepted.begin(), accepted.end());
        for (auto &corners : more) {
            for (cv::Point2f &point : corners) point = point * 2.0f + cv::Point2f(0.5f, 0.5f);
        }
        candidates.insert(candidates.end(), more.begin(), more.end());
    }
    std::vector<CodedMarker> found;
    for (const std::vector<cv::Point2f> &corners : candidates) {
        if (corners.size() != 4) continue;
        // The size whose cells are most cleanly one shade each is the marker's; a reading at another
        // size cuts cells across the marker's own.
        Reading best;
        int best_bits = 0;
        for (int bits = 4; bits <= 7; ++bits) {
            Reading reading = read_cells(gray, corners, bits);
            if (reading.bits.empty() || reading.purity <= best.purity) continue;
            best = std::move(reading);
            best_bits = bits;
        }
        // A border of black cells, all but a few, and cells clean enough to read.
        if (best_bits == 0 || best.purity < 0.6 || best.border_errors > (4 * (best_bits + 1)) / 10) continue;
        for (const CodeSet &set : code_sets()) {
            if (set.dictionary->markerSize != best_bits) continue;
            int index = -1, rotation = 0;
            if (!set.dictionary->identify(best.bits, index, rotation, 0.0)) continue;
            CodedMarker marker{int(set.name), index, corners};
            // Contour corners lie a little inside the marker; its proportions are measured from its
            // edges, looked for within 0.4 of a cell across (the border is a cell wide).
            double side = HUGE_VAL;
            for (size_t k = 0; k < 4; ++k) side = std::min(side, double(cv::norm(corners[k] - corners[(k + 1) % 4])));
            settle_marker_edges(gray, marker.corners, std::max(1.5, 0.4 * side / (best_bits + 2)));
            // The candidate's first corner is where reading started; the marker's own top-left is
            // `rotation` quarter turns on.
            std::rotate(marker.corners.begin(), marker.corners.begin() + 4 - rotation, marker.corners.end());
            found.push_back(std::move(marker));
            break;
        }
    }
    // Contours of one marker's outer and inner edge give two candidates: keep the larger.
    std::vector<CodedMarker> kept;
    for (CodedMarker &marker : found) {
        const double size = cv::arcLength(marker.corners, true);
        bool merged = false;
        for (CodedMarker &other : kept) {
            if (other.code_set != marker.code_set || other.id != marker.id) continue;
            if (cv::norm(other.centre() - marker.centre()) > 0.25 * size) continue;
            if (size > cv::arcLength(other.corners, true)) other = marker;
            merged = true;
            break;
        }
        if (!merged) kept.push_back(std::move(marker));
    }
    return kept;
}

bool settle_marker_edges(const cv::Mat &gray, std::vector<cv::Point2f> &corners, double reach) {
    if (corners.size() != 4 || !(reach >= 1)) return false;
    std::array<cv::Vec4f, 4> lines;
    for (size_t k = 0; k < 4; ++k) {
        const cv::Point2d a(corners[k]), b(corners[(k + 1) % 4]);
        const double length = cv::norm(b - a);
        if (!(length > 4 * reach)) return false;
        const cv::Point2d along = (b - a) * (1 / length);
        const cv::Point2d outward(along.y, -along.x);  // clockwise corners, y down: the outside is to the left
        std::vector<cv::Point2f> edge;
        constexpr int samples = 11;
        const double step = 0.25;
        const int count = int(std::ceil(reach / step));
        for (int i = 0; i < samples; ++i) {
            const cv::Point2d base = a + (b - a) * (0.2 + 0.6 * i / (samples - 1));
            std::vector<double> profile;
            for (int j = -count; j <= count; ++j) profile.push_back(gray_at(gray, base + outward * (j * step)));
            if (std::any_of(profile.begin(), profile.end(), [](double v) { return v < 0; })) continue;
            const double inside = *std::min_element(profile.begin(), profile.begin() + count + 1);
            const double outside = *std::max_element(profile.begin() + count, profile.end());
            if (outside - inside < 20) continue;
            const double half = 0.5 * (inside + outside);
            // The crossing nearest the contour's edge, going from dark to light.
            double best = HUGE_VAL;
            for (int j = 0; j + 1 < int(profile.size()); ++j) {
                if (!(profile[size_t(j)] < half && profile[size_t(j + 1)] >= half)) continue;
                const double t = (half - profile[size_t(j)]) / (profile[size_t(j + 1)] - profile[size_t(j)]);
                const double s = (j - count + t) * step;
                if (std::abs(s) < std::abs(best)) best = s;
            }
            if (best == HUGE_VAL) continue;
            const cv::Point2d p = base + outward * best;
            edge.emplace_back(float(p.x), float(p.y));
        }
        if (edge.size() < 5) return false;
        cv::fitLine(edge, lines[k], cv::DIST_L2, 0, 0.01, 0.01);
    }
    std::vector<cv::Point2f> settled(4);
    for (size_t k = 0; k < 4; ++k) {
        // Corner k + 1 is where edge k (from corner k to k + 1) meets edge k + 1.
        const cv::Vec4f &p = lines[k], &q = lines[(k + 1) % 4];
        const double d = double(p[0]) * q[1] - double(p[1]) * q[0];
        if (std::abs(d) < 1e-6) return false;
        const double t = ((double(q[2]) - p[2]) * q[1] - (double(q[3]) - p[3]) * q[0]) / d;
        const cv::Point2f corner(float(p[2] + t * p[0]), float(p[3] + t * p[1]));
        if (cv::norm(corner - corners[(k + 1) % 4]) > 2 * reach) return false;
        settled[(k + 1) % 4] = corner;
    }
    corners = settled;
    return true;
}

}  // namespace msd
