// The detection benchmark's C++ baseline: the same per-frame work as MarkerDetector.detect for
// `charuco:5x7:DICT_6X6_250`, written directly against OpenCV 4.6 with no wrapper in between, and
// timed by a C++ loop. It runs inside the benchmark's own process, on the very frame buffers the
// Swift side uses, so that heap layout and page placement are the same for both.
#include "detection_baseline.h"

#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <chrono>
#include <vector>

namespace {

struct Result {
    size_t corners = 0;
    double sharpness = 0;
};

Result detect(const cv::Mat &frame, const cv::Ptr<cv::aruco::CharucoBoard> &board,
              const cv::Ptr<cv::aruco::DetectorParameters> &parameters) {
    cv::Mat gray;
    cv::cvtColor(frame, gray, cv::COLOR_BGR2GRAY);
    std::vector<std::vector<cv::Point2f>> markers, rejected;
    std::vector<int> ids;
    cv::aruco::detectMarkers(gray, board->dictionary, markers, ids, parameters, rejected);
    cv::aruco::refineDetectedMarkers(gray, board, markers, ids, rejected, cv::noArray(), cv::noArray(), 10.f, 3.f, true,
                                     cv::noArray(), parameters);
    std::vector<cv::Point2f> corners;
    std::vector<int> cornerIds;
    if (!ids.empty()) cv::aruco::interpolateCornersCharuco(markers, ids, gray, board, corners, cornerIds);
    std::vector<cv::Point2f> everything;
    for (const auto &marker : markers) everything.insert(everything.end(), marker.begin(), marker.end());
    for (auto &corner : corners) {
        corner -= cv::Point2f(0.5f, 0.5f);
        everything.push_back(corner);
    }
    Result result;
    result.corners = corners.size();
    if (everything.empty()) return result;
    std::vector<cv::Point2f> hull;
    cv::convexHull(everything, hull);
    const cv::Rect box = cv::boundingRect(hull) & cv::Rect(0, 0, gray.cols, gray.rows);
    std::vector<cv::Point> polygon;
    for (const auto &point : hull) polygon.emplace_back(cvRound(point.x) - box.x, cvRound(point.y) - box.y);
    cv::Mat mask = cv::Mat::zeros(box.size(), CV_8UC1);
    cv::fillConvexPoly(mask, polygon, cv::Scalar(255));
    cv::Mat laplacian;
    cv::Laplacian(gray(box), laplacian, CV_16S);
    cv::Scalar mean, deviation;
    cv::meanStdDev(laplacian, mean, deviation, mask);
    result.sharpness = deviation[0] * deviation[0];
    return result;
}

}  // namespace

extern "C" int detection_baseline_run(const void *bgr, int width, int height, size_t row_stride, int count,
                                      double *milliseconds) {
    static const auto parameters = cv::aruco::DetectorParameters::create();
    static const auto board = cv::aruco::CharucoBoard::create(
        5, 7, 0.04f, 0.02f, cv::aruco::getPredefinedDictionary(cv::aruco::DICT_6X6_250));
    const cv::Mat frame(height, width, CV_8UC3, const_cast<void *>(bgr), row_stride);
    Result result;
    for (int iteration = 0; iteration < count; ++iteration) {
        const auto start = std::chrono::steady_clock::now();
        result = detect(frame, board, parameters);
        const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
        milliseconds[iteration] = elapsed.count();
    }
    return int(result.corners);
}

extern "C" int detection_baseline_threads(void) { return cv::getNumThreads(); }
