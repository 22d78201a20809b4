// The error record and pixel sizes, shared by every shim (C and C++).

#include "CShimCore.h"

#include <stdarg.h>
#include <stdio.h>

shim_status shim_error_set(shim_error *error, shim_area area, shim_status status, const char *format, ...) {
    if (error) {
        error->status = status;
        error->area = area;
        error->system_errno = 0;
        error->width = 0;
        error->height = 0;
        error->file_bytes = 0;
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(error->message, sizeof error->message, format, arguments);
        va_end(arguments);
    }
    return status;
}

shim_status shim_error_clear(shim_error *error, shim_area area) {
    return shim_error_set(error, area, SHIM_STATUS_OK, "%s", "");
}

int32_t shim_pixel_format_bytes(shim_pixel_format format) {
    switch (format) {
    case SHIM_PIXEL_FORMAT_GRAY8: return 1;
    case SHIM_PIXEL_FORMAT_BGR24:
    case SHIM_PIXEL_FORMAT_RGB24: return 3;
    case SHIM_PIXEL_FORMAT_YUYV: return 2;
    }
    return 0;
}
