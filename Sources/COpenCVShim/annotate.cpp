// Annotation: markers with ids, board corners with ids and a status badge on a BGR copy of a frame.
#include "shim.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <memory>
#include <string>

namespace msd {
namespace {

const cv::Scalar marker_colour(0, 200, 0);
const cv::Scalar first_corner_colour(0, 0, 255);
const cv::Scalar corner_colour(255, 0, 255);
const cv::Scalar id_colour(255, 90, 0);

// Line widths and text sizes grow with the frame so that a 1080p annotation reads like a VGA one.
struct Pen {
    int thickness;
    double font_scale;
    explicit Pen(const cv::Mat &image) {
        thickness = std::max(1, std::min(image.cols, image.rows) / 480);
        font_scale = 0.45 * thickness;
    }
};

void label(cv::Mat &image, const std::string &text, cv::Point at, const Pen &pen, const cv::Scalar &colour) {
    cv::putText(image, text, at, cv::FONT_HERSHEY_SIMPLEX, pen.font_scale, colour, pen.thickness, cv::LINE_AA);
}

void draw_markers(cv::Mat &image, const msd_detection_view &detection, const Pen &pen) {
    for (size_t marker = 0; marker < detection.marker_count; ++marker) {
        const float *xy = detection.marker_corners + 8 * marker;
        std::vector<cv::Point> outline;
        cv::Point2f centre(0, 0);
        for (int corner = 0; corner < 4; ++corner) {
            const cv::Point2f point(xy[2 * corner], xy[2 * corner + 1]);
            outline.emplace_back(point);
            centre += point / 4;
        }
        cv::polylines(image, outline, true, marker_colour, pen.thickness, cv::LINE_AA);
        const cv::Point mark(2 * pen.thickness, 2 * pen.thickness);
        cv::rectangle(image, outline[0] - mark, outline[0] + mark, first_corner_colour, cv::FILLED);
        label(image, std::to_string(detection.marker_ids[marker]), centre, pen, id_colour);
    }
}

void draw_corners(cv::Mat &image, const msd_detection_view &detection, const Pen &pen) {
    for (size_t corner = 0; corner < detection.corner_count; ++corner) {
        const cv::Point2f point(detection.corner_points[2 * corner], detection.corner_points[2 * corner + 1]);
        cv::circle(image, point, 3 * pen.thickness, corner_colour, pen.thickness, cv::LINE_AA);
        label(image, std::to_string(detection.corner_ids[corner]), point + cv::Point2f(4.0f * pen.thickness, -4.0f * pen.thickness),
              pen, corner_colour);
    }
}

void draw_badge(cv::Mat &image, const char *text, bool ok, const Pen &pen) {
    const double scale = 1.5 * pen.font_scale;
    const int padding = 6 * pen.thickness;
    int baseline = 0;
    const cv::Size size = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, scale, pen.thickness, &baseline);
    const cv::Rect badge(0, 0, size.width + 2 * padding, size.height + baseline + 2 * padding);
    cv::rectangle(image, badge, ok ? cv::Scalar(0, 150, 0) : cv::Scalar(0, 0, 190), cv::FILLED);
    cv::putText(image, text, cv::Point(padding, padding + size.height), cv::FONT_HERSHEY_SIMPLEX, scale,
                cv::Scalar(255, 255, 255), pen.thickness, cv::LINE_AA);
}

}  // namespace
}  // namespace msd

extern "C" shim_status msd_image_annotate(const shim_pixels *pixels, const msd_annotation *annotation, msd_image **image,
                                         shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(annotation, "annotation");
        msd::require(image, "image");
        *image = nullptr;
        const msd_detection_view &detection = annotation->detection;
        if (detection.marker_count > 0) {
            msd::require(detection.marker_ids, "annotation->detection.marker_ids");
            msd::require(detection.marker_corners, "annotation->detection.marker_corners");
        }
        if (detection.corner_count > 0) {
            msd::require(detection.corner_ids, "annotation->detection.corner_ids");
            msd::require(detection.corner_points, "annotation->detection.corner_points");
        }
        const cv::Mat wrapped = msd::wrap(pixels);
        auto result = std::make_unique<msd_image>(msd_image{msd::bgr_copy(wrapped, pixels->format), SHIM_PIXEL_FORMAT_BGR24});
        const msd::Pen pen(result->mat);
        msd::draw_markers(result->mat, detection, pen);
        msd::draw_corners(result->mat, detection, pen);
        if (annotation->badge_text != nullptr) msd::draw_badge(result->mat, annotation->badge_text, annotation->badge_ok != 0, pen);
        *image = result.release();
    });
}
