// The preview window: highgui for the window and its keys, Xlib only to ask whether a display is
// there before highgui's toolkit (which ends the process without one) is started.
#include "CPreviewShim.h"

#include <X11/Xlib.h>
#include <opencv2/core.hpp>
#include <opencv2/highgui.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

struct mpw_window {
    std::string title;
    cv::Size shown;          // the size of the last frame shown; empty before the first
    bool seen_open = false;  // the toolkit has reported the window visible at least once
};

namespace {

struct Failure {
    shim_status status;
    std::string message;
};

[[noreturn]] __attribute__((format(printf, 2, 3))) void fail(shim_status status, const char *format, ...) {
    char buffer[sizeof(shim_error{}.message)];
    va_list arguments;
    va_start(arguments, format);
    std::vsnprintf(buffer, sizeof buffer, format, arguments);
    va_end(arguments);
    throw Failure{status, buffer};
}

shim_status report(shim_error *error, shim_status status, const std::string &message) {
    if (error != nullptr) {
        error->status = status;
        std::snprintf(error->message, sizeof error->message, "%s", message.c_str());
    }
    return status;
}

template <typename Body>
shim_status guarded(shim_error *error, Body &&body) noexcept {
    try {
        body();
        return report(error, SHIM_STATUS_OK, "");
    } catch (const Failure &failure) {
        return report(error, failure.status, failure.message);
    } catch (const cv::Exception &exception) {
        return report(error, SHIM_STATUS_LIBRARY_ERROR, "OpenCV error in " + exception.func + ": " + exception.err);
    } catch (const std::bad_alloc &) {
        return report(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception &exception) {
        return report(error, SHIM_STATUS_INTERNAL_ERROR, std::string("internal error: ") + exception.what());
    } catch (...) {
        return report(error, SHIM_STATUS_INTERNAL_ERROR, "internal error: unknown exception");
    }
}

void require(const void *pointer, const char *name) {
    if (pointer == nullptr) fail(SHIM_STATUS_INVALID_ARGUMENT, "%s is NULL", name);
}

cv::Mat wrap(const mpw_pixels *pixels) {
    require(pixels, "pixels");
    require(pixels->data, "pixels->data");
    if (pixels->channels != 1 && pixels->channels != 3) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "pixels have %d channels; 1 or 3 are allowed", pixels->channels);
    }
    if (pixels->width < 1 || pixels->height < 1) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "empty image: %dx%d pixels", pixels->width, pixels->height);
    }
    if (pixels->row_stride < size_t(pixels->width) * size_t(pixels->channels)) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "row stride %zu is smaller than one row of %d pixels", pixels->row_stride,
             pixels->width);
    }
    return cv::Mat(pixels->height, pixels->width, CV_8UC(pixels->channels), const_cast<void *>(pixels->data),
                   pixels->row_stride);
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

extern "C" shim_status mpw_window_show(mpw_window *window, const mpw_pixels *pixels, int32_t max_width,
                                      int32_t max_height, shim_error *error) {
    return guarded(error, [&] {
        require(window, "window");
        const cv::Mat frame = wrap(pixels);
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
