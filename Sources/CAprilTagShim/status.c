// Error records of the AprilTag shim.

#include "mat_internal.h"

#include <stdarg.h>
#include <stdio.h>

mat_status mat_fail(mat_error *error, mat_status status, const char *format, ...) {
    if (error) {
        error->status = status;
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(error->message, sizeof error->message, format, arguments);
        va_end(arguments);
    }
    return status;
}

mat_status mat_succeed(mat_error *error) {
    if (error) {
        error->status = MAT_STATUS_OK;
        error->message[0] = 0;
    }
    return MAT_STATUS_OK;
}
