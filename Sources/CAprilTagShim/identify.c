// atag_identifier: every tag family at once, for finding out what a target is.
//
// Two libapriltag detectors per call: one with the families whose data lies outside their black
// border (tagStandard41h12, 52h13, tagCustom48h12, the circle families), run on the image; one with
// the classic families' borders widened to Kalibr's two cells, run on the image with black thinned
// by a pixel (as the AprilGrid detector does, so that the grid's corner squares part from the tags).
// The classic families with their own border (36h11, 36h10, 25h9, 16h5) are OpenCV's AprilTag
// dictionaries too, which read them with the other markers; looking for them here as well took three
// quarters of the time identification spent in libapriltag. Each family's lookup table is built once,
// by the first pair of detectors, and borrowed by the others (see detector.c for the pool this follows).

#include "atag_internal.h"

#include <apriltag/common/zarray.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct identifier_pair {
    apriltag_detector_t *plain;
    apriltag_detector_t *wide;
} identifier_pair;

struct atag_identifier {
    apriltag_family_t *base[ATAG_FAMILY_COUNT];
    apriltag_family_t *widened[ATAG_FAMILY_COUNT];  // NULL for families that are not classic
    int plain[ATAG_FAMILY_COUNT];                   // looked for with their own border
    int bits[ATAG_FAMILY_COUNT];
    pthread_mutex_t lock;
    identifier_pair *all;  // all[0] owns the lookup tables
    size_t count;
    size_t capacity;
    identifier_pair *idle;
    size_t idle_count;
};

// Bit errors corrected while identifying: one where the codes lie far apart and the lookup table
// stays small, none otherwise.
static int identify_bits(atag_family family) {
    switch (family) {
    case ATAG_FAMILY_TAG36H11:
    case ATAG_FAMILY_TAG36H10:
    case ATAG_FAMILY_TAG25H9:
    case ATAG_FAMILY_TAGCIRCLE21H7:
    case ATAG_FAMILY_TAGSTANDARD41H12: return 1;
    default: return 0;
    }
}

static apriltag_detector_t *identifier_detector(void) {
    apriltag_detector_t *td = apriltag_detector_create();
    if (!td) return NULL;
    td->quad_sigma = 0.0f;
    td->refine_edges = 1;
    td->nthreads = 1;
    return td;
}

// A pair of detectors; the first pair builds the tables, later ones borrow them.
static int pair_make(atag_identifier *identifier, identifier_pair *pair, int first) {
    pair->plain = identifier_detector();
    pair->wide = identifier_detector();
    if (!pair->plain || !pair->wide) return 0;
    for (int f = 0; f < ATAG_FAMILY_COUNT; f++) {
        if (first) {
            errno = 0;
            if (identifier->plain[f]) {
                apriltag_detector_add_family_bits(pair->plain, identifier->base[f], identifier->bits[f]);
                if (errno == ENOMEM || !identifier->base[f]->impl) return 0;
            }
            if (identifier->widened[f]) {
                apriltag_detector_add_family_bits(pair->wide, identifier->widened[f], identifier->bits[f]);
                if (errno == ENOMEM || !identifier->widened[f]->impl) return 0;
            }
        } else {
            if (identifier->plain[f]) zarray_add(pair->plain->tag_families, &identifier->base[f]);
            if (identifier->widened[f]) zarray_add(pair->wide->tag_families, &identifier->widened[f]);
        }
    }
    return 1;
}

static void pair_release(identifier_pair *pair, int owner) {
    if (!owner) {
        if (pair->plain) zarray_clear(pair->plain->tag_families);
        if (pair->wide) zarray_clear(pair->wide->tag_families);
    }
    if (pair->plain) apriltag_detector_destroy(pair->plain);
    if (pair->wide) apriltag_detector_destroy(pair->wide);
    pair->plain = pair->wide = NULL;
}

void atag_identifier_free(atag_identifier *identifier) {
    if (!identifier) return;
    for (size_t i = identifier->count; i-- > 1;) pair_release(&identifier->all[i], 0);
    if (identifier->count > 0) pair_release(&identifier->all[0], 1);
    free(identifier->all);
    free(identifier->idle);
    for (int f = 0; f < ATAG_FAMILY_COUNT; f++) {
        atag_family_widened_free(identifier->widened[f]);
        atag_family_release((atag_family)f, identifier->base[f]);
    }
    pthread_mutex_destroy(&identifier->lock);
    free(identifier);
}

shim_status atag_identifier_create(atag_identifier **out, shim_error *error) {
    if (!out) return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "no place for the identifier");
    *out = NULL;
    atag_identifier *identifier = calloc(1, sizeof *identifier);
    if (!identifier) return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory making a tag identifier");
    pthread_mutex_init(&identifier->lock, NULL);
    for (int f = 0; f < ATAG_FAMILY_COUNT; f++) {
        identifier->bits[f] = identify_bits((atag_family)f);
        identifier->base[f] = atag_family_make((atag_family)f);
        if (!identifier->base[f]) goto out_of_memory;
        if (atag_family_is_classic(identifier->base[f])) {
            identifier->widened[f] = atag_family_widened(identifier->base[f], 1);
            if (!identifier->widened[f]) goto out_of_memory;
        } else {
            identifier->plain[f] = 1;
        }
    }
    identifier->capacity = 4;
    identifier->all = calloc(identifier->capacity, sizeof *identifier->all);
    identifier->idle = calloc(identifier->capacity, sizeof *identifier->idle);
    if (!identifier->all || !identifier->idle) goto out_of_memory;
    identifier->count = 1;
    if (!pair_make(identifier, &identifier->all[0], 1)) goto out_of_memory;
    identifier->idle[identifier->idle_count++] = identifier->all[0];
    *out = identifier;
    return atag_succeed(error);

out_of_memory:
    atag_identifier_free(identifier);
    return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory building the tag families' lookup tables");
}

static int pair_take(atag_identifier *identifier, identifier_pair *pair) {
    int taken = 0;
    pthread_mutex_lock(&identifier->lock);
    if (identifier->idle_count > 0) {
        *pair = identifier->idle[--identifier->idle_count];
        taken = 1;
    } else {
        if (identifier->count == identifier->capacity) {
            size_t capacity = identifier->capacity * 2;
            identifier_pair *all = realloc(identifier->all, capacity * sizeof *all);
            if (all) identifier->all = all;
            identifier_pair *idle = realloc(identifier->idle, capacity * sizeof *idle);
            if (idle) identifier->idle = idle;
            if (all && idle) identifier->capacity = capacity;
        }
        if (identifier->count < identifier->capacity) {
            identifier_pair made = {0};
            if (pair_make(identifier, &made, 0)) {
                identifier->all[identifier->count++] = made;
                *pair = made;
                taken = 1;
            } else {
                pair_release(&made, 0);
            }
        }
    }
    pthread_mutex_unlock(&identifier->lock);
    return taken;
}

static void pair_give_back(atag_identifier *identifier, identifier_pair pair) {
    pthread_mutex_lock(&identifier->lock);
    identifier->idle[identifier->idle_count++] = pair;
    pthread_mutex_unlock(&identifier->lock);
}

// The family and border of a libapriltag family object of the identifier.
static int family_of(const atag_identifier *identifier, const apriltag_family_t *tf, atag_family *family, int32_t *border) {
    for (int f = 0; f < ATAG_FAMILY_COUNT; f++) {
        if (identifier->base[f] == tf) return *family = (atag_family)f, *border = 1, 1;
        if (identifier->widened[f] == tf) return *family = (atag_family)f, *border = 2, 1;
    }
    return 0;
}

// Appends what `td` finds in `image` to `tags`; 0 when memory ran out.
static int collect(const atag_identifier *identifier, apriltag_detector_t *td, image_u8_t *image, atag_identified_tags *tags,
                   size_t *capacity) {
    errno = 0;
    zarray_t *found = apriltag_detector_detect(td, image);
    if (!found) return 0;
    int count = zarray_size(found);
    int ok = 1;
    for (int i = 0; i < count && ok; i++) {
        apriltag_detection_t *det;
        zarray_get(found, i, &det);
        atag_identified_tag tag = {0};
        if (!family_of(identifier, det->family, &tag.family, &tag.border_cells)) continue;
        tag.id = det->id;
        // As atag_detector_detect turns them: clockwise from the tag's top-left, pixel centres at integers.
        for (int k = 0; k < 4; k++) {
            tag.corners[2 * k] = det->p[3 - k][0] - 0.5;
            tag.corners[2 * k + 1] = det->p[3 - k][1] - 0.5;
        }
        if (tags->count == *capacity) {
            size_t grown = *capacity ? 2 * *capacity : 16;
            atag_identified_tag *more = realloc(tags->tags, grown * sizeof *more);
            if (!more) {
                ok = 0;
                break;
            }
            tags->tags = more;
            *capacity = grown;
        }
        tags->tags[tags->count++] = tag;
    }
    apriltag_detections_destroy(found);
    return ok;
}

shim_status atag_identifier_detect(atag_identifier *identifier, const shim_pixels *pixels, atag_identified_tags **out,
                                  shim_error *error) {
    if (!out) return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "no place for the tags");
    *out = NULL;
    if (!identifier || !pixels || !pixels->data) return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "no identifier or no pixels");
    const int32_t width = pixels->width, height = pixels->height;
    if (width < atag_minimum_side || height < atag_minimum_side)
        return atag_fail(error, SHIM_STATUS_IMAGE_TOO_SMALL, "image of %dx%d pixels is too small (at least %dx%d)",
                         (int)width, (int)height, (int)atag_minimum_side, (int)atag_minimum_side);
    const size_t bytes_per_pixel = (size_t)shim_pixel_format_bytes(pixels->format);
    if (bytes_per_pixel == 0) return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "unknown pixel format %d", (int)pixels->format);
    size_t stride = pixels->row_stride;
    if (stride < (size_t)width * bytes_per_pixel || stride > INT32_MAX)
        return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "row stride %zu for %d pixels a row", stride, (int)width);
    uint8_t *converted = NULL;
    if (pixels->format != SHIM_PIXEL_FORMAT_GRAY8) {
        converted = atag_gray_copy(pixels->data, width, height, stride, pixels->format);
        if (!converted) return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory turning an image gray");
        stride = (size_t)width;
    }
    const uint8_t *gray = converted ? converted : pixels->data;
    uint8_t *thinned = atag_dilated_white(gray, width, height, stride, 1);
    atag_identified_tags *tags = calloc(1, sizeof *tags);
    identifier_pair pair;
    if (!thinned || !tags || !pair_take(identifier, &pair)) {
        free(converted);
        free(thinned);
        free(tags);
        return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory identifying tags");
    }
    // As the detectors do: decimated by 2 from a shorter side of 720 pixels, else searched at full size.
    const float decimate = (width < height ? width : height) >= 720 ? 2.0f : 1.0f;
    pair.plain->quad_decimate = decimate;
    pair.wide->quad_decimate = decimate;
    image_u8_t image = {.width = width, .height = height, .stride = (int32_t)stride, .buf = (uint8_t *)gray};
    image_u8_t thin = {.width = width, .height = height, .stride = width, .buf = thinned};
    size_t capacity = 0;
    const int ok = collect(identifier, pair.plain, &image, tags, &capacity) && collect(identifier, pair.wide, &thin, tags, &capacity);
    pair_give_back(identifier, pair);
    free(converted);
    free(thinned);
    if (!ok) {
        atag_identified_tags_free(tags);
        return atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "libapriltag failed (out of memory?)");
    }
    *out = tags;
    return atag_succeed(error);
}

void atag_identified_tags_free(atag_identified_tags *tags) {
    if (!tags) return;
    free(tags->tags);
    free(tags);
}
