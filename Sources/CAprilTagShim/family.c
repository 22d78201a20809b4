// libapriltag's tag families: what they are, their cells, and Kalibr's wider-bordered variant.

#include "atag_internal.h"

#include <apriltag/common/image_u8.h>
#include <apriltag/tag16h5.h>
#include <apriltag/tag25h9.h>
#include <apriltag/tag36h10.h>
#include <apriltag/tag36h11.h>
#include <apriltag/tagCircle21h7.h>
#include <apriltag/tagCircle49h12.h>
#include <apriltag/tagCustom48h12.h>
#include <apriltag/tagStandard41h12.h>
#include <apriltag/tagStandard52h13.h>

#include <stdlib.h>

apriltag_family_t *atag_family_make(atag_family family) {
    switch (family) {
    case ATAG_FAMILY_TAG36H11: return tag36h11_create();
    case ATAG_FAMILY_TAG25H9: return tag25h9_create();
    case ATAG_FAMILY_TAG16H5: return tag16h5_create();
    case ATAG_FAMILY_TAGSTANDARD41H12: return tagStandard41h12_create();
    case ATAG_FAMILY_TAGSTANDARD52H13: return tagStandard52h13_create();
    case ATAG_FAMILY_TAGCIRCLE21H7: return tagCircle21h7_create();
    case ATAG_FAMILY_TAGCUSTOM48H12: return tagCustom48h12_create();
    case ATAG_FAMILY_TAG36H10: return tag36h10_create();
    case ATAG_FAMILY_TAGCIRCLE49H12: return tagCircle49h12_create();
    }
    return NULL;
}

void atag_family_release(atag_family family, apriltag_family_t *tf) {
    if (!tf) return;
    switch (family) {
    case ATAG_FAMILY_TAG36H11: tag36h11_destroy(tf); break;
    case ATAG_FAMILY_TAG25H9: tag25h9_destroy(tf); break;
    case ATAG_FAMILY_TAG16H5: tag16h5_destroy(tf); break;
    case ATAG_FAMILY_TAGSTANDARD41H12: tagStandard41h12_destroy(tf); break;
    case ATAG_FAMILY_TAGSTANDARD52H13: tagStandard52h13_destroy(tf); break;
    case ATAG_FAMILY_TAGCIRCLE21H7: tagCircle21h7_destroy(tf); break;
    case ATAG_FAMILY_TAGCUSTOM48H12: tagCustom48h12_destroy(tf); break;
    case ATAG_FAMILY_TAG36H10: tag36h10_destroy(tf); break;
    case ATAG_FAMILY_TAGCIRCLE49H12: tagCircle49h12_destroy(tf); break;
    }
}

int atag_family_is_classic(const apriltag_family_t *tf) {
    return !tf->reversed_border && tf->total_width == tf->width_at_border + 2;
}

shim_status atag_family_info_get(atag_family family, atag_family_info *info, shim_error *error) {
    apriltag_family_t *tf = atag_family_make(family);
    if (!tf) return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "unknown tag family %d", (int)family);
    info->code_count = (int32_t)tf->ncodes;
    info->total_width = tf->total_width;
    info->width_at_border = tf->width_at_border;
    info->classic = atag_family_is_classic(tf);
    atag_family_release(family, tf);
    return atag_succeed(error);
}

shim_status atag_tag_cells_get(atag_family family, int32_t id, int32_t border_cells, uint8_t *cells, size_t capacity,
                             int32_t *side, shim_error *error) {
    if (border_cells != 1 && border_cells != 2)
        return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "a tag border of 1 or 2 cells, not %d", (int)border_cells);
    apriltag_family_t *tf = atag_family_make(family);
    if (!tf) return atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "unknown tag family %d", (int)family);
    shim_status status = SHIM_STATUS_OK;
    image_u8_t *image = NULL;
    if (id < 0 || (uint32_t)id >= tf->ncodes) {
        status = atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "tag id %d is not in %s (0...%u)", (int)id, tf->name,
                      tf->ncodes - 1);
        goto done;
    }
    if (border_cells == 2 && !atag_family_is_classic(tf)) {
        status = atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "%s has data outside its border: it cannot have a wider border",
                      tf->name);
        goto done;
    }
    image = apriltag_to_image(tf, id);
    if (!image) {
        status = atag_fail(error, SHIM_STATUS_OUT_OF_MEMORY, "out of memory drawing a tag");
        goto done;
    }
    int32_t n = image->width;
    int32_t extra = border_cells - 1;  // a wider border pushes the white ring out by one cell
    int32_t out_side = n + 2 * extra;
    if ((size_t)out_side * (size_t)out_side > capacity) {
        status = atag_fail(error, SHIM_STATUS_INVALID_ARGUMENT, "%d bytes are too few for %dx%d cells", (int)capacity,
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
    atag_succeed(error);
done:
    if (image) image_u8_destroy(image);
    atag_family_release(family, tf);
    return status;
}

// A classic family with a black border `extra` cells wider: the same codes, bits one cell further in.
apriltag_family_t *atag_family_widened(const apriltag_family_t *base, int32_t extra) {
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

void atag_family_widened_free(apriltag_family_t *tf) {
    if (!tf) return;
    free(tf->bit_x);
    free(tf->bit_y);
    free(tf);
}
