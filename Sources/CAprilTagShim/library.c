// Which libapriltag the process loaded.

#define _GNU_SOURCE  // dladdr

#include "atag_internal.h"

#include <apriltag/apriltag.h>

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

shim_status atag_library_get(atag_library *library, shim_error *error) {
    if (!library) return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "library is NULL");
    Dl_info info;
    if (!dladdr((const void *)&apriltag_detector_create, &info) || !info.dli_fname || !info.dli_fname[0]) {
        return atag_fail(error, SHIM_STATUS_INTERNAL_ERROR, "no shared object holds apriltag_detector_create");
    }
    char resolved[PATH_MAX];
    const char *path = realpath(info.dli_fname, resolved) ? resolved : info.dli_fname;
    if (strlen(path) >= sizeof library->path) {
        return atag_fail(error, SHIM_STATUS_INTERNAL_ERROR, "the path of libapriltag is longer than %zu bytes",
                        sizeof library->path - 1);
    }
    strcpy(library->path, path);
    return atag_succeed(error);
}
