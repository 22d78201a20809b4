// Error records of the AprilTag shim.

#include "atag_internal.h"

#include <stdarg.h>
#include <stdio.h>

atag_status atag_fail(atag_error *error, atag_status status, const char *format, ...) {
    if (error) {
        error->status = status;
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(error->message, sizeof error->message, format, arguments);
        va_end(arguments);
    }
    return status;
}

atag_status atag_succeed(atag_error *error) {
    if (error) {
        error->status = ATAG_STATUS_OK;
        error->message[0] = 0;
    }
    return ATAG_STATUS_OK;
}
