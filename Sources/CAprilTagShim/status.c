// Error records of the AprilTag shim.

#include "atag_internal.h"

#include <stdarg.h>
#include <stdio.h>

shim_status atag_fail(shim_error *error, shim_status status, const char *format, ...) {
    if (error) {
        error->status = status;
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(error->message, sizeof error->message, format, arguments);
        va_end(arguments);
    }
    return status;
}

shim_status atag_succeed(shim_error *error) {
    if (error) {
        error->status = SHIM_STATUS_OK;
        error->message[0] = 0;
    }
    return SHIM_STATUS_OK;
}
