// The preview window: highgui for the window and its keys, Xlib only to ask whether a display is
// there before highgui's toolkit (which ends the process without one) is started. Both are loaded
// when first needed (dlopen), not linked: highgui brings Qt 5 with it, dozens of libraries that
// every start of the tool would otherwise map and relocate for the one option that opens a window.
// highgui is called through its C functions (cvNamedWindow and the rest), which OpenCV's own
// cv::namedWindow, cv::imshow, cv::waitKey and the others call with this build's toolkit.
#include "CPreviewShim.h"
#include "shim_guard.hpp"

#include <X11/Xlib.h>
#include <dlfcn.h>
#include <opencv2/core.hpp>
#include <opencv2/core/types_c.h>
#include <opencv2/highgui/highgui_c.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
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
constexpr shim::Guard<SHIM_AREA_PREVIEW> guarded{};

// A library loaded at first use, and the functions taken from it; `missing` says why it could not
// be, with the package to install.
struct Loaded {
    void *handle = nullptr;
    std::string missing;

    template <typename Function>
    void take(Function *&function, const char *name) {
        if (handle == nullptr) return;
        function = reinterpret_cast<Function *>(dlsym(handle, name));
        if (function == nullptr && missing.empty()) missing = std::string("no ") + name + " in it";
    }
};

Loaded open_library(const char *file, const char *package) {
    Loaded library;
    library.handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (library.handle == nullptr) {
        const char *reason = dlerror();
        library.missing = std::string(reason != nullptr ? reason : "not found") + " (install " + package + ")";
    }
    return library;
}

// Xlib's calls the display check makes.
struct Xlib {
    Loaded library;
    decltype(&XOpenDisplay) open_display = nullptr;
    decltype(&XCloseDisplay) close_display = nullptr;
};

const Xlib &xlib() {
    static const Xlib loaded = [] {
        Xlib x{open_library("libX11.so.6", "libx11-6")};
        x.library.take(x.open_display, "XOpenDisplay");
        x.library.take(x.close_display, "XCloseDisplay");
        return x;
    }();
    return loaded;
}

// highgui's C functions the window uses, loaded with OpenCV's highgui (and its toolkit) the first
// time a window opens.
struct Highgui {
    Loaded library;
    decltype(&cvNamedWindow) named_window = nullptr;
    decltype(&cvShowImage) show_image = nullptr;
    decltype(&cvResizeWindow) resize_window = nullptr;
    decltype(&cvWaitKey) wait_key = nullptr;
    decltype(&cvGetWindowProperty) get_window_property = nullptr;
    decltype(&cvDestroyWindow) destroy_window = nullptr;
};

const Highgui &highgui() {
    static const Highgui loaded = [] {
        Highgui h{open_library("libopencv_highgui.so.406", "libopencv-highgui406")};
        h.library.take(h.named_window, "cvNamedWindow");
        h.library.take(h.show_image, "cvShowImage");
        h.library.take(h.resize_window, "cvResizeWindow");
        h.library.take(h.wait_key, "cvWaitKey");
        h.library.take(h.get_window_property, "cvGetWindowProperty");
        h.library.take(h.destroy_window, "cvDestroyWindow");
        return h;
    }();
    return loaded;
}

const Highgui &loaded_highgui() {
    const Highgui &h = highgui();
    if (!h.library.missing.empty()) {
        fail(SHIM_STATUS_LIBRARY_ERROR, "cannot load OpenCV's highgui (libopencv_highgui.so.406) for the window: %s",
             h.library.missing.c_str());
    }
    return h;
}

// cv::waitKey's answer from the toolkit's: the key's low byte, or -1 for none.
int32_t key_of(int code) { return code != -1 ? (code & 0xff) : -1; }

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
        const Xlib &x = xlib();
        if (!x.library.missing.empty()) {
            fail(SHIM_STATUS_NO_DISPLAY, "cannot load Xlib (libX11.so.6) to reach DISPLAY=%s: %s", name,
                 x.library.missing.c_str());
        }
        Display *display = x.open_display(name);
        if (display == nullptr) fail(SHIM_STATUS_NO_DISPLAY, "cannot connect to the X server at DISPLAY=%s", name);
        const int screen = DefaultScreen(display);
        if (width != nullptr) *width = DisplayWidth(display, screen);
        if (height != nullptr) *height = DisplayHeight(display, screen);
        x.close_display(display);
    });
}

extern "C" shim_status mpw_window_open(const char *title, mpw_window **window, shim_error *error) {
    return guarded(error, [&] {
        require(title, "title");
        require(window, "window");
        *window = nullptr;
        const Highgui &h = loaded_highgui();
        auto made = std::make_unique<mpw_window>();
        made->title = title;
        // GUI_NORMAL: no toolbar or status bar, the frame alone; KEEPRATIO: resizing keeps its shape.
        h.named_window(made->title.c_str(), CV_WINDOW_NORMAL | CV_WINDOW_KEEPRATIO | CV_GUI_NORMAL);
        // Qt shows the window at once; noted here so that a close in the very first poll counts.
        made->seen_open = h.get_window_property(made->title.c_str(), CV_WND_PROP_VISIBLE) > 0;
        *window = made.release();
    });
}

extern "C" shim_status mpw_window_show(mpw_window *window, const shim_pixels *pixels, int32_t max_width,
                                      int32_t max_height, shim_error *error) {
    return guarded(error, [&] {
        require(window, "window");
        const Highgui &h = loaded_highgui();
        const cv::Mat frame = shim::wrap_gray_or_bgr(pixels);
        if (frame.size() != window->shown) {
            const cv::Size size = fitted(frame.size(), max_width, max_height);
            h.resize_window(window->title.c_str(), size.width, size.height);
            window->shown = frame.size();
        }
        CvMat shown = cvMat(frame);
        h.show_image(window->title.c_str(), &shown);
    });
}

extern "C" shim_status mpw_window_poll(mpw_window *window, int32_t milliseconds, int32_t *key, int32_t *open,
                                      shim_error *error) {
    return guarded(error, [&] {
        require(window, "window");
        require(key, "key");
        require(open, "open");
        if (milliseconds < 1) fail(SHIM_STATUS_INVALID_ARGUMENT, "milliseconds is %d; at least 1 is needed", milliseconds);
        const Highgui &h = loaded_highgui();
        *key = key_of(h.wait_key(milliseconds));
        // -1 once the window is gone; 0 while it is hidden, which before it first appears is no close.
        const double visible = h.get_window_property(window->title.c_str(), CV_WND_PROP_VISIBLE);
        if (visible > 0) window->seen_open = true;
        *open = (visible < 0 || (window->seen_open && visible == 0)) ? 0 : 1;
    });
}

extern "C" void mpw_window_close(mpw_window *window) {
    if (window == nullptr) return;
    try {
        const Highgui &h = highgui();
        if (h.destroy_window != nullptr && h.wait_key != nullptr) {
            h.destroy_window(window->title.c_str());
            h.wait_key(1);  // lets the toolkit take the window off the screen
        }
    } catch (...) {
        // Already gone (closed by the person using it): nothing to undo.
    }
    delete window;
}
