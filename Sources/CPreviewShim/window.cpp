// The preview window: highgui for the window and its keys, Xlib only to ask whether a display is
// there before highgui's toolkit (which ends the process without one) is started.
#include "CPreviewShim.h"
#include "shim_guard.hpp"

#include <X11/Xlib.h>
#include <opencv2/core.hpp>
#include <opencv2/highgui.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

struct mpw_window {
    std::string title;
    cv::Size shown;          // the size of the last frame shown; empty before the first
    bool seen_open = false;  // the toolkit has reported the window visible at least once
};

namespace {

using shim::fail;
using shim::require;

// shim::guarded, reporting as the preview shim.
template <typename Body>
shim_status guarded(shim_error *error, Body &&body) noexcept {
    return shim::guarded(SHIM_AREA_PREVIEW, error, static_cast<Body &&>(body));
}

// `size` shrunk (never grown), keeping its shape, to fit within the limits (0: none).
cv::Size fitted(cv::Size size, int max_width, int max_height) {
    double scale = 1;
    if (max_width > 0 && size.width > max_width) scale = std::min(scale, double(max_width) / size.width);
    if (max_height > 0 && size.height > max_height) scale = std::min(scale, double(max_height) / size.height);
    return cv::Size(std::max(1, int(size.width * scale)), std::max(1, int(size.height * scale)));
}

}  // namespace

extern "C" shim_status mpw_display_check(const char *display_name, int32_t *width, int32_t *height, shim_error *error) {
    return guarded(error, [&] {
        const char *name = display_name != nullptr ? display_name : std::getenv("DISPLAY");
        if (name == nullptr || *name == '\0') fail(SHIM_STATUS_NO_DISPLAY, "DISPLAY is not set");
        Display *display = XOpenDisplay(name);
        if (display == nullptr) fail(SHIM_STATUS_NO_DISPLAY, "cannot connect to the X server at DISPLAY=%s", name);
        const int screen = DefaultScreen(display);
        if (width != nullptr) *width = DisplayWidth(display, screen);
        if (height != nullptr) *height = DisplayHeight(display, screen);
        XCloseDisplay(display);
    });
}

extern "C" shim_status mpw_window_open(const char *title, mpw_window **window, shim_error *error) {
    return guarded(error, [&] {
        require(title, "title");
        require(window, "window");
        *window = nullptr;
        auto made = std::make_unique<mpw_window>();
        made->title = title;
        // GUI_NORMAL: no toolbar or status bar, the frame alone; KEEPRATIO: resizing keeps its shape.
        cv::namedWindow(made->title, cv::WINDOW_NORMAL | cv::WINDOW_KEEPRATIO | cv::WINDOW_GUI_NORMAL);
        // Qt shows the window at once; noted here so that a close in the very first poll counts.
        made->seen_open = cv::getWindowProperty(made->title, cv::WND_PROP_VISIBLE) > 0;
        *window = made.release();
    });
}

extern "C" shim_status mpw_window_show(mpw_window *window, const shim_pixels *pixels, int32_t max_width,
                                      int32_t max_height, shim_error *error) {
    return guarded(error, [&] {
        require(window, "window");
        const cv::Mat frame = shim::wrap_gray_or_bgr(pixels);
        if (frame.size() != window->shown) {
            const cv::Size size = fitted(frame.size(), max_width, max_height);
            cv::resizeWindow(window->title, size.width, size.height);
            window->shown = frame.size();
        }
        cv::imshow(window->title, frame);
    });
}

extern "C" shim_status mpw_window_poll(mpw_window *window, int32_t milliseconds, int32_t *key, int32_t *open,
                                      shim_error *error) {
    return guarded(error, [&] {
        require(window, "window");
        require(key, "key");
        require(open, "open");
        if (milliseconds < 1) fail(SHIM_STATUS_INVALID_ARGUMENT, "milliseconds is %d; at least 1 is needed", milliseconds);
        *key = cv::waitKey(milliseconds);
        // -1 once the window is gone; 0 while it is hidden, which before it first appears is no close.
        const double visible = cv::getWindowProperty(window->title, cv::WND_PROP_VISIBLE);
        if (visible > 0) window->seen_open = true;
        *open = (visible < 0 || (window->seen_open && visible == 0)) ? 0 : 1;
    });
}

extern "C" void mpw_window_close(mpw_window *window) {
    if (window == nullptr) return;
    try {
        cv::destroyWindow(window->title);
        cv::waitKey(1);  // lets the toolkit take the window off the screen
    } catch (...) {
        // Already gone (closed by the person using it): nothing to undo.
    }
    delete window;
}
