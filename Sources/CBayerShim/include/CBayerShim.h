/*
 * CBayerShim: the Bayer mosaics that cameras record (ROS's bayer_rggb8, bayer_bggr8, bayer_gbrg8 and
 * bayer_grbg8 image encodings) turned into BGR or gray pixels by OpenCV's demosaicing (cvtColor,
 * bilinear). Pure C; the C++ stays in bayer.cpp. Follows the shim convention of CShimCore.h.
 */
#ifndef C_BAYER_SHIM_H
#define C_BAYER_SHIM_H

#include "CShimCore.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The colour of the first two pixels of the first row and of the second row, as ROS names them:
 * RGGB is red, green on even rows and green, blue on odd rows. */
typedef enum SHIM_CLOSED_ENUM mbs_bayer_pattern {
    MBS_BAYER_RGGB = 0,
    MBS_BAYER_BGGR,
    MBS_BAYER_GBRG,
    MBS_BAYER_GRBG,
} mbs_bayer_pattern;

/* Demosaics `mosaic` (GRAY8: one sample a pixel, laid out in `pattern`) into `output`, which the
 * caller owns and which this call writes into: BGR24 for colour, GRAY8 for luma alone, of the
 * mosaic's width and height. The mosaic is at least 2x2 pixels. */
shim_status mbs_bayer_demosaic(const shim_pixels *mosaic, mbs_bayer_pattern pattern, const shim_pixels *output,
                               shim_error *error);

#ifdef __cplusplus
}
#endif

#endif /* C_BAYER_SHIM_H */
