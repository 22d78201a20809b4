// Declarations shared by the C files of the AprilTag shim; not part of its interface (include/mat.h).

#ifndef MAT_INTERNAL_H
#define MAT_INTERNAL_H

#include "mat.h"

#include <apriltag/apriltag.h>

// status.c: fill the caller's error record (if any) and return the status.
mat_status mat_fail(mat_error *error, mat_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
mat_status mat_succeed(mat_error *error);

// family.c: libapriltag's families, and a classic family with a border `extra` cells wider.
apriltag_family_t *mat_family_make(mat_family family);
void mat_family_release(mat_family family, apriltag_family_t *tf);
int mat_family_is_classic(const apriltag_family_t *tf);
apriltag_family_t *mat_family_widened(const apriltag_family_t *base, int32_t extra);
void mat_family_widened_free(apriltag_family_t *tf);

// grid_corners.c: what the AprilGrid detector does besides libapriltag.
uint8_t *mat_dilated_white(const uint8_t *gray, int32_t width, int32_t height, size_t stride, int32_t radius);
void mat_grid_corners_refine(const uint8_t *gray, int32_t width, int32_t height, size_t row_stride, float spacing,
                             mat_tag *tag);

// image.c: gray conversion and the sharpness measure.
uint8_t *mat_gray_copy(const uint8_t *pixels, int32_t width, int32_t height, size_t stride, mat_pixel_format format);
double mat_hull_sharpness(const uint8_t *gray, int32_t width, int32_t height, size_t stride, double *points, size_t n);

#endif
