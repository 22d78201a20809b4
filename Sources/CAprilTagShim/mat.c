// mat: libapriltag 3 behind a pure C interface (include/mat.h).
//
// libapriltag's detector keeps working state (a worker pool, timing records) in its
// apriltag_detector_t, so one may not detect on two threads at once. A mat_detector keeps a pool of
// them, all reading one tag family and its error-correcting lookup table (which for tag36h11 is
// about 36 MB): a call takes an idle detector or makes one, and gives it back.

#include "mat.h"

#include <apriltag/apriltag.h>
#include <apriltag/common/image_u8.h>
#include <apriltag/common/zarray.h>
#include <apriltag/tag16h5.h>
#include <apriltag/tag25h9.h>
#include <apriltag/tag36h11.h>
#include <apriltag/tagCircle21h7.h>
#include <apriltag/tagCustom48h12.h>
#include <apriltag/tagStandard41h12.h>
#include <apriltag/tagStandard52h13.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int32_t mat_minimum_side = 16;

// The largest share of gradient energy along the rays from a refined corner that still makes it
// an X-junction (see refine_saddle). On the synthetic views of the tests clean corners measure
// 0.08 to 0.19 and corners with the edge of a cover in their window 0.22 to 0.25.
#define MAT_JUNCTION_RESIDUAL 0.2

static mat_status fail(mat_error *error, mat_status status, const char *format, ...) {
    if (error) {
        error->status = status;
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(error->message, sizeof error->message, format, arguments);
        va_end(arguments);
    }
    return status;
}

static mat_status succeed(mat_error *error) {
    if (error) {
        error->status = MAT_STATUS_OK;
        error->message[0] = 0;
    }
    return MAT_STATUS_OK;
}

// MARK: - Families

static apriltag_family_t *family_create(mat_family family) {
    switch (family) {
    case MAT_FAMILY_TAG36H11: return tag36h11_create();
    case MAT_FAMILY_TAG25H9: return tag25h9_create();
    case MAT_FAMILY_TAG16H5: return tag16h5_create();
    case MAT_FAMILY_TAGSTANDARD41H12: return tagStandard41h12_create();
    case MAT_FAMILY_TAGSTANDARD52H13: return tagStandard52h13_create();
    case MAT_FAMILY_TAGCIRCLE21H7: return tagCircle21h7_create();
    case MAT_FAMILY_TAGCUSTOM48H12: return tagCustom48h12_create();
    }
    return NULL;
}

static void family_destroy(mat_family family, apriltag_family_t *tf) {
    if (!tf) return;
    switch (family) {
    case MAT_FAMILY_TAG36H11: tag36h11_destroy(tf); break;
    case MAT_FAMILY_TAG25H9: tag25h9_destroy(tf); break;
    case MAT_FAMILY_TAG16H5: tag16h5_destroy(tf); break;
    case MAT_FAMILY_TAGSTANDARD41H12: tagStandard41h12_destroy(tf); break;
    case MAT_FAMILY_TAGSTANDARD52H13: tagStandard52h13_destroy(tf); break;
    case MAT_FAMILY_TAGCIRCLE21H7: tagCircle21h7_destroy(tf); break;
    case MAT_FAMILY_TAGCUSTOM48H12: tagCustom48h12_destroy(tf); break;
    }
}

static int family_is_classic(const apriltag_family_t *tf) {
    return !tf->reversed_border && tf->total_width == tf->width_at_border + 2;
}

mat_status mat_family_info_get(mat_family family, mat_family_info *info, mat_error *error) {
    apriltag_family_t *tf = family_create(family);
    if (!tf) return fail(error, MAT_STATUS_INVALID_ARGUMENT, "unknown tag family %d", (int)family);
    info->code_count = (int32_t)tf->ncodes;
    info->total_width = tf->total_width;
    info->width_at_border = tf->width_at_border;
    info->classic = family_is_classic(tf);
    family_destroy(family, tf);
    return succeed(error);
}

mat_status mat_tag_cells_get(mat_family family, int32_t id, int32_t border_cells, uint8_t *cells, size_t capacity,
                             int32_t *side, mat_error *error) {
    if (border_cells != 1 && border_cells != 2)
        return fail(error, MAT_STATUS_INVALID_ARGUMENT, "a tag border of 1 or 2 cells, not %d", (int)border_cells);
    apriltag_family_t *tf = family_create(family);
    if (!tf) return fail(error, MAT_STATUS_INVALID_ARGUMENT, "unknown tag family %d", (int)family);
    mat_status status = MAT_STATUS_OK;
    image_u8_t *image = NULL;
    if (id < 0 || (uint32_t)id >= tf->ncodes) {
        status = fail(error, MAT_STATUS_INVALID_ARGUMENT, "tag id %d is not in %s (0...%u)", (int)id, tf->name,
                      tf->ncodes - 1);
        goto done;
    }
    if (border_cells == 2 && !family_is_classic(tf)) {
        status = fail(error, MAT_STATUS_INVALID_ARGUMENT, "%s has data outside its border: it cannot have a wider border",
                      tf->name);
        goto done;
    }
    image = apriltag_to_image(tf, id);
    if (!image) {
        status = fail(error, MAT_STATUS_OUT_OF_MEMORY, "out of memory drawing a tag");
        goto done;
    }
    int32_t n = image->width;
    int32_t extra = border_cells - 1;  // a wider border pushes the white ring out by one cell
    int32_t out_side = n + 2 * extra;
    if ((size_t)out_side * (size_t)out_side > capacity) {
        status = fail(error, MAT_STATUS_INVALID_ARGUMENT, "%d bytes are too few for %dx%d cells", (int)capacity,
                      (int)out_side, (int)out_side);
        goto done;
    }
    for (int32_t y = 0; y < out_side; y++) {
        for (int32_t x = 0; x < out_side; x++) {
            uint8_t value;
            if (extra == 0) {
                value = image->buf[y * image->stride + x];
            } else if (x == 0 || y == 0 || x == out_side - 1 || y == out_side - 1) {
                value = 255;  // the white ring
            } else if (x <= border_cells || y <= border_cells || x >= out_side - 1 - border_cells ||
                       y >= out_side - 1 - border_cells) {
                value = 0;  // the border
            } else {
                value = image->buf[(y - extra) * image->stride + (x - extra)];
            }
            cells[y * out_side + x] = value < 128 ? 0 : 255;
        }
    }
    *side = out_side;
    succeed(error);
done:
    if (image) image_u8_destroy(image);
    family_destroy(family, tf);
    return status;
}

// A classic family with a black border `extra` cells wider: the same codes, bits one cell further in.
static apriltag_family_t *family_widened(const apriltag_family_t *base, int32_t extra) {
    apriltag_family_t *tf = calloc(1, sizeof *tf);
    if (!tf) return NULL;
    *tf = *base;
    tf->impl = NULL;
    tf->bit_x = calloc(base->nbits, sizeof(uint32_t));
    tf->bit_y = calloc(base->nbits, sizeof(uint32_t));
    if (!tf->bit_x || !tf->bit_y) {
        free(tf->bit_x);
        free(tf->bit_y);
        free(tf);
        return NULL;
    }
    for (uint32_t i = 0; i < base->nbits; i++) {
        tf->bit_x[i] = base->bit_x[i] + extra;
        tf->bit_y[i] = base->bit_y[i] + extra;
    }
    tf->width_at_border = base->width_at_border + 2 * extra;
    tf->total_width = base->total_width + 2 * extra;
    return tf;
}

static void family_widened_free(apriltag_family_t *tf) {
    if (!tf) return;
    free(tf->bit_x);
    free(tf->bit_y);
    free(tf);
}

// MARK: - Detector pool

struct mat_detector {
    mat_detector_options options;
    apriltag_family_t *base;    // as libapriltag makes it
    apriltag_family_t *family;  // base, or base with a wider border
    pthread_mutex_t lock;
    apriltag_detector_t **all;  // all[0] owns the family's lookup table
    size_t count;
    size_t capacity;
    apriltag_detector_t **idle;
    size_t idle_count;
};

void mat_detector_options_init(mat_detector_options *options, mat_family family) {
    memset(options, 0, sizeof *options);
    options->family = family;
    options->decimate = 2.0f;
    options->sigma = 0.0f;
    options->refine_edges = 1;
    options->border_cells = 1;
    options->grid_spacing = 0;
    // Bit errors corrected: libapriltag's 2, except where its lookup table would take gigabytes
    // (52h13, 48h12: none; 41h12: 1) and for 16h5, whose codes are only 5 bits apart: correcting
    // 2 errors found 26 tags in the 12 shared photos that hold none, correcting none finds none.
    switch (family) {
    case MAT_FAMILY_TAG16H5: options->max_hamming = 0; break;
    case MAT_FAMILY_TAGSTANDARD41H12: options->max_hamming = 1; break;
    case MAT_FAMILY_TAGSTANDARD52H13:
    case MAT_FAMILY_TAGCUSTOM48H12: options->max_hamming = 0; break;
    default: options->max_hamming = 2; break;
    }
}

static apriltag_detector_t *detector_make(const mat_detector *detector) {
    apriltag_detector_t *td = apriltag_detector_create();
    if (!td) return NULL;
    td->quad_decimate = detector->options.decimate;
    td->quad_sigma = detector->options.sigma;
    td->refine_edges = detector->options.refine_edges != 0;
    td->nthreads = 1;
    return td;
}

static void detector_release_all(mat_detector *detector) {
    // Borrowers of the family forget it first, so only all[0] frees its lookup table.
    for (size_t i = detector->count; i-- > 1;) {
        zarray_clear(detector->all[i]->tag_families);
        apriltag_detector_destroy(detector->all[i]);
    }
    if (detector->count > 0) apriltag_detector_destroy(detector->all[0]);
    detector->count = 0;
}

mat_status mat_detector_create(const mat_detector_options *options, mat_detector **out, mat_error *error) {
    *out = NULL;
    if (!(options->decimate >= 1.0f && options->decimate <= 16.0f))
        return fail(error, MAT_STATUS_INVALID_ARGUMENT, "decimate=%g: expected 1 to 16", options->decimate);
    if (!(options->sigma >= -10.0f && options->sigma <= 10.0f))
        return fail(error, MAT_STATUS_INVALID_ARGUMENT, "sigma=%g: expected -10 to 10", options->sigma);
    if (options->max_hamming < 0 || options->max_hamming > 3)
        return fail(error, MAT_STATUS_INVALID_ARGUMENT, "hamming=%d: expected 0 to 3", (int)options->max_hamming);
    if (options->border_cells != 1 && options->border_cells != 2)
        return fail(error, MAT_STATUS_INVALID_ARGUMENT, "a tag border of 1 or 2 cells, not %d", (int)options->border_cells);
    if (!(options->grid_spacing >= 0 && options->grid_spacing <= 10))
        return fail(error, MAT_STATUS_INVALID_ARGUMENT, "grid spacing %g: expected 0 to 10", options->grid_spacing);

    mat_detector *detector = calloc(1, sizeof *detector);
    if (!detector) return fail(error, MAT_STATUS_OUT_OF_MEMORY, "out of memory making a tag detector");
    detector->options = *options;
    pthread_mutex_init(&detector->lock, NULL);
    mat_status status = MAT_STATUS_OK;

    detector->base = family_create(options->family);
    if (!detector->base) {
        status = fail(error, MAT_STATUS_INVALID_ARGUMENT, "unknown tag family %d", (int)options->family);
        goto failed;
    }
    detector->family = detector->base;
    if (options->border_cells == 2) {
        if (!family_is_classic(detector->base)) {
            status = fail(error, MAT_STATUS_INVALID_ARGUMENT,
                          "%s has data outside its border: it cannot have a wider border", detector->base->name);
            goto failed;
        }
        detector->family = family_widened(detector->base, 1);
        if (!detector->family) {
            status = fail(error, MAT_STATUS_OUT_OF_MEMORY, "out of memory making a tag family");
            goto failed;
        }
    }
    detector->capacity = 4;
    detector->all = calloc(detector->capacity, sizeof *detector->all);
    detector->idle = calloc(detector->capacity, sizeof *detector->idle);
    apriltag_detector_t *first = detector->all && detector->idle ? detector_make(detector) : NULL;
    if (!first) {
        status = fail(error, MAT_STATUS_OUT_OF_MEMORY, "out of memory making a tag detector");
        goto failed;
    }
    detector->all[detector->count++] = first;
    errno = 0;
    apriltag_detector_add_family_bits(first, detector->family, options->max_hamming);
    if (errno == ENOMEM || detector->family->impl == NULL) {
        status = fail(error, MAT_STATUS_OUT_OF_MEMORY, "out of memory building the %s lookup table for %d bit errors",
                      detector->base->name, (int)options->max_hamming);
        goto failed;
    }
    detector->idle[detector->idle_count++] = first;
    *out = detector;
    return succeed(error);

failed:
    mat_detector_free(detector);
    return status;
}

void mat_detector_free(mat_detector *detector) {
    if (!detector) return;
    detector_release_all(detector);
    free(detector->all);
    free(detector->idle);
    if (detector->family != detector->base) family_widened_free(detector->family);
    family_destroy(detector->options.family, detector->base);
    pthread_mutex_destroy(&detector->lock);
    free(detector);
}

static apriltag_detector_t *detector_take(mat_detector *detector) {
    apriltag_detector_t *td = NULL;
    pthread_mutex_lock(&detector->lock);
    if (detector->idle_count > 0) {
        td = detector->idle[--detector->idle_count];
    } else {
        if (detector->count == detector->capacity) {
            size_t capacity = detector->capacity * 2;
            apriltag_detector_t **all = realloc(detector->all, capacity * sizeof *all);
            if (all) detector->all = all;
            apriltag_detector_t **idle = realloc(detector->idle, capacity * sizeof *idle);
            if (idle) detector->idle = idle;
            if (all && idle) detector->capacity = capacity;
        }
        if (detector->count < detector->capacity) {
            td = detector_make(detector);
            if (td) {
                // Shares the family and its lookup table with all[0] (see detector_release_all).
                zarray_add(td->tag_families, &detector->family);
                detector->all[detector->count++] = td;
            }
        }
    }
    pthread_mutex_unlock(&detector->lock);
    return td;
}

static void detector_give_back(mat_detector *detector, apriltag_detector_t *td) {
    pthread_mutex_lock(&detector->lock);
    detector->idle[detector->idle_count++] = td;  // idle has room for every detector in all
    pthread_mutex_unlock(&detector->lock);
}

// MARK: - Grid corners

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
                double gx = (pixel_at(gray, width, height, stride, qx + 1, qy) -
                             pixel_at(gray, width, height, stride, qx - 1, qy)) / 2;
                double gy = (pixel_at(gray, width, height, stride, qx, qy + 1) -
                             pixel_at(gray, width, height, stride, qx, qy - 1)) / 2;
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
            double gx = (pixel_at(gray, width, height, stride, qx + 1, qy) -
                         pixel_at(gray, width, height, stride, qx - 1, qy)) / 2;
            double gy = (pixel_at(gray, width, height, stride, qx, qy + 1) -
                         pixel_at(gray, width, height, stride, qx, qy - 1)) / 2;
            double w = exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
            double radial = (gx * rx + gy * ry) / r;
            along += w * radial * radial;
            total += w * (gx * gx + gy * gy);
        }
    }
    if (!(total > 0) || along / total > MAT_JUNCTION_RESIDUAL) return 0;
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
static uint8_t *dilated_white(const uint8_t *gray, int32_t width, int32_t height, size_t stride, int32_t radius) {
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

// MARK: - Detection

static mat_status detect_gray(mat_detector *detector, const uint8_t *gray, int32_t width, int32_t height,
                              size_t row_stride, int32_t threads, mat_tags **out, mat_error *error);


// A gray copy of a colour image (OpenCV's weights 0.299 R + 0.587 G + 0.114 B), or NULL.
static uint8_t *gray_copy(const uint8_t *pixels, int32_t width, int32_t height, size_t stride, mat_pixel_format format) {
    uint8_t *gray = malloc((size_t)width * height);
    if (!gray) return NULL;
    for (int32_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + y * stride;
        uint8_t *out = gray + (size_t)y * width;
        for (int32_t x = 0; x < width; x++) {
            switch (format) {
            case MAT_PIXEL_FORMAT_BGR24:
                out[x] = (uint8_t)((row[3 * x] * 1868 + row[3 * x + 1] * 9617 + row[3 * x + 2] * 4899 + 8192) >> 14);
                break;
            case MAT_PIXEL_FORMAT_RGB24:
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
static double hull_sharpness(const uint8_t *gray, int32_t width, int32_t height, size_t stride, double *points,
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

mat_status mat_detector_detect(mat_detector *detector, const uint8_t *pixels, int32_t width, int32_t height,
                               size_t row_stride, mat_pixel_format format, int32_t threads, mat_tags **out,
                               mat_error *error) {
    *out = NULL;
    if (!detector || !pixels) return fail(error, MAT_STATUS_INVALID_ARGUMENT, "no detector or no pixels");
    if (width < mat_minimum_side || height < mat_minimum_side)
        return fail(error, MAT_STATUS_IMAGE_TOO_SMALL, "image of %dx%d pixels is too small (at least %dx%d)", (int)width,
                    (int)height, (int)mat_minimum_side, (int)mat_minimum_side);
    size_t bytes_per_pixel = format == MAT_PIXEL_FORMAT_GRAY8 ? 1 : format == MAT_PIXEL_FORMAT_YUYV ? 2 : 3;
    if (format < MAT_PIXEL_FORMAT_GRAY8 || format > MAT_PIXEL_FORMAT_YUYV)
        return fail(error, MAT_STATUS_INVALID_ARGUMENT, "unknown pixel format %d", (int)format);
    if (row_stride < (size_t)width * bytes_per_pixel || row_stride > INT32_MAX)
        return fail(error, MAT_STATUS_INVALID_ARGUMENT, "row stride %zu for %d pixels a row", row_stride, (int)width);
    uint8_t *converted = NULL;
    if (format != MAT_PIXEL_FORMAT_GRAY8) {
        converted = gray_copy(pixels, width, height, row_stride, format);
        if (!converted)
            return fail(error, MAT_STATUS_OUT_OF_MEMORY, "out of memory turning a %dx%d image gray", (int)width,
                        (int)height);
        row_stride = width;
    }
    const uint8_t *gray = converted ? converted : pixels;
    mat_status status = detect_gray(detector, gray, width, height, row_stride, threads, out, error);
    free(converted);
    return status;
}

static mat_status detect_gray(mat_detector *detector, const uint8_t *gray, int32_t width, int32_t height,
                              size_t row_stride, int32_t threads, mat_tags **out, mat_error *error) {
    const mat_detector_options *options = &detector->options;
    int grid = options->grid_spacing > 0;
    // libapriltag blurs an undecimated image in place, and grids are looked at with thinned black:
    // either way it gets a copy, never the caller's pixels.
    uint8_t *copy = NULL;
    size_t stride = row_stride;
    if (grid) {
        copy = dilated_white(gray, width, height, row_stride, 1);
        stride = width;
    } else if (options->decimate <= 1.0f && options->sigma != 0.0f) {
        copy = malloc((size_t)width * height);
        if (copy) {
            for (int32_t y = 0; y < height; y++) memcpy(copy + (size_t)y * width, gray + y * row_stride, width);
        }
        stride = width;
    }
    if ((grid || (options->decimate <= 1.0f && options->sigma != 0.0f)) && !copy)
        return fail(error, MAT_STATUS_OUT_OF_MEMORY, "out of memory copying a %dx%d image", (int)width, (int)height);

    image_u8_t image = {.width = width, .height = height, .stride = (int32_t)stride,
                        .buf = copy ? copy : (uint8_t *)gray};
    apriltag_detector_t *td = detector_take(detector);
    if (!td) {
        free(copy);
        return fail(error, MAT_STATUS_OUT_OF_MEMORY, "out of memory making a tag detector");
    }
    td->nthreads = threads < 1 ? 1 : threads;
    errno = 0;
    zarray_t *found = apriltag_detector_detect(td, &image);
    detector_give_back(detector, td);
    free(copy);
    if (!found) return fail(error, MAT_STATUS_OUT_OF_MEMORY, "libapriltag failed (out of memory?)");

    mat_tags *tags = calloc(1, sizeof *tags);
    int count = zarray_size(found);
    if (tags && count > 0) tags->tags = calloc(count, sizeof *tags->tags);
    if (!tags || (count > 0 && !tags->tags)) {
        apriltag_detections_destroy(found);
        mat_tags_free(tags);
        return fail(error, MAT_STATUS_OUT_OF_MEMORY, "out of memory listing %d tags", count);
    }
    for (int i = 0; i < count; i++) {
        apriltag_detection_t *det;
        zarray_get(found, i, &det);
        if (options->id_count > 0 && (det->id < options->first_id || det->id - options->first_id >= options->id_count))
            continue;
        mat_tag *tag = &tags->tags[tags->count++];
        tag->id = det->id;
        tag->hamming = det->hamming;
        tag->decision_margin = det->decision_margin;
        // libapriltag: p[0..3] counter-clockwise from the tag's bottom-left, pixel centres at +0.5.
        // Here: clockwise from the top-left, pixel centres at integers.
        for (int k = 0; k < 4; k++) {
            tag->corners[2 * k] = det->p[3 - k][0] - 0.5;
            tag->corners[2 * k + 1] = det->p[3 - k][1] - 0.5;
        }
        if (grid) {
            double edge = 0;
            for (int k = 0; k < 4; k++) {
                int n = (k + 1) % 4;
                edge += hypot(tag->corners[2 * n] - tag->corners[2 * k], tag->corners[2 * n + 1] - tag->corners[2 * k + 1]) / 4;
            }
            double reach = fmin(0.15, options->grid_spacing * 0.5) * edge;
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
    }
    apriltag_detections_destroy(found);
    if (tags->count > 0) {
        double *points = malloc(8 * tags->count * sizeof(double));
        if (!points) {
            mat_tags_free(tags);
            return fail(error, MAT_STATUS_OUT_OF_MEMORY, "out of memory measuring sharpness");
        }
        for (size_t i = 0; i < tags->count; i++) memcpy(points + 8 * i, tags->tags[i].corners, 8 * sizeof(double));
        double sharpness = hull_sharpness(gray, width, height, row_stride, points, 4 * tags->count);
        free(points);
        tags->has_sharpness = sharpness >= 0;
        tags->sharpness = sharpness >= 0 ? sharpness : 0;
    }
    *out = tags;
    return succeed(error);
}

void mat_tags_free(mat_tags *tags) {
    if (!tags) return;
    free(tags->tags);
    free(tags);
}
