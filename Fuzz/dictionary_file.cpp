// libFuzzer harness: dictionary files through msd_dictionary_create_from_file. The first byte
// picks the extension (.yml, .json or .xml); the rest is the file.
#include "COpenCVShim.h"

#include <opencv2/core.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    cv::setNumThreads(0);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    static const char *extensions[] = {"yml", "json", "xml"};
    const std::string path = "/tmp/msd-fuzz-dictionary-" + std::to_string(getpid()) + "." + extensions[data[0] % 3];
    FILE *file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) std::abort();
    std::fwrite(data + 1, 1, size - 1, file);
    std::fclose(file);
    msd_dictionary *dictionary = nullptr;
    shim_error error{};
    const shim_status status = msd_dictionary_create_from_file(path.c_str(), &dictionary, &error);
    if (status == SHIM_STATUS_OK) {
        int32_t count = 0, side = 0;
        if (msd_dictionary_size_get(dictionary, &count, &side, nullptr) != SHIM_STATUS_OK || count < 1 ||
            count > MSD_DICTIONARY_MAX_MARKERS || side < MSD_DICTIONARY_MIN_MARKER_SIDE || side > MSD_DICTIONARY_MAX_MARKER_SIDE) {
            std::abort();
        }
    } else if (status != SHIM_STATUS_INVALID_DICTIONARY) {
        std::fprintf(stderr, "unforeseen failure %d: %s\n", int(status), error.message);
        std::abort();
    }
    msd_dictionary_free(dictionary);
    return 0;
}
