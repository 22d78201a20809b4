// Drawing on caller-owned BGR pixels, for the calibration's coverage and residual pictures.
#include "calibration.hpp"

#include <opencv2/imgproc.hpp>

namespace {

cv::Mat canvas_of(const shim_pixels *canvas) {
    cv::Mat mat = mcal::wrap(canvas);
    if (mat.channels() != 3) mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "drawing needs BGR pixels (3 channels)");
    return mat;
}

cv::Scalar scalar(mcal_color color) { return cv::Scalar(color.blue, color.green, color.red); }

// Sub-pixel positions for OpenCV's drawing functions: 4 fractional bits.
constexpr int shift = 4;
cv::Point fixed(double x, double y) { return cv::Point(cvRound(x * (1 << shift)), cvRound(y * (1 << shift))); }

}  // namespace

extern "C" {

shim_status mcal_draw_line(const shim_pixels *canvas, double x0, double y0, double x1, double y1, mcal_color color,
                           int32_t thickness, int32_t arrow, shim_error *error) {
    return mcal::guarded(error, [&] {
        cv::Mat mat = canvas_of(canvas);
        if (arrow != 0) {
            cv::arrowedLine(mat, fixed(x0, y0), fixed(x1, y1), scalar(color), std::max(1, thickness), cv::LINE_AA,
                            shift, 0.25);
        } else {
            cv::line(mat, fixed(x0, y0), fixed(x1, y1), scalar(color), std::max(1, thickness), cv::LINE_AA, shift);
        }
    });
}

shim_status mcal_draw_rectangle(const shim_pixels *canvas, double x0, double y0, double x1, double y1,
                                mcal_color color, int32_t thickness, shim_error *error) {
    return mcal::guarded(error, [&] {
        cv::Mat mat = canvas_of(canvas);
        cv::rectangle(mat, fixed(x0, y0), fixed(x1, y1), scalar(color), thickness < 0 ? cv::FILLED : thickness,
                      cv::LINE_8, shift);
    });
}

shim_status mcal_draw_circle(const shim_pixels *canvas, double x, double y, double radius, mcal_color color,
                             int32_t thickness, shim_error *error) {
    return mcal::guarded(error, [&] {
        cv::Mat mat = canvas_of(canvas);
        cv::circle(mat, fixed(x, y), cvRound(radius * (1 << shift)), scalar(color),
                   thickness < 0 ? cv::FILLED : thickness, cv::LINE_AA, shift);
    });
}

shim_status mcal_draw_text(const shim_pixels *canvas, const char *text, double x, double y, double scale,
                           mcal_color color, int32_t thickness, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(text, "text");
        cv::Mat mat = canvas_of(canvas);
        cv::putText(mat, text, cv::Point(cvRound(x), cvRound(y)), cv::FONT_HERSHEY_SIMPLEX, scale, scalar(color),
                    std::max(1, thickness), cv::LINE_AA);
    });
}

}  // extern "C"
