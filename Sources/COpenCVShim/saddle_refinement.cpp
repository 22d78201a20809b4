// Corner refinement whose result changes smoothly with where it starts and how far it looks.
#include "detector.hpp"

#include <algorithm>
#include <cmath>

namespace msd {

bool settle_saddle(const cv::Mat &gray, cv::Point2f &point, double radius) {
    CV_Assert(gray.type() == CV_8UC1);
    if (!(radius >= 1) || !std::isfinite(point.x) || !std::isfinite(point.y)) return false;
    constexpr int most_steps = 50;
    constexpr double settled = 0.001;
    cv::Point2d at(point.x, point.y);
    const double reach = radius * radius;
    for (int step = 0; step < most_steps; ++step) {
        // Pixels whose gradient is known (a neighbour on each side) within `radius` of `at`.
        const int x0 = std::max(1, int(std::ceil(at.x - radius))), x1 = std::min(gray.cols - 2, int(std::floor(at.x + radius)));
        const int y0 = std::max(1, int(std::ceil(at.y - radius))), y1 = std::min(gray.rows - 2, int(std::floor(at.y + radius)));
        if (x0 > x1 || y0 > y1) return false;
        // Every pixel's gradient g defines a line through it across g; the saddle point is the
        // point nearest all of them, each weighted by a kernel that falls to zero at `radius`:
        // solve (sum w g g^T) p = sum w g g^T q.
        double a = 0, b = 0, c = 0, u = 0, v = 0;
        for (int y = y0; y <= y1; ++y) {
            const uint8_t *row = gray.ptr<uint8_t>(y), *above = gray.ptr<uint8_t>(y - 1), *below = gray.ptr<uint8_t>(y + 1);
            const double dy = y - at.y;
            for (int x = x0; x <= x1; ++x) {
                const double dx = x - at.x;
                const double fall = 1 - (dx * dx + dy * dy) / reach;
                if (fall <= 0) continue;
                const double weight = fall * fall;
                const double gx = 0.5 * (double(row[x + 1]) - double(row[x - 1]));
                const double gy = 0.5 * (double(below[x]) - double(above[x]));
                const double gxx = weight * gx * gx, gxy = weight * gx * gy, gyy = weight * gy * gy;
                a += gxx;
                b += gxy;
                c += gyy;
                u += gxx * x + gxy * y;
                v += gxy * x + gyy * y;
            }
        }
        const double determinant = a * c - b * b;
        // Gradients all along one direction (an edge, or a flat patch) fix no point.
        if (!(determinant > 1e-6 * (a + c) * (a + c)) || !(a + c > 0)) return false;
        const cv::Point2d next((c * u - b * v) / determinant, (a * v - b * u) / determinant);
        const double moved = cv::norm(next - at);
        at = next;
        if (!(cv::norm(at - cv::Point2d(point.x, point.y)) <= radius)) return false;
        if (moved < settled) break;
    }
    point = cv::Point2f(float(at.x), float(at.y));
    return true;
}

}  // namespace msd
