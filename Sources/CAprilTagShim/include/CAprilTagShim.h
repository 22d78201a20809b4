// atag: a pure C interface over libapriltag 3 (the AprilTag 3 detector of the University of
// Michigan), for MarkerDetection. It follows the shim convention (CShimCore.h): every function
// returns a shim_status and writes its results through out-parameters; a failure fills the
// optional `shim_error` with a message.

#ifndef C_APRILTAG_SHIM_H
#define C_APRILTAG_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "CShimCore.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The tag families libapriltag 3.3 provides.
typedef enum atag_family {
    ATAG_FAMILY_TAG36H11 = 0,
    ATAG_FAMILY_TAG25H9 = 1,
    ATAG_FAMILY_TAG16H5 = 2,
    ATAG_FAMILY_TAGSTANDARD41H12 = 3,
    ATAG_FAMILY_TAGSTANDARD52H13 = 4,
    ATAG_FAMILY_TAGCIRCLE21H7 = 5,
    ATAG_FAMILY_TAGCUSTOM48H12 = 6,
    ATAG_FAMILY_TAG36H10 = 7,
    ATAG_FAMILY_TAGCIRCLE49H12 = 8,
} atag_family;

/// How many families atag_family names.
#define ATAG_FAMILY_COUNT 9

/// What a family is: how many codes, and its drawing grid.
typedef struct atag_family_info {
    int32_t code_count;       ///< ids 0 ..< code_count
    int32_t total_width;      ///< cells across the whole drawn tag, white outer ring included
    int32_t width_at_border;  ///< cells across the black border square
    int32_t classic;          ///< 1 when the black border is the outermost black ring (36h11, 25h9, 16h5)
} atag_family_info;

shim_status atag_family_info_get(atag_family family, atag_family_info *info, shim_error *error);

/// The cells of one tag, row by row from the top, 0 black and 255 white, as libapriltag draws it
/// (`apriltag_to_image`). With `border_cells` 2 (classic families only) the black border is two
/// cells wide, as Kalibr prints AprilGrid tags; the white outer ring is always one cell. `cells`
/// holds `capacity` bytes; `side` receives the cells across.
shim_status atag_tag_cells_get(atag_family family, int32_t id, int32_t border_cells, uint8_t *cells, size_t capacity,
                             int32_t *side, shim_error *error);

typedef struct atag_detector_options {
    atag_family family;
    float decimate;        ///< libapriltag's quad_decimate; 0 (the default): 2 for an image whose
                           ///< shorter side is at least decimate_from_side pixels, else 1
    int32_t decimate_from_side;  ///< see decimate (default 720)
    float sigma;           ///< libapriltag's quad_sigma (default 0)
    int32_t refine_edges;  ///< libapriltag's refine_edges (default 1)
    int32_t max_hamming;   ///< bit errors corrected; the default depends on the family's size
    int32_t border_cells;  ///< 1, or 2 for Kalibr's AprilGrid tags
    float grid_spacing;    ///< > 0: tags of an AprilGrid with gaps of this ratio of the tag size;
                           ///< corners are refined as the X-junctions the grid's corner squares make
    int32_t first_id;      ///< with id_count > 0, only ids first_id ..< first_id + id_count are kept
    int32_t id_count;
} atag_detector_options;

/// Fills `options` with libapriltag's defaults for `family`.
void atag_detector_options_init(atag_detector_options *options, atag_family family);

typedef struct atag_detector atag_detector;

shim_status atag_detector_create(const atag_detector_options *options, atag_detector **detector, shim_error *error);
void atag_detector_free(atag_detector *detector);

/// One tag found. Corners are libapriltag's order, turned to OpenCV's: clockwise in the image from
/// the tag's own top-left corner, in pixels with the centre of the top-left pixel at (0, 0).
typedef struct atag_tag {
    int32_t id;
    int32_t hamming;
    float decision_margin;
    int32_t corner_refined[4];  ///< grid corners: 1 when the X-junction refinement converged
    double corners[8];
} atag_tag;

typedef struct atag_tags {
    size_t count;
    atag_tag *tags;
    int32_t has_sharpness;  ///< 0 when no tag was kept
    double sharpness;       ///< variance of the 3x3 Laplacian inside the convex hull of the corners
} atag_tags;

/// The smallest width and height atag_detector_detect accepts.
extern const int32_t atag_minimum_side;

/// Detects tags in an image read in place (gray images are not copied; colour ones are turned gray
/// with OpenCV's weights). Any number of threads may call this on one detector at once; each call
/// runs libapriltag on the calling thread alone (see detector.c for why not on its worker pool).
shim_status atag_detector_detect(atag_detector *detector, const shim_pixels *pixels, atag_tags **tags, shim_error *error);
void atag_tags_free(atag_tags *tags);

/// Tags of every family at once, for finding out what a target is: the classic families (36h11,
/// 36h10, 25h9, 16h5) with Kalibr's border of two cells (looked for, as the AprilGrid detector looks,
/// with black thinned by a pixel), the others with their own border. The classic families with
/// their own one-cell border are left to OpenCV's AprilTag dictionaries. Bit errors are corrected
/// only where a family's codes lie far apart (at most one). Any number of threads may call
/// atag_identifier_detect at once.
typedef struct atag_identifier atag_identifier;

shim_status atag_identifier_create(atag_identifier **identifier, shim_error *error);
void atag_identifier_free(atag_identifier *identifier);

/// One tag found by an identifier: its family, its border and, as atag_tag, its id and corners.
typedef struct atag_identified_tag {
    atag_family family;
    int32_t border_cells;
    int32_t id;
    double corners[8];
} atag_identified_tag;

typedef struct atag_identified_tags {
    size_t count;
    atag_identified_tag *tags;
} atag_identified_tags;

shim_status atag_identifier_detect(atag_identifier *identifier, const shim_pixels *pixels, atag_identified_tags **tags,
                                  shim_error *error);
void atag_identified_tags_free(atag_identified_tags *tags);

/// Where the libapriltag this process runs with was loaded from. libapriltag has no version call
/// and its headers no version macro; its shared object's file name carries the version it was
/// built as (libapriltag.so.3.3.0), so this names that file: the object that holds
/// apriltag_detector_create (dladdr), with symbolic links resolved (realpath).
typedef struct atag_library {
    char path[4096];  ///< NUL-terminated
} atag_library;

shim_status atag_library_get(atag_library *library, shim_error *error);

#ifdef __cplusplus
}
#endif

#endif
