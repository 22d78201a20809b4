// OpenCV FileStorage documents (YAML, XML, JSON) turned into JSON text, so that the Swift side
// reads every calibration file OpenCV writes through OpenCV's own parser.
#include "calibration.hpp"

#include <opencv2/core/persistence.hpp>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

struct mcal_text {
    std::string value;
};

namespace mcal {
namespace {

constexpr int max_depth = 64;

void append_string(std::string &out, const std::string &text) {
    out += '"';
    for (unsigned char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
                out += escaped;
            } else {
                out += char(c);
            }
        }
    }
    out += '"';
}

void append_node(std::string &out, const cv::FileNode &node, int depth) {
    if (depth > max_depth) fail(SHIM_STATUS_INVALID_ARGUMENT, "the document is nested deeper than %d levels", max_depth);
    if (node.isMap()) {
        out += '{';
        bool first = true;
        for (const std::string &key : node.keys()) {
            if (!first) out += ',';
            first = false;
            append_string(out, key);
            out += ':';
            append_node(out, node[key], depth + 1);
        }
        out += '}';
    } else if (node.isSeq()) {
        out += '[';
        for (size_t index = 0; index < node.size(); ++index) {
            if (index > 0) out += ',';
            append_node(out, node[int(index)], depth + 1);
        }
        out += ']';
    } else if (node.isInt()) {
        out += std::to_string(int(node));
    } else if (node.isReal()) {
        const double value = double(node);
        if (std::isfinite(value)) {
            char number[32];
            std::snprintf(number, sizeof number, "%.17g", value);
            out += number;
        } else {
            out += "null";
        }
    } else if (node.isString()) {
        append_string(out, std::string(node));
    } else {
        out += "null";
    }
}

}  // namespace
}  // namespace mcal

extern "C" {

shim_status mcal_storage_to_json(const char *bytes, size_t count, mcal_text **json, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(bytes, "bytes");
        mcal::require(json, "json");
        *json = nullptr;
        if (count == 0) mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "the document is empty");
        cv::FileStorage storage;
        try {
            storage.open(std::string(bytes, count), cv::FileStorage::READ | cv::FileStorage::MEMORY);
        } catch (const cv::Exception &exception) {
            mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "OpenCV's FileStorage cannot read it: %s", exception.msg.c_str());
        }
        if (!storage.isOpened()) mcal::fail(SHIM_STATUS_INVALID_ARGUMENT, "OpenCV's FileStorage cannot read it");
        auto result = std::make_unique<mcal_text>();
        mcal::append_node(result->value, storage.root(), 0);
        *json = result.release();
    });
}

shim_status mcal_text_get(const mcal_text *text, const char **data, size_t *count, shim_error *error) {
    return mcal::guarded(error, [&] {
        mcal::require(text, "text");
        mcal::require(data, "data");
        mcal::require(count, "count");
        *data = text->value.c_str();
        *count = text->value.size();
    });
}

void mcal_text_free(mcal_text *text) { delete text; }

}  // extern "C"
