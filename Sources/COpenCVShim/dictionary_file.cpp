// Custom marker dictionaries from OpenCV FileStorage files (YAML, XML or JSON). Every field is
// checked against the limits in COpenCVShim.h before OpenCV builds the dictionary, so that a hostile file
// can neither make it allocate gigabytes nor write past a marker's bits.
#include "shim.hpp"

#include <opencv2/aruco.hpp>

#include <cctype>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace msd {
namespace {

class DictionaryFile {
public:
    explicit DictionaryFile(const char *path) : path_(path) {}

    [[noreturn]] void invalid(const std::string &what) const {
        throw Failure{SHIM_STATUS_INVALID_DICTIONARY, "dictionary file '" + path_ + "': " + what};
    }

    // The storage format from the file name's extension (FileStorage would guess from the content).
    int format() const {
        const size_t dot = path_.rfind('.');
        std::string extension = dot == std::string::npos ? "" : path_.substr(dot + 1);
        for (char &character : extension) character = char(std::tolower(static_cast<unsigned char>(character)));
        if (extension == "xml") return cv::FileStorage::FORMAT_XML;
        if (extension == "json") return cv::FileStorage::FORMAT_JSON;
        if (extension == "yml" || extension == "yaml") return cv::FileStorage::FORMAT_YAML;
        return cv::FileStorage::FORMAT_AUTO;
    }

    // What OpenCV's parser objected to, as "line N: what". OpenCV 4.6 raises parse errors with the
    // function name and the message swapped: the message, "NAME(LINE): WHAT", is in `func`.
    std::string parse_error(const cv::Exception &exception) const {
        if (exception.code != cv::Error::StsParseError) return "it is not well-formed";
        const std::string &text = exception.func;
        const size_t open = text.rfind('(', text.find("): "));
        const size_t close = text.find("): ");
        if (open == std::string::npos || close == std::string::npos || close < open) return "it is not well-formed";
        return "line " + text.substr(open + 1, close - open - 1) + ": " + text.substr(close + 3);
    }

    // A whole number at `key`, within minimum...maximum.
    int integer(const cv::FileNode &root, const char *key, int minimum, int maximum, const char *meaning) const {
        const cv::FileNode node = root[key];
        if (node.empty() || node.isNone()) invalid(std::string("no '") + key + "' (" + meaning + ")");
        if (!node.isInt()) invalid(std::string("'") + key + "' must be a whole number (" + meaning + ")");
        const int value = int(node);
        if (value < minimum || value > maximum) {
            invalid(std::string("'") + key + "' is " + std::to_string(value) + ", outside " + std::to_string(minimum) +
                    "..." + std::to_string(maximum) + " (" + meaning + ")");
        }
        return value;
    }

    cv::Ptr<cv::aruco::Dictionary> read() const {
        RegularFile file(path_.c_str(), MSD_DICTIONARY_FILE_MAX_BYTES);
        std::vector<uint8_t> bytes;
        file.read_into(bytes, file.size());
        if (bytes.empty()) invalid("the file is empty");
        for (uint8_t byte : bytes) {
            if (byte == 0) invalid("the file holds a NUL byte, so it is not YAML, XML or JSON text");
        }
        const std::string text(bytes.begin(), bytes.end());
        cv::FileStorage storage;
        try {
            storage.open(text, cv::FileStorage::READ | cv::FileStorage::MEMORY | format());
            if (!storage.isOpened()) invalid("not a readable YAML, XML or JSON file");
            return build(storage.root());
        } catch (const cv::Exception &exception) {
            invalid("not a readable YAML, XML or JSON file: " + parse_error(exception));
        } catch (const std::bad_alloc &) {
            throw;
        } catch (const std::exception &) {
            // OpenCV's parser fails on some malformed input with a C++ library error (a string of
            // impossible length, for one) rather than a parse error.
            invalid("not a readable YAML, XML or JSON file");
        }
    }

private:
    // The dictionary the storage's root describes, after checking every field.
    cv::Ptr<cv::aruco::Dictionary> build(const cv::FileNode &root) const {
        if (!root.isMap()) invalid("expected a map with nmarkers, markersize and marker_0, marker_1, ...");
        const int side = integer(root, "markersize", MSD_DICTIONARY_MIN_MARKER_SIDE, MSD_DICTIONARY_MAX_MARKER_SIDE,
                                 "bits on each side of a marker");
        const int count = integer(root, "nmarkers", 1, MSD_DICTIONARY_MAX_MARKERS, "the number of markers");
        int correction = 0;
        if (!root["maxCorrectionBits"].empty()) {
            correction = integer(root, "maxCorrectionBits", 0, side * side, "bits a detection may correct");
        }
        const size_t bits = size_t(side) * size_t(side);
        cv::Mat bytes_list;
        cv::Mat marker(side, side, CV_8UC1);
        for (int index = 0; index < count; ++index) {
            const std::string key = "marker_" + std::to_string(index);
            const cv::FileNode node = root[key];
            if (node.empty() || node.isNone()) {
                invalid("no '" + key + "': nmarkers is " + std::to_string(count) + ", so marker_0 ... marker_" +
                        std::to_string(count - 1) + " must each be a string of bits");
            }
            if (!node.isString()) invalid("'" + key + "' must be a string of bits in quotes, like \"0110...\"");
            const std::string value = std::string(node);
            if (value.size() != bits || value.find_first_not_of("01") != std::string::npos) {
                invalid("'" + key + "' must be " + std::to_string(bits) + " characters 0 or 1 (markersize " +
                        std::to_string(side) + " squared), found " + std::to_string(value.size()) + " characters" +
                        (value.find_first_not_of("01") != std::string::npos ? " with others than 0 and 1" : ""));
            }
            for (size_t bit = 0; bit < bits; ++bit) marker.data[bit] = value[bit] == '1' ? 1 : 0;
            bytes_list.push_back(cv::aruco::Dictionary::getByteListFromBits(marker));
        }
        return cv::makePtr<cv::aruco::Dictionary>(bytes_list, side, correction);
    }

    std::string path_;
};

}  // namespace
}  // namespace msd

extern "C" {

shim_status msd_dictionary_create_from_file(const char *path, msd_dictionary **dictionary, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(path, "path");
        msd::require(dictionary, "dictionary");
        *dictionary = nullptr;
        *dictionary = new msd_dictionary{msd::DictionaryFile(path).read()};
    });
}

}  // extern "C"
