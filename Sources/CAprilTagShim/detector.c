// atag: libapriltag 3 behind a pure C interface (include/CAprilTagShim.h).
//
// libapriltag's detector keeps working state (a worker pool, timing records) in its
// apriltag_detector_t, so one may not detect on two threads at once. A atag_detector keeps a pool of
// them, all reading one tag family and its error-correcting lookup table (which for tag36h11 is
// about 36 MB): a call takes an idle detector or makes one, and gives it back.

#include "atag_internal.h"

#include <apriltag/common/zarray.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const int32_t atag_minimum_side = 16;

struct atag_detector {
    atag_detector_options options;
    apriltag_family_t *base;    // as libapriltag makes it
    apriltag_family_t *family;  // base, or base with a wider border
    pthread_mutex_t lock;
    apriltag_detector_t **all;  // all[0] owns the family's lookup table
    size_t count;
    size_t capacity;
    apriltag_detector_t **idle;
    size_t idle_count;
};

void atag_detector_options_init(atag_detector_options *options, atag_family family) {
    memset(options, 0, sizeof *options);
    options->family = family;
    options->decimate = 0.0f;
    options->decimate_from_side = 720;
    options->sigma = 0.0f;
    options->refine_edges = 1;
    options->border_cells = 1;
    options->grid_spacing = 0;
    // Bit errors corrected: libapriltag's 2, except where its lookup table would take gigabytes
    // (52h13, 48h12: none; 41h12: 1) and for 16h5, whose codes are only 5 bits apart: correcting
    // 2 errors found 26 tags in the 12 shared photos that hold none, correcting none finds none.
    // 25h9 and 21h7 (codes 9 and 7 bits apart) correct 1: searched at full size, as small images
    // are, correcting 2 found 6 tags in those photos, correcting 1 finds none.
    switch (family) {
    case ATAG_FAMILY_TAG16H5: options->max_hamming = 0; break;
    case ATAG_FAMILY_TAG25H9:
    case ATAG_FAMILY_TAGCIRCLE21H7: options->max_hamming = 1; break;
    case ATAG_FAMILY_TAGSTANDARD41H12:
    case ATAG_FAMILY_TAG36H10: options->max_hamming = 1; break;
    case ATAG_FAMILY_TAGSTANDARD52H13:
    case ATAG_FAMILY_TAGCUSTOM48H12:
    case ATAG_FAMILY_TAGCIRCLE49H12: options->max_hamming = 0; break;
    default: options->max_hamming = 2; break;
    }
}

static apriltag_detector_t *detector_make(const atag_detector *detector) {
    apriltag_detector_t *td = apriltag_detector_create();
    if (!td) return NULL;
    td->quad_decimate = detector->options.decimate > 0.0f ? detector->options.decimate : 2.0f;
    td->quad_sigma = detector->options.sigma;
    td->refine_edges = detector->options.refine_edges != 0;
    td->nthreads = 1;
    return td;
}

static void detector_release_all(atag_detector *detector) {
    // Borrowers of the family forget it first, so only all[0] frees its lookup table.
    for (size_t i = detector->count; i-- > 1;) {
        zarray_clear(detector->all[i]->tag_families);
        apriltag_detector_destroy(detector->all[i]);
    }
    if (detector->count > 0) apriltag_detector_destroy(detector->all[0]);
    detector->count = 0;
}

shim_status atag_detector_create(const atag_detector_options *options, atag_detector **out, shim_error *error) {
    *out = NULL;
    if (!(options->decimate == 0.0f || (options->decimate >= 1.0f && options->decimate <= 16.0f)))
        return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "decimate=%g: expected 1 to 16", options->decimate);
    if (!(options->sigma >= -10.0f && options->sigma <= 10.0f))
        return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "sigma=%g: expected -10 to 10", options->sigma);
    if (options->max_hamming < 0 || options->max_hamming > 3)
        return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "hamming=%d: expected 0 to 3", (int)options->max_hamming);
    if (options->border_cells != 1 && options->border_cells != 2)
        return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "a tag border of 1 or 2 cells, not %d", (int)options->border_cells);
    if (!(options->grid_spacing >= 0 && options->grid_spacing <= 10))
        return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "grid spacing %g: expected 0 to 10", options->grid_spacing);

    atag_detector *detector = calloc(1, sizeof *detector);
    if (!detector) return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory making a tag detector");
    detector->options = *options;
    pthread_mutex_init(&detector->lock, NULL);
    shim_status status = SHIM_STATUS_OK;

    detector->base = atag_family_make(options->family);
    if (!detector->base) {
        status = atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "unknown tag family %d", (int)options->family);
        goto failed;
    }
    detector->family = detector->base;
    if (options->border_cells == 2) {
        if (!atag_family_is_classic(detector->base)) {
            status = atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT,
                          "%s has data outside its border: it cannot have a wider border", detector->base->name);
            goto failed;
        }
        detector->family = atag_family_widened(detector->base, 1);
        if (!detector->family) {
            status = atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory making a tag family");
            goto failed;
        }
    }
    detector->capacity = 4;
    detector->all = calloc(detector->capacity, sizeof *detector->all);
    detector->idle = calloc(detector->capacity, sizeof *detector->idle);
    apriltag_detector_t *first = detector->all && detector->idle ? detector_make(detector) : NULL;
    if (!first) {
        status = atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory making a tag detector");
        goto failed;
    }
    detector->all[detector->count++] = first;
    errno = 0;
    apriltag_detector_add_family_bits(first, detector->family, options->max_hamming);
    if (errno == ENOMEM || detector->family->impl == NULL) {
        status = atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory building the %s lookup table for %d bit errors",
                      detector->base->name, (int)options->max_hamming);
        goto failed;
    }
    detector->idle[detector->idle_count++] = first;
    *out = detector;
    return atag_succeed(error);

failed:
    atag_detector_free(detector);
    return status;
}

void atag_detector_free(atag_detector *detector) {
    if (!detector) return;
    detector_release_all(detector);
    free(detector->all);
    free(detector->idle);
    if (detector->family != detector->base) atag_family_widened_free(detector->family);
    atag_family_release(detector->options.family, detector->base);
    pthread_mutex_destroy(&detector->lock);
    free(detector);
}

static apriltag_detector_t *detector_take(atag_detector *detector) {
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

static void detector_give_back(atag_detector *detector, apriltag_detector_t *td) {
    pthread_mutex_lock(&detector->lock);
    detector->idle[detector->idle_count++] = td;  // idle has room for every detector in all
    pthread_mutex_unlock(&detector->lock);
}

// MARK: - Detection

static shim_status detect_gray(atag_detector *detector, const uint8_t *gray, int32_t width, int32_t height,
                              size_t row_stride, atag_tags **out, shim_error *error);


shim_status atag_detector_detect(atag_detector *detector, const shim_pixels *image, atag_tags **out, shim_error *error) {
    *out = NULL;
    if (!detector || !image || !image->data) return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "no detector or no pixels");
    const uint8_t *pixels = image->data;
    const int32_t width = image->width, height = image->height;
    size_t row_stride = image->row_stride;
    const shim_pixel_format format = image->format;
    if (width < atag_minimum_side || height < atag_minimum_side)
        return atag_fail(error, SHIM_STATUS_IMAGE_TOO_SMALL, "image of %dx%d pixels is too small (at least %dx%d)",
                         (int)width, (int)height, (int)atag_minimum_side, (int)atag_minimum_side);
    const size_t bytes_per_pixel = (size_t)shim_pixel_format_bytes(format);
    if (bytes_per_pixel == 0) return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "unknown pixel format %d", (int)format);
    if (row_stride < (size_t)width * bytes_per_pixel || row_stride > INT32_MAX)
        return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "row stride %zu for %d pixels a row", row_stride, (int)width);
    uint8_t *converted = NULL;
    if (format != SHIM_PIXEL_FORMAT_GRAY8) {
        converted = atag_gray_copy(pixels, width, height, row_stride, format);
        if (!converted)
            return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory turning a %dx%d image gray", (int)width,
                        (int)height);
        row_stride = width;
    }
    const uint8_t *gray = converted ? converted : pixels;
    shim_status status = detect_gray(detector, gray, width, height, row_stride, out, error);
    free(converted);
    return status;
}

static shim_status detect_gray(atag_detector *detector, const uint8_t *gray, int32_t width, int32_t height,
                              size_t row_stride, atag_tags **out, shim_error *error) {
    const atag_detector_options *options = &detector->options;
    int grid = options->grid_spacing > 0;
    // Unset: libapriltag's 2 from decimate_from_side up; smaller images lose their smaller tags when halved.
    float decimate = options->decimate > 0.0f                                          ? options->decimate
                     : (width < height ? width : height) >= options->decimate_from_side ? 2.0f
                                                                                         : 1.0f;
    int full_size_blur = decimate <= 1.0f && options->sigma != 0.0f;
    // libapriltag blurs an undecimated image in place, and grids are looked at with thinned black:
    // either way it gets a copy, never the caller's pixels.
    uint8_t *copy = NULL;
    size_t stride = row_stride;
    if (grid) {
        copy = atag_dilated_white(gray, width, height, row_stride, 1);
        stride = width;
    } else if (full_size_blur) {
        copy = malloc((size_t)width * height);
        if (copy) {
            for (int32_t y = 0; y < height; y++) memcpy(copy + (size_t)y * width, gray + y * row_stride, width);
        }
        stride = width;
    }
    if ((grid || full_size_blur) && !copy)
        return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory copying a %dx%d image", (int)width, (int)height);

    image_u8_t image = {.width = width, .height = height, .stride = (int32_t)stride,
                        .buf = copy ? copy : (uint8_t *)gray};
    apriltag_detector_t *td = detector_take(detector);
    if (!td) {
        free(copy);
        return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory making a tag detector");
    }
    // Always 1: libapriltag 3.3's worker pool adds tasks to its array without its lock and resets
    // its count of finished workers outside it, so a worker woken early can read a task from an
    // array the caller is growing (a crash seen in a worker thread). With one thread the pool runs
    // every task on the calling thread and starts none.
    td->nthreads = 1;
    td->quad_decimate = decimate;
    errno = 0;
    zarray_t *found = apriltag_detector_detect(td, &image);
    detector_give_back(detector, td);
    free(copy);
    if (!found) return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "libapriltag failed (out of memory?)");

    atag_tags *tags = calloc(1, sizeof *tags);
    int count = zarray_size(found);
    if (tags && count > 0) tags->tags = calloc(count, sizeof *tags->tags);
    if (!tags || (count > 0 && !tags->tags)) {
        apriltag_detections_destroy(found);
        atag_tags_free(tags);
        return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory listing %d tags", count);
    }
    for (int i = 0; i < count; i++) {
        apriltag_detection_t *det;
        zarray_get(found, i, &det);
        if (options->id_count > 0 && (det->id < options->first_id || det->id - options->first_id >= options->id_count))
            continue;
        atag_tag *tag = &tags->tags[tags->count++];
        tag->id = det->id;
        tag->hamming = det->hamming;
        tag->decision_margin = det->decision_margin;
        // libapriltag: p[0..3] counter-clockwise from the tag's bottom-left, pixel centres at +0.5.
        // Here: clockwise from the top-left, pixel centres at integers.
        for (int k = 0; k < 4; k++) {
            tag->corners[2 * k] = det->p[3 - k][0] - 0.5;
            tag->corners[2 * k + 1] = det->p[3 - k][1] - 0.5;
        }
        if (grid) atag_grid_corners_refine(gray, width, height, row_stride, options->grid_spacing, tag);
    }
    apriltag_detections_destroy(found);
    if (tags->count > 0) {
        double *points = malloc(8 * tags->count * sizeof(double));
        if (!points) {
            atag_tags_free(tags);
            return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory measuring sharpness");
        }
        for (size_t i = 0; i < tags->count; i++) memcpy(points + 8 * i, tags->tags[i].corners, 8 * sizeof(double));
        double sharpness = atag_hull_sharpness(gray, width, height, row_stride, points, 4 * tags->count);
        free(points);
        tags->has_sharpness = sharpness >= 0;
        tags->sharpness = sharpness >= 0 ? sharpness : 0;
    }
    *out = tags;
    return atag_succeed(error);
}

void atag_tags_free(atag_tags *tags) {
    if (!tags) return;
    free(tags->tags);
    free(tags);
}
