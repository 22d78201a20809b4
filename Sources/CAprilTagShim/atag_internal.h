// Declarations shared by the C files of the AprilTag shim; not part of its interface
// (include/CAprilTagShim.h).

#ifndef ATAG_INTERNAL_H
#define ATAG_INTERNAL_H

#include "CAprilTagShim.h"

#include <apriltag/apriltag.h>

// The shim convention (CShimCore.h): fill the caller's error record (if any) as the AprilTag shim
// and return the status.
#define atag_fail(error, status, ...) shim_error_set((error), SHIM_AREA_APRILTAG, (status), __VA_ARGS__)
#define atag_succeed(error) shim_error_clear((error), SHIM_AREA_APRILTAG)

// family.c: libapriltag's families, and a classic family with a border `extra` cells wider.
apriltag_family_t *atag_family_make(atag_family family);
void atag_family_release(atag_family family, apriltag_family_t *tf);
int atag_family_is_classic(const apriltag_family_t *tf);
apriltag_family_t *atag_family_widened(const apriltag_family_t *base, int32_t extra);
void atag_family_widened_free(apriltag_family_t *tf);

// grid_corners.c: what the AprilGrid detector does besides libapriltag.
uint8_t *atag_dilated_white(const uint8_t *gray, int32_t width, int32_t height, size_t stride, int32_t radius);
void atag_grid_corners_refine(const uint8_t *gray, int32_t width, int32_t height, size_t row_stride, float spacing,
                             atag_tag *tag);

// image.c: gray conversion and the sharpness measure.
uint8_t *atag_gray_copy(const uint8_t *pixels, int32_t width, int32_t height, size_t stride, shim_pixel_format format);
double atag_hull_sharpness(const uint8_t *gray, int32_t width, int32_t height, size_t stride, double *points, size_t n);

#endif
