/*
 * mpw: marker-shutter preview window, a C interface over OpenCV 4.6's highgui (a window showing
 * frames, with its keys) and Xlib (whether a display can be reached at all). Neither is linked:
 * each is loaded the first time it is needed (libX11.so.6 by mpw_display_check,
 * libopencv_highgui.so.406 by mpw_window_open), and a library that cannot be loaded is reported
 * as SHIM_STATUS_NO_DISPLAY (Xlib) or SHIM_STATUS_LIBRARY_ERROR (highgui), naming the package.
 *
 * Conventions (as in COpenCVShim.h and CCalibrationShim.h):
 * - Every function returns a shim_status and writes results through out-parameters. When it fails
 *   and `error` is not NULL, `*error` says why. No C++ exception leaves a call.
 * - A window is an opaque handle freed with mpw_window_close, which accepts NULL.
 * - highgui runs its event loop on the thread that opened the first window: every mpw_window_*
 *   call must come from that one thread. mpw_display_check may be called from any thread.
 */
#ifndef C_PREVIEW_SHIM_H
#define C_PREVIEW_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "CShimCore.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Connects to the X server `display_name` names (NULL: the DISPLAY environment variable), reads
 * the size of its default screen into `*width` and `*height` (either may be NULL) and disconnects.
 * SHIM_STATUS_NO_DISPLAY says whether DISPLAY was unset or the server could not be reached. Call it
 * before opening a window: highgui's toolkit ends the process when it finds no display. */
shim_status mpw_display_check(const char *display_name, int32_t *width, int32_t *height, shim_error *error);

typedef struct mpw_window mpw_window;

/* Opens a resizable window titled `title` (the title must be unique among the process's windows). */
shim_status mpw_window_open(const char *title, mpw_window **window, shim_error *error);

/* Shows `pixels` (GRAY8 or BGR24) in the window (copied; the caller may free them on return). The
 * first frame, or one of another size, sizes the window to the frame, shrunk to fit within
 * `max_width` x `max_height` (0: no limit). Nothing is drawn until mpw_window_poll runs the event loop. */
shim_status mpw_window_show(mpw_window *window, const shim_pixels *pixels, int32_t max_width, int32_t max_height,
                           shim_error *error);

/* Runs the window's event loop for about `milliseconds` (at least 1), or until a key is pressed.
 * `*key` is the key's code as cv::waitKey gives it (-1: none); `*open` becomes 0 once the window is
 * gone (closed by the person using it). */
shim_status mpw_window_poll(mpw_window *window, int32_t milliseconds, int32_t *key, int32_t *open, shim_error *error);

/* Closes the window (if still open) and frees the handle; accepts NULL. */
void mpw_window_close(mpw_window *window);

#ifdef __cplusplus
}
#endif

#endif /* C_PREVIEW_SHIM_H */
