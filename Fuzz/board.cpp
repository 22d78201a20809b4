// libFuzzer harness: board descriptions through msd_detector_create, msd_detector_render (at most
// 512 pixels a side) and msd_detector_detect on a small gray image. Every refusal must be
// SHIM_STATUS_INVALID_ARGUMENT with the shim's own message, never OpenCV's.
#include "COpenCVShim.h"

#include <opencv2/core.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct Reader {
    const uint8_t *data;
    size_t size;
    template <typename T> T take() {
        T value{};
        const size_t count = std::min(size, sizeof(T));
        std::memcpy(&value, data, count);
        data += count;
        size -= count;
        return value;
    }
};

void expect_foreseen(shim_status status, const shim_error &error, const char *call) {
    if (status == SHIM_STATUS_OK || status == SHIM_STATUS_INVALID_ARGUMENT || status == SHIM_STATUS_IMAGE_TOO_SMALL) return;
    std::fprintf(stderr, "%s: unforeseen failure %d: %s\n", call, int(status), error.message);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    cv::setNumThreads(0);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Reader reader{data, size};
    msd_pattern pattern{};
    pattern.kind = msd_pattern_kind(reader.take<uint8_t>() % 4);
    pattern.columns = reader.take<int16_t>();
    pattern.rows = reader.take<int16_t>();
    pattern.square_length = reader.take<double>();
    pattern.marker_length = reader.take<double>();
    pattern.marker_separation = reader.take<double>();
    pattern.first_marker = reader.take<int32_t>();
    pattern.legacy_layout = reader.take<uint8_t>() & 1;
    const auto name = msd_predefined_dictionary(reader.take<uint8_t>() % (MSD_DICT_APRILTAG_36h11 + 1));
    const int32_t width = reader.take<int16_t>() % 513;
    const int32_t height = reader.take<int16_t>() % 513;
    const int32_t margin = reader.take<int8_t>();

    shim_error error{};
    msd_dictionary *dictionary = nullptr;
    if (msd_dictionary_create_predefined(name, &dictionary, &error) != SHIM_STATUS_OK) std::abort();
    msd_detector *detector = nullptr;
    shim_status status = msd_detector_create(&pattern, dictionary, &detector, &error);
    msd_dictionary_free(dictionary);
    expect_foreseen(status, error, "msd_detector_create");
    if (detector == nullptr) return 0;

    msd_image *image = nullptr;
    status = msd_detector_render(detector, width, height, margin, &image, &error);
    expect_foreseen(status, error, "msd_detector_render");
    std::vector<uint8_t> gray(64 * 64);
    for (size_t index = 0; index < gray.size(); ++index) gray[index] = uint8_t(index * 37 + (index / 64) * 91);
    shim_pixels pixels{gray.data(), 64, 64, 64, SHIM_PIXEL_FORMAT_GRAY8};
    if (image != nullptr) msd_image_pixels_get(image, &pixels, nullptr);
    msd_detection *detection = nullptr;
    status = msd_detector_detect(detector, &pixels, &detection, &error);
    expect_foreseen(status, error, "msd_detector_detect");
    msd_detection_free(detection);
    msd_image_free(image);
    msd_detector_free(detector);
    return 0;
}
