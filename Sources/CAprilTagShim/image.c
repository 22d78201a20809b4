// Gray conversion and the sharpness measure the OpenCV shim also reports.

#include "atag_internal.h"

#include <math.h>
#include <stdlib.h>

// A gray copy of a colour image (OpenCV's weights 0.299 R + 0.587 G + 0.114 B), or NULL.
uint8_t *atag_gray_copy(const uint8_t *pixels, int32_t width, int32_t height, size_t stride, shim_pixel_format format) {
    uint8_t *gray = malloc((size_t)width * height);
    if (!gray) return NULL;
    for (int32_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + y * stride;
        uint8_t *out = gray + (size_t)y * width;
        for (int32_t x = 0; x < width; x++) {
            switch (format) {
            case SHIM_PIXEL_FORMAT_BGR24:
                out[x] = (uint8_t)((row[3 * x] * 1868 + row[3 * x + 1] * 9617 + row[3 * x + 2] * 4899 + 8192) >> 14);
                break;
            case SHIM_PIXEL_FORMAT_RGB24:
                out[x] = (uint8_t)((row[3 * x + 2] * 1868 + row[3 * x + 1] * 9617 + row[3 * x] * 4899 + 8192) >> 14);
                break;
            default: out[x] = row[2 * x]; break;  // YUYV: Y0 U Y1 V
            }
        }
    }
    return gray;
}

static double cross(const double *o, const double *a, const double *b) {
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static int compare_points(const void *a, const void *b) {
    const double *p = a, *q = b;
    if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
    return p[1] < q[1] ? -1 : p[1] > q[1];
}

// Variance of the 3x3 Laplacian over the pixels inside the convex hull of `points` (n x, y pairs,
// sorted here), as the OpenCV shim measures sharpness. Returns -1 when the hull holds no pixel.
double atag_hull_sharpness(const uint8_t *gray, int32_t width, int32_t height, size_t stride, double *points,
                             size_t n) {
    qsort(points, n, 2 * sizeof(double), compare_points);
    double *hull = malloc(2 * (n + 1) * sizeof(double) * 2);
    if (!hull) return -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {  // Andrew's monotone chain, lower hull then upper
        while (k >= 2 && cross(&hull[2 * (k - 2)], &hull[2 * (k - 1)], &points[2 * i]) <= 0) k--;
        hull[2 * k] = points[2 * i], hull[2 * k + 1] = points[2 * i + 1], k++;
    }
    for (size_t i = n - 1, t = k + 1; i-- > 0;) {
        while (k >= t && cross(&hull[2 * (k - 2)], &hull[2 * (k - 1)], &points[2 * i]) <= 0) k--;
        hull[2 * k] = points[2 * i], hull[2 * k + 1] = points[2 * i + 1], k++;
    }
    if (k > 1) k--;  // the last point repeats the first
    double x0 = width, y0 = height, x1 = 0, y1 = 0;
    for (size_t i = 0; i < k; i++) {
        x0 = fmin(x0, hull[2 * i]), x1 = fmax(x1, hull[2 * i]);
        y0 = fmin(y0, hull[2 * i + 1]), y1 = fmax(y1, hull[2 * i + 1]);
    }
    double sum = 0, squares = 0, count = 0;
    for (int32_t y = (int32_t)fmax(1, ceil(y0)); y <= (int32_t)fmin(height - 2, floor(y1)); y++) {
        for (int32_t x = (int32_t)fmax(1, ceil(x0)); x <= (int32_t)fmin(width - 2, floor(x1)); x++) {
            int inside = k >= 3;
            for (size_t i = 0; i < k && inside; i++) {
                double p[2] = {x, y};
                if (cross(&hull[2 * i], &hull[2 * ((i + 1) % k)], p) < 0) inside = 0;
            }
            if (!inside) continue;
            const uint8_t *c = gray + y * stride + x;
            double laplacian = (double)c[-1] + c[1] + c[-(ptrdiff_t)stride] + c[stride] - 4.0 * c[0];
            sum += laplacian;
            squares += laplacian * laplacian;
            count++;
        }
    }
    free(hull);
    if (count == 0) return -1;
    double mean = sum / count;
    return squares / count - mean * mean;
}
