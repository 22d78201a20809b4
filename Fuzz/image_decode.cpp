// libFuzzer harness: image bytes through the shim's header check and decoders (msd_image_decode_as,
// to BGR and to gray), with a pixel limit of 4 megapixels so that a legitimate decode stays small.
#include "COpenCVShim.h"

#include <opencv2/core.hpp>

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    cv::setNumThreads(0);
    return 0;
}

// One decoding, as BGR or as gray (msd_image_decode_as); aborts on what the shim must never do.
static void decode(const uint8_t *data, size_t size, msd_image_channels channels) {
    msd_image *image = nullptr;
    shim_error error{};
    const shim_status status = msd_image_decode_as(data, size, 4000000, channels, &image, &error);
    if (status == SHIM_STATUS_OK) {
        shim_pixels pixels{};
        const shim_pixel_format expected = channels == MSD_IMAGE_CHANNELS_GRAY ? SHIM_PIXEL_FORMAT_GRAY8 : SHIM_PIXEL_FORMAT_BGR24;
        if (msd_image_pixels_get(image, &pixels, nullptr) != SHIM_STATUS_OK || int64_t(pixels.width) * pixels.height > 4000000 ||
            pixels.format != expected) {
            std::fprintf(stderr, "decoded past the pixel limit or into another format: %dx%d, format %d\n", pixels.width,
                         pixels.height, int(pixels.format));
            std::abort();
        }
    } else if (status == SHIM_STATUS_LIBRARY_ERROR || status == SHIM_STATUS_INTERNAL_ERROR || status == SHIM_STATUS_OUT_OF_MEMORY) {
        // A failure the shim did not foresee: the user would see OpenCV's words.
        std::fprintf(stderr, "unforeseen failure %d: %s\n", int(status), error.message);
        std::abort();
    }
    msd_image_free(image);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    decode(data, size, MSD_IMAGE_CHANNELS_BGR);
    decode(data, size, MSD_IMAGE_CHANNELS_GRAY);
    return 0;
}
