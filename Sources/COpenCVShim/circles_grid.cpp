// Circle grids, symmetric and asymmetric: found with cv::findCirclesGrid, their centres refined on
// the image's gray levels, and drawn as printable targets.
#include "circles_grid.hpp"

#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace msd {

bool is_circle_grid(const msd_pattern &pattern) {
    return pattern.kind == MSD_PATTERN_CIRCLES || pattern.kind == MSD_PATTERN_ACIRCLES;
}

cv::Point2d circle_grid_point(const msd_pattern &pattern, int id) {
    const int column = id % pattern.columns, row = id / pattern.columns;
    const double x = pattern.kind == MSD_PATTERN_ACIRCLES ? 2 * column + row % 2 : column;
    return {x * pattern.square_length, row * pattern.square_length};
}

cv::Ptr<cv::SimpleBlobDetector> circle_blob_detector(cv::Size image, int points) {
    cv::SimpleBlobDetector::Params parameters;
    parameters.minThreshold = 40;
    parameters.maxThreshold = 230;
    parameters.thresholdStep = 10;
    parameters.minRepeatability = 2;
    // Blobs closer than this are one; circles a few pixels apart must stay apart.
    parameters.minDistBetweenBlobs = 3;
    parameters.filterByColor = true;
    parameters.blobColor = 0;
    parameters.filterByArea = true;
    parameters.minArea = 10;
    // No circle covers more than its share of the image.
    parameters.maxArea = float(std::max(100.0, double(image.area()) / std::max(points, 1)));
    parameters.filterByCircularity = false;
    // A circle seen at a slant is an ellipse; a blurred one loses a little of its convexity.
    parameters.filterByInertia = true;
    parameters.minInertiaRatio = 0.1f;
    parameters.filterByConvexity = true;
    parameters.minConvexity = 0.85f;
    return cv::SimpleBlobDetector::create(parameters);
}

namespace {

// Labels found with the pattern turned a quarter (rows x columns) relabelled as the board's own
// columns x rows, turned back (a rotation, not a mirror, so that the board keeps its handedness).
std::vector<cv::Point2f> turn_labels(const std::vector<cv::Point2f> &found, int columns, int rows) {
    // `found` has `rows` points a line and `columns` lines; board (c, r) is found line c, point rows - 1 - r.
    std::vector<cv::Point2f> points(found.size());
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < columns; ++c) points[size_t(r * columns + c)] = found[size_t(c * rows + (rows - 1 - r))];
    }
    return points;
}

// A blob "detector" that gives blobs found already, so that findCirclesGrid does not look again.
class KeptBlobs : public cv::Feature2D {
public:
    explicit KeptBlobs(std::vector<cv::KeyPoint> blobs) : blobs_(std::move(blobs)) {}
    void detect(cv::InputArray, std::vector<cv::KeyPoint> &keypoints, cv::InputArray) override { keypoints = blobs_; }

private:
    std::vector<cv::KeyPoint> blobs_;
};

bool find_circle_grid_with(const cv::Mat &gray, int columns, int rows, bool asymmetric, const cv::Ptr<cv::FeatureDetector> &blobs,
                           std::vector<cv::Point2f> &points) {
    points.clear();
    const int flags = asymmetric ? cv::CALIB_CB_ASYMMETRIC_GRID : cv::CALIB_CB_SYMMETRIC_GRID;
    if (cv::findCirclesGrid(gray, cv::Size(columns, rows), points, flags, blobs)) return true;
    points.clear();
    // OpenCV finds a symmetric grid only with its rows along the image's rows: a grid turned a
    // quarter is found as rows x columns.
    if (asymmetric || columns == rows) return false;
    std::vector<cv::Point2f> turned;
    if (!cv::findCirclesGrid(gray, cv::Size(rows, columns), turned, flags, blobs)) return false;
    points = turn_labels(turned, columns, rows);
    return true;
}

}  // namespace

bool find_circle_grid(const cv::Mat &gray, int columns, int rows, bool asymmetric, std::vector<cv::Point2f> &points) {
    return find_circle_grid_with(gray, columns, rows, asymmetric, circle_blob_detector(gray.size(), columns * rows), points);
}

bool find_circle_grid(const cv::Mat &gray, int columns, int rows, bool asymmetric, const std::vector<cv::KeyPoint> &blobs,
                      std::vector<cv::Point2f> &points) {
    return find_circle_grid_with(gray, columns, rows, asymmetric, cv::makePtr<KeptBlobs>(blobs), points);
}

void refine_circle_centres(const cv::Mat &gray, const msd_pattern &pattern, std::vector<cv::Point2f> &points) {
    const int columns = pattern.columns, rows = pattern.rows;
    const bool asymmetric = pattern.kind == MSD_PATTERN_ACIRCLES;
    const std::vector<cv::Point2f> found = points;
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < columns; ++column) {
            const size_t index = size_t(row * columns + column);
            // The nearest neighbour on the grid: a point of the next or previous row, or of the same row.
            double nearest = HUGE_VAL;
            for (int r = std::max(0, row - 1); r <= std::min(rows - 1, row + 1); ++r) {
                for (int c = std::max(0, column - 1); c <= std::min(columns - 1, column + 1); ++c) {
                    if (r == row && c == column) continue;
                    if (!asymmetric && r != row && c != column) continue;
                    nearest = std::min(nearest, double(cv::norm(found[size_t(r * columns + c)] - found[index])));
                }
            }
            if (!std::isfinite(nearest)) continue;
            settle_blob_centre(gray, points[index], 0.5 * nearest);
        }
    }
}

bool settle_blob_centre(const cv::Mat &gray, cv::Point2f &point, double radius) {
    CV_Assert(gray.type() == CV_8UC1);
    if (!(radius >= 1.5) || !std::isfinite(point.x) || !std::isfinite(point.y)) return false;
    cv::Point2d at(point.x, point.y);
    for (int step = 0; step < 5; ++step) {
        const int x0 = std::max(0, int(std::ceil(at.x - radius))), x1 = std::min(gray.cols - 1, int(std::floor(at.x + radius)));
        const int y0 = std::max(0, int(std::ceil(at.y - radius))), y1 = std::min(gray.rows - 1, int(std::floor(at.y + radius)));
        if (x1 - x0 < 2 || y1 - y0 < 2) return false;
        // The dark and light levels around the blob: the darkest and lightest tenth of the disc.
        int histogram[256] = {0};
        int count = 0;
        for (int y = y0; y <= y1; ++y) {
            const uint8_t *line = gray.ptr<uint8_t>(y);
            for (int x = x0; x <= x1; ++x) {
                if ((x - at.x) * (x - at.x) + (y - at.y) * (y - at.y) > radius * radius) continue;
                ++histogram[line[x]];
                ++count;
            }
        }
        if (count < 9) return false;
        int dark = 0, light = 255;
        for (int seen = 0, level = 0; level < 256; ++level) {
            seen += histogram[level];
            if (seen * 10 >= count) { dark = level; break; }
        }
        for (int seen = 0, level = 255; level >= 0; --level) {
            seen += histogram[level];
            if (seen * 10 >= count) { light = level; break; }
        }
        if (light - dark < 16) return false;
        // Each pixel weighs as much as it is dark between the two levels, fading out near the disc's
        // rim, so that the light ground around the blob adds nothing and blur moves no weight.
        double sum = 0, sx = 0, sy = 0;
        for (int y = y0; y <= y1; ++y) {
            const uint8_t *line = gray.ptr<uint8_t>(y);
            for (int x = x0; x <= x1; ++x) {
                const double d2 = ((x - at.x) * (x - at.x) + (y - at.y) * (y - at.y)) / (radius * radius);
                if (d2 > 1) continue;
                const double darkness = std::clamp(double(light - line[x]) / double(light - dark), 0.0, 1.0);
                const double weight = darkness * (d2 < 0.8 ? 1.0 : (1 - d2) / 0.2);
                sum += weight;
                sx += weight * x;
                sy += weight * y;
            }
        }
        if (!(sum > 0)) return false;
        const cv::Point2d next(sx / sum, sy / sum);
        const double moved = cv::norm(next - at);
        at = next;
        if (cv::norm(at - cv::Point2d(point.x, point.y)) > radius) return false;
        if (moved < 0.005) break;
    }
    point = cv::Point2f(float(at.x), float(at.y));
    return true;
}

void detect_circles(const msd_detector &detector, const cv::Mat &gray, bool fast, msd_detection &result) {
    const msd_pattern &pattern = detector.pattern;
    const bool asymmetric = pattern.kind == MSD_PATTERN_ACIRCLES;
    std::vector<cv::Point2f> points;
    bool found = false;
    // Fast mode looks in a copy shrunk by whole blocks to about 800 pixels on its longer side, and
    // at full resolution only when that finds no grid.
    const int factor = int(std::max(gray.cols, gray.rows) / 800);
    if (fast && factor >= 2) {
        cv::Mat small;
        cv::resize(gray, small, cv::Size(), 1.0 / factor, 1.0 / factor, cv::INTER_AREA);
        found = find_circle_grid(small, pattern.columns, pattern.rows, asymmetric, points);
        for (cv::Point2f &point : points) point = cv::Point2f((point.x + 0.5f) * factor - 0.5f, (point.y + 0.5f) * factor - 0.5f);
    }
    if (!found) found = find_circle_grid(gray, pattern.columns, pattern.rows, asymmetric, points);
    if (!found) return;
    refine_circle_centres(gray, pattern, points);
    for (size_t index = 0; index < points.size(); ++index) {
        result.corner_ids.push_back(int32_t(index));
        result.corner_points.push_back(points[index].x);
        result.corner_points.push_back(points[index].y);
    }
}

void render_circles(const msd_pattern &pattern, cv::Mat &image, int margin) {
    const bool asymmetric = pattern.kind == MSD_PATTERN_ACIRCLES;
    // The grid's extent in spacings, and a quiet zone of one spacing around it.
    const double across = asymmetric ? (pattern.rows > 1 ? 2 * pattern.columns - 1 : 2 * pattern.columns - 2)
                                     : pattern.columns - 1;
    const double down = pattern.rows - 1;
    const int spacing = int(std::floor(std::min((image.cols - 2 * margin) / (across + 2), (image.rows - 2 * margin) / (down + 2))));
    if (spacing < 8) {
        fail(SHIM_STATUS_INVALID_ARGUMENT,
             "the image is too small to draw this target: the spacing would be %d pixels (at least 8)", spacing);
    }
    const cv::Point origin((image.cols - int(across) * spacing) / 2, (image.rows - int(down) * spacing) / 2);
    // Centres and radii in 1/16 pixel (cv::circle's shift of 4), edges antialiased.
    const int radius = int(std::lround(spacing * 16 * printed_circle_diameter / 2));
    for (int id = 0; id < pattern.columns * pattern.rows; ++id) {
        const int column = id % pattern.columns, row = id / pattern.columns;
        const int x = (asymmetric ? 2 * column + row % 2 : column) * spacing;
        const cv::Point centre((origin.x + x) * 16, (origin.y + row * spacing) * 16);
        cv::circle(image, centre, radius, cv::Scalar(0), cv::FILLED, cv::LINE_AA, 4);
    }
}

}  // namespace msd
