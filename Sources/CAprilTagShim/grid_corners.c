// AprilGrid corners: Kalibr's corner squares touch the tags, so black is thinned before libapriltag
// looks, and each tag corner is then refined on the original image as the X-junction it is.

#include "atag_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// The largest share of gradient energy along the rays from a refined corner that still makes it
// an X-junction (see refine_saddle). On the synthetic views of the tests clean corners measure
// 0.08 to 0.19 and corners with the edge of a cover in their window 0.22 to 0.25.
#define ATAG_JUNCTION_RESIDUAL 0.2

static double pixel_at(const uint8_t *gray, int32_t width, int32_t height, size_t stride, double x, double y) {
    if (x < 0) x = 0;
    if (y < 0) y = 0;
    if (x > width - 1) x = width - 1;
    if (y > height - 1) y = height - 1;
    int32_t x0 = (int32_t)x, y0 = (int32_t)y;
    int32_t x1 = x0 + 1 < width ? x0 + 1 : x0, y1 = y0 + 1 < height ? y0 + 1 : y0;
    double fx = x - x0, fy = y - y0;
    double top = gray[y0 * stride + x0] * (1 - fx) + gray[y0 * stride + x1] * fx;
    double bottom = gray[y1 * stride + x0] * (1 - fx) + gray[y1 * stride + x1] * fx;
    return top * (1 - fy) + bottom * fy;
}

// The image gradient at (x, y): central differences of pixel_at, one pixel either side. Always
// inlined: refine_saddle calls it for every pixel of its window, and compilers left to themselves
// make a call of it at -O2.
static inline __attribute__((always_inline)) void gradient_at(const uint8_t *gray, int32_t width, int32_t height,
                                                               size_t stride, double x, double y, double *gx,
                                                               double *gy) {
    *gx = (pixel_at(gray, width, height, stride, x + 1, y) - pixel_at(gray, width, height, stride, x - 1, y)) / 2;
    *gy = (pixel_at(gray, width, height, stride, x, y + 1) - pixel_at(gray, width, height, stride, x, y - 1)) / 2;
}

// Moves (x, y) to the saddle point of an X-junction: the point every image gradient in the window
// is perpendicular to the line towards (the method of OpenCV's cornerSubPix), with a Gaussian
// weight. Returns 1 when it converged without leaving the window.
static int refine_saddle(const uint8_t *gray, int32_t width, int32_t height, size_t stride, int32_t half, double *x,
                         double *y) {
    double cx = *x, cy = *y;
    double sigma = half / 1.5;
    for (int iteration = 0; iteration < 40; iteration++) {
        double a = 0, b = 0, c = 0, bx = 0, by = 0;
        for (int32_t dy = -half; dy <= half; dy++) {
            for (int32_t dx = -half; dx <= half; dx++) {
                double qx = cx + dx, qy = cy + dy;
                if (qx < 1 || qy < 1 || qx > width - 2 || qy > height - 2) return 0;
                double gx, gy;
                gradient_at(gray, width, height, stride, qx, qy, &gx, &gy);
                double w = exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
                double gxx = gx * gx * w, gxy = gx * gy * w, gyy = gy * gy * w;
                a += gxx;
                b += gxy;
                c += gyy;
                bx += gxx * qx + gxy * qy;
                by += gxy * qx + gyy * qy;
            }
        }
        double det = a * c - b * b;
        if (!(fabs(det) > 1e-9 * (a * c + 1))) return 0;
        double nx = (c * bx - b * by) / det;
        double ny = (a * by - b * bx) / det;
        double step = hypot(nx - cx, ny - cy);
        cx = nx;
        cy = ny;
        if (hypot(cx - *x, cy - *y) > half) return 0;
        if (step < 0.001) break;
    }
    // At a clean X-junction every gradient is perpendicular to the ray from the junction; an edge
    // of something else in the window (a hand, the image border) is not.
    double along = 0, total = 0;
    for (int32_t dy = -half; dy <= half; dy++) {
        for (int32_t dx = -half; dx <= half; dx++) {
            double qx = cx + dx, qy = cy + dy;
            double rx = qx - cx, ry = qy - cy, r = hypot(rx, ry);
            if (r < 1 || qx < 1 || qy < 1 || qx > width - 2 || qy > height - 2) continue;
            double gx, gy;
            gradient_at(gray, width, height, stride, qx, qy, &gx, &gy);
            double w = exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
            double radial = (gx * rx + gy * ry) / r;
            along += w * radial * radial;
            total += w * (gx * gx + gy * gy);
        }
    }
    if (!(total > 0) || along / total > ATAG_JUNCTION_RESIDUAL) return 0;
    *x = cx;
    *y = cy;
    return 1;
}

// Whether (x, y) looks like an AprilGrid corner: dark inside the tag and in the corner square
// diagonally out of it, light in the two gaps between. `along` and `across` are unit vectors from
// the corner along the tag's two edges. Rejects corners whose window a foreign edge crosses.
static int looks_like_junction(const uint8_t *gray, int32_t width, int32_t height, size_t stride, int32_t half,
                               double x, double y, const double along[2], const double across[2]) {
    double dark = 1e9, light = -1e9, darkest_light = 1e9, lightest_dark = -1e9;
    const double signs[4][3] = {{1, 1, 0}, {-1, -1, 0}, {1, -1, 1}, {-1, 1, 1}};  // a, b, is light
    for (int reach = 1; reach <= 2; reach++) {
        for (int q = 0; q < 4; q++) {
            double dx = signs[q][0] * along[0] + signs[q][1] * across[0];
            double dy = signs[q][0] * along[1] + signs[q][1] * across[1];
            double norm = hypot(dx, dy);
            if (norm < 1e-9) return 0;
            double r = half * reach / 2.0;
            double px = x + dx / norm * r, py = y + dy / norm * r;
            double sum = 0;
            for (int j = -1; j <= 1; j++)
                for (int i = -1; i <= 1; i++) sum += pixel_at(gray, width, height, stride, px + i * 0.5, py + j * 0.5);
            double value = sum / 9;
            if (signs[q][2] != 0) {
                darkest_light = fmin(darkest_light, value);
                light = fmax(light, value);
            } else {
                lightest_dark = fmax(lightest_dark, value);
                dark = fmin(dark, value);
            }
        }
    }
    (void)dark;
    (void)light;
    return darkest_light - lightest_dark > 20;
}

// One pass of a max filter `radius` pixels each way, along rows or (vertical) along columns.
static void max_pass(const uint8_t *in, size_t in_stride, uint8_t *out, int32_t width, int32_t height,
                     int32_t radius, int vertical) {
    for (int32_t y = 0; y < height; y++) {
        for (int32_t x = 0; x < width; x++) {
            uint8_t best = 0;
            for (int32_t d = -radius; d <= radius; d++) {
                int32_t xx = vertical ? x : x + d, yy = vertical ? y + d : y;
                if (xx < 0 || xx >= width || yy < 0 || yy >= height) continue;
                uint8_t v = in[yy * in_stride + xx];
                if (v > best) best = v;
            }
            out[y * width + x] = best;
        }
    }
}

// White grows by `radius` pixels (a max filter), so black regions that touch at a corner part.
uint8_t *atag_dilated_white(const uint8_t *gray, int32_t width, int32_t height, size_t stride, int32_t radius) {
    uint8_t *rows = malloc((size_t)width * height);
    uint8_t *out = malloc((size_t)width * height);
    if (rows && out) {
        max_pass(gray, stride, rows, width, height, radius, 0);
        max_pass(rows, width, out, width, height, radius, 1);
    } else {
        free(out);
        out = NULL;
    }
    free(rows);
    return out;
}

// Refines the four corners of one AprilGrid tag in place, in a window sized from the tag's mean
// side and the grid's spacing, and marks each that settled on a clean X-junction.
void atag_grid_corners_refine(const uint8_t *gray, int32_t width, int32_t height, size_t row_stride, float spacing,
                             atag_tag *tag) {
    double edge = 0;
    for (int k = 0; k < 4; k++) {
        int n = (k + 1) % 4;
        edge += hypot(tag->corners[2 * n] - tag->corners[2 * k], tag->corners[2 * n + 1] - tag->corners[2 * k + 1]) / 4;
    }
    double reach = fmin(0.15, spacing * 0.5) * edge;
    int32_t half = (int32_t)lround(reach);
    if (half > 12) half = 12;
    double before[8];
    memcpy(before, tag->corners, sizeof before);
    for (int k = 0; k < 4; k++) {
        double *point = &tag->corners[2 * k];
        const double *next = &before[2 * ((k + 1) % 4)], *previous = &before[2 * ((k + 3) % 4)];
        double along[2] = {next[0] - before[2 * k], next[1] - before[2 * k + 1]};
        double across[2] = {previous[0] - before[2 * k], previous[1] - before[2 * k + 1]};
        double a = hypot(along[0], along[1]), b = hypot(across[0], across[1]);
        if (a < 1e-9 || b < 1e-9) continue;
        along[0] /= a, along[1] /= a, across[0] /= b, across[1] /= b;
        tag->corner_refined[k] =
            half >= 2 && refine_saddle(gray, width, height, row_stride, half, &point[0], &point[1]) &&
            looks_like_junction(gray, width, height, row_stride, half, point[0], point[1], along, across);
    }
}
