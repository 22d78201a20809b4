// Image files: header sniffing (so the pixel limit is checked before any decoding), decoding,
// reading and encoding. JPEGs are decoded and encoded by libjpeg(-turbo) and PNGs by libpng, the
// libraries OpenCV's codecs use, with the settings OpenCV 4.6's imdecode and imencode use, so that
// the pixels and files are theirs; OpenCV's imgcodecs (whose other codecs bring GDAL, GDCM, HDF5,
// HEIF and OpenEXR with them, some 140 libraries for every start of the tool) is loaded only to
// read the rare BMP or TIFF file.
#include "shim.hpp"

#include <opencv2/imgproc.hpp>

#include <dlfcn.h>

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <jpeglib.h>
#include <png.h>

struct msd_bytes {
    std::vector<uchar> data;
};

namespace msd {
namespace {

// Bounds-checked reads from the start of a file's bytes; reading past the end means the file is
// truncated (its header promised more than it holds).
class Bytes {
public:
    Bytes(const uint8_t *data, size_t count, const char *format) : data_(data), count_(count), format_(format) {}

    size_t count() const { return count_; }
    uint8_t at(size_t offset) const {
        need(offset, 1);
        return data_[offset];
    }
    uint32_t big16(size_t offset) const { return uint32_t(at(offset)) << 8 | at(offset + 1); }
    uint32_t big32(size_t offset) const { return big16(offset) << 16 | big16(offset + 2); }
    uint32_t little16(size_t offset) const { return uint32_t(at(offset + 1)) << 8 | at(offset); }
    uint32_t little32(size_t offset) const { return little16(offset + 2) << 16 | little16(offset); }
    const uint8_t *pointer(size_t offset) const { return data_ + offset; }

    void need(size_t offset, size_t length) const {
        if (offset > count_ || length > count_ - offset) {
            fail(SHIM_STATUS_TRUNCATED, "truncated %s: the data ends at byte %zu, inside its header", format_, count_);
        }
    }

private:
    const uint8_t *data_;
    size_t count_;
    const char *format_;
};

bool starts_with(const uint8_t *bytes, size_t count, const char *signature, size_t length) {
    return count >= length && std::memcmp(bytes, signature, length) == 0;
}

msd_image_header png_header(const Bytes &bytes) {
    // Signature (8 bytes), then the IHDR chunk: length (4), type (4), width (4), height (4).
    if (bytes.count() >= 16 && std::memcmp(bytes.pointer(12), "IHDR", 4) != 0) {
        fail(SHIM_STATUS_DECODE_FAILED, "corrupt PNG: the first chunk is not IHDR");
    }
    return {MSD_FILE_FORMAT_PNG, bytes.big32(16), bytes.big32(20)};
}

bool is_start_of_frame(uint8_t marker) {
    return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}

// The orientation tag (0x0112) of Exif data's first directory, as OpenCV's ExifReader reads it:
// `tiff` points at the TIFF header (as a PNG's eXIf chunk holds it). 1 (as stored) when there is
// none, it is malformed, or its value is not one of the eight orientations.
int tiff_orientation(const uint8_t *tiff, size_t size) {
    if (size < 8) return 1;
    const bool little = tiff[0] == 'I' && tiff[1] == 'I';
    if (!little && !(tiff[0] == 'M' && tiff[1] == 'M')) return 1;
    auto u16 = [&](size_t at) { return little ? uint32_t(tiff[at]) | uint32_t(tiff[at + 1]) << 8 : uint32_t(tiff[at]) << 8 | tiff[at + 1]; };
    auto u32 = [&](size_t at) { return little ? u16(at) | u16(at + 2) << 16 : u16(at) << 16 | u16(at + 2); };
    const size_t directory = u32(4);
    if (directory > size || size - directory < 2) return 1;
    const size_t entries = u16(directory);
    for (size_t index = 0; index < entries; ++index) {
        const size_t entry = directory + 2 + 12 * index;
        if (entry > size || size - entry < 12) return 1;
        if (u16(entry) != 0x0112) continue;
        const uint32_t value = u16(entry + 2) == 3 ? u16(entry + 8) : 1;
        return value >= 1 && value <= 8 ? int(value) : 1;
    }
    return 1;
}

// The same for a JPEG's Exif segment: `exif` points at "Exif\0\0" and the TIFF data after it.
int exif_orientation(const uint8_t *exif, size_t count) {
    return count < 6 ? 1 : tiff_orientation(exif + 6, count - 6);
}

// Turns decoded pixels as an Exif orientation says, as imdecode's ApplyExifOrientation does.
void apply_orientation(int orientation, cv::Mat &pixels) {
    if (orientation >= 5) cv::transpose(pixels, pixels);
    switch (orientation) {
    case 2: case 6: cv::flip(pixels, pixels, 1); break;
    case 3: case 7: cv::flip(pixels, pixels, -1); break;
    case 4: case 8: cv::flip(pixels, pixels, 0); break;
    default: break;
    }
}

// What a JPEG's segments before its first scan say, besides its size.
struct JpegLayout {
    // Where entropy-coded data begins.
    size_t scan_data = 0;
    // Whether it carries Exif data, whose orientation imdecode applies.
    bool exif = false;
    // The orientation the first Exif segment gives (1 to 8, 1 when it gives none).
    int orientation = 1;
};

// Walks the JPEG's marker segments up to the first start-of-scan. Returns the frame header's size
// and fills `layout`.
msd_image_header jpeg_header(const Bytes &bytes, JpegLayout *layout) {
    msd_image_header header{MSD_FILE_FORMAT_JPEG, -1, -1};
    size_t offset = 2;
    for (;;) {
        if (bytes.at(offset) != 0xFF) fail(SHIM_STATUS_DECODE_FAILED, "corrupt JPEG: no marker at byte %zu", offset);
        while (bytes.at(offset) == 0xFF) ++offset;  // fill bytes
        const uint8_t marker = bytes.at(offset++);
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no length field
        if (marker == 0xD9) fail(SHIM_STATUS_DECODE_FAILED, "corrupt JPEG: end of image before any scan");
        const size_t length = bytes.big16(offset);
        if (length < 2) fail(SHIM_STATUS_DECODE_FAILED, "corrupt JPEG: segment length %zu at byte %zu", length, offset);
        bytes.need(offset, length);
        if (is_start_of_frame(marker)) {
            if (header.width >= 0) fail(SHIM_STATUS_DECODE_FAILED, "corrupt JPEG: a second frame header at byte %zu", offset);
            header.height = bytes.big16(offset + 3);
            header.width = bytes.big16(offset + 5);
        }
        if (marker == 0xE1 && length >= 8 && std::memcmp(bytes.pointer(offset + 2), "Exif", 4) == 0 && !layout->exif) {
            layout->exif = true;
            layout->orientation = exif_orientation(bytes.pointer(offset + 2), length - 2);
        }
        if (marker == 0xDA) {
            if (header.width < 0) fail(SHIM_STATUS_DECODE_FAILED, "corrupt JPEG: a scan before the frame header");
            layout->scan_data = offset + length;
            return header;
        }
        offset += length;
    }
}

msd_image_header bmp_header(const Bytes &bytes) {
    const uint32_t info_size = bytes.little32(14);
    if (info_size == 12) return {MSD_FILE_FORMAT_BMP, bytes.little16(18), bytes.little16(20)};
    const int32_t width = int32_t(bytes.little32(18));
    const int32_t height = int32_t(bytes.little32(22));  // negative: rows stored top-down
    if (width <= 0 || height == INT32_MIN) fail(SHIM_STATUS_DECODE_FAILED, "corrupt BMP: width %d, height %d", width, height);
    return {MSD_FILE_FORMAT_BMP, width, height < 0 ? -int64_t(height) : height};
}

msd_image_header tiff_header(const Bytes &bytes) {
    const bool little = bytes.at(0) == 'I';
    auto u16 = [&](size_t offset) { return little ? bytes.little16(offset) : bytes.big16(offset); };
    auto u32 = [&](size_t offset) { return little ? bytes.little32(offset) : bytes.big32(offset); };
    if (u16(2) != 42) fail(SHIM_STATUS_UNRECOGNIZED_FORMAT, "unsupported TIFF variant (only classic TIFF is read)");
    const size_t directory = u32(4);
    const size_t entries = u16(directory);
    msd_image_header header{MSD_FILE_FORMAT_TIFF, -1, -1};
    for (size_t index = 0; index < entries; ++index) {
        const size_t entry = directory + 2 + 12 * index;
        const uint32_t tag = u16(entry);
        if (tag != 256 && tag != 257) continue;
        const char *name = tag == 256 ? "width" : "length";
        const uint32_t type = u16(entry + 2);
        const uint32_t count = u32(entry + 4);
        const int64_t value = type == 3 ? u16(entry + 8) : type == 4 ? u32(entry + 8) : -1;
        if (value < 0 || count != 1) {
            fail(SHIM_STATUS_DECODE_FAILED, "corrupt TIFF: the image %s has type %u and %u values (one SHORT or LONG expected)",
                 name, type, count);
        }
        // The decoder might take another copy than this parser: a size given twice is refused.
        int64_t &field = tag == 256 ? header.width : header.height;
        if (field >= 0) {
            fail(SHIM_STATUS_DECODE_FAILED, "corrupt TIFF: the image %s is given twice (%lld and %lld)", name,
                 (long long)field, (long long)value);
        }
        field = value;
    }
    if (header.width < 0 || header.height < 0) fail(SHIM_STATUS_DECODE_FAILED, "corrupt TIFF: no image width or length");
    return header;
}

msd_image_header read_header(const uint8_t *data, size_t count, JpegLayout *jpeg) {
    if (count == 0) fail(SHIM_STATUS_EMPTY_INPUT, "empty image: 0 bytes");
    if (starts_with(data, count, "\x89PNG\r\n\x1a\n", 8)) return png_header(Bytes(data, count, "PNG"));
    if (starts_with(data, count, "\xFF\xD8\xFF", 3)) return jpeg_header(Bytes(data, count, "JPEG"), jpeg);
    if (starts_with(data, count, "BM", 2) && count >= 14) return bmp_header(Bytes(data, count, "BMP"));
    if (starts_with(data, count, "II", 2) || starts_with(data, count, "MM", 2)) {
        return tiff_header(Bytes(data, count, "TIFF"));
    }
    fail(SHIM_STATUS_UNRECOGNIZED_FORMAT, "not a JPEG, PNG, BMP or TIFF image");
}

#ifndef JCS_EXTENSIONS
#error "libjpeg-turbo is needed: JPEGs are decoded straight to BGR (JCS_EXT_BGR)"
#endif

struct JpegErrors {
    jpeg_error_mgr manager;  // first, so that libjpeg's pointer to it is one to the whole
    std::jmp_buf escape;
    // Why the decode stopped, worded for the user.
    char message[JMSG_LENGTH_MAX + 64];
};

[[noreturn]] void leave_jpeg(j_common_ptr info) {
    auto *errors = reinterpret_cast<JpegErrors *>(info->err);
    char words[JMSG_LENGTH_MAX];
    info->err->format_message(info, words);
    std::snprintf(errors->message, sizeof errors->message, "corrupt JPEG: %s", words);
    std::longjmp(errors->escape, 1);
}

// libjpeg's default prints warnings (corrupt data it decodes past, as some cameras' frames have)
// on standard error, in the middle of the command's own output: they are dropped instead. libjpeg
// counts them (`num_warnings`) all the same.
void keep_jpeg_quiet(j_common_ptr) {}

// Routes a libjpeg decoder's or encoder's errors to `errors` (leave_jpeg) and drops its warnings.
void route_jpeg_errors(jpeg_error_mgr *&err, JpegErrors &errors) {
    errors.message[0] = '\0';
    err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = leave_jpeg;
    errors.manager.output_message = keep_jpeg_quiet;
}

// A product of two 8-bit values scaled back to 8 bits, rounded: a * b / 255.
inline uint8_t scaled(unsigned a, unsigned b) {
    const unsigned product = a * b + 128;
    return uint8_t((product + (product >> 8)) >> 8);
}

// One row of CMYK (as libjpeg gives it for CMYK and YCCK JPEGs) as BGR, or as gray when `gray`.
// Adobe's applications, which write nearly every such file, store the four inks inverted (0 is full
// ink) and say so with their APP14 marker: then red is C * K / 255 of the stored values, otherwise
// (255 - C) * (255 - K) / 255; likewise green from M and blue from Y. Gray is the luma of that BGR
// with OpenCV's weights (0.299 R + 0.587 G + 0.114 B, in 14-bit fixed point), as its grayscale
// reading of such a file gives.
void cmyk_row(const uint8_t *cmyk, uint8_t *out, size_t width, bool inverted, bool gray) {
    for (size_t x = 0; x < width; ++x, cmyk += 4) {
        const unsigned k = inverted ? cmyk[3] : 255u - cmyk[3];
        auto ink = [&](int channel) { return scaled(inverted ? cmyk[channel] : 255u - cmyk[channel], k); };
        const uint8_t red = ink(0), green = ink(1), blue = ink(2);
        if (gray) {
            *out++ = uint8_t((red * 4899u + green * 9617u + blue * 1868u + 8192u) >> 14);
        } else {
            *out++ = blue;
            *out++ = green;
            *out++ = red;
        }
    }
}

// Decodes a JPEG into `pixels` (already of the size its header gives) with libjpeg(-turbo), the
// library imdecode uses, with imdecode's settings, so that OpenCV's own JPEG decoder (whose libjpeg
// prints its warnings on standard error) is never needed. For BGR from one or three components,
// libjpeg converts straight to BGR (imdecode asks for RGB and swaps every pixel's bytes in a pass of
// its own; the pixels are the same). For gray from one or three components, libjpeg gives the luma,
// as imdecode's IMREAD_GRAYSCALE does. CMYK and YCCK JPEGs (four components) come as CMYK and are
// turned into BGR or gray here (see cmyk_row). Any other number of components, and every error of
// libjpeg's, is a failure worded for the user; libjpeg's warnings are not printed.
void decode_jpeg(const uint8_t *data, size_t count, msd_image_channels channels, cv::Mat &pixels) {
    // No object with a destructor lives in this frame, so longjmp may leave it.
    jpeg_decompress_struct info;
    std::memset(&info, 0, sizeof info);
    JpegErrors errors;
    route_jpeg_errors(info.err, errors);
    if (setjmp(errors.escape) != 0) {
        jpeg_destroy_decompress(&info);
        fail(SHIM_STATUS_DECODE_FAILED, "%s", errors.message);
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, static_cast<unsigned long>(count));
    jpeg_read_header(&info, TRUE);
    const bool gray = channels == MSD_IMAGE_CHANNELS_GRAY;
    const bool cmyk = info.num_components == 4;
    if (info.num_components != 1 && info.num_components != 3 && !cmyk) {
        std::snprintf(errors.message, sizeof errors.message,
                      "unsupported JPEG: %d colour components (JPEGs of 1, 3 or 4 are read)", info.num_components);
        std::longjmp(errors.escape, 1);
    }
    info.out_color_space = cmyk ? JCS_CMYK : gray ? JCS_GRAYSCALE : JCS_EXT_BGR;
    jpeg_start_decompress(&info);
    if (int(info.output_width) != pixels.cols || int(info.output_height) != pixels.rows) {
        std::snprintf(errors.message, sizeof errors.message, "corrupt JPEG: its frame header says %dx%d, its data %ux%u",
                      pixels.cols, pixels.rows, info.output_width, info.output_height);
        std::longjmp(errors.escape, 1);
    }
    // libjpeg's pool owns the CMYK row and frees it with the decompressor.
    JSAMPARRAY inks = cmyk ? (*info.mem->alloc_sarray)(reinterpret_cast<j_common_ptr>(&info), JPOOL_IMAGE,
                                                       info.output_width * 4, 1)
                           : nullptr;
    const bool inverted = info.saw_Adobe_marker;
    while (info.output_scanline < info.output_height) {
        uint8_t *out = pixels.ptr(int(info.output_scanline));
        JSAMPROW row = cmyk ? inks[0] : out;
        jpeg_read_scanlines(&info, &row, 1);
        if (cmyk) cmyk_row(row, out, info.output_width, inverted, gray);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
}

// libpng's errors leave through a longjmp to the frame that set it, with the message kept for the
// user; its warnings (ancillary chunks it skips, as OpenCV's reading skips them) are dropped.
struct PngErrors {
    std::jmp_buf escape;
    char message[256];
};

[[noreturn]] void leave_png(png_structp png, png_const_charp words) {
    auto *errors = static_cast<PngErrors *>(png_get_error_ptr(png));
    std::snprintf(errors->message, sizeof errors->message, "corrupt PNG: %s", words);
    std::longjmp(errors->escape, 1);
}

void keep_png_quiet(png_structp, png_const_charp) {}

// The encoded bytes a PNG is read from.
struct PngSource {
    const uint8_t *data;
    size_t count;
    size_t offset;
};

void read_png_bytes(png_structp png, png_bytep out, size_t length) {
    auto *source = static_cast<PngSource *>(png_get_io_ptr(png));
    if (length > source->count - source->offset) png_error(png, "the data ends inside the image");
    std::memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

// Decodes a PNG into `pixels` (already of the size its header gives, 8-bit BGR or gray) with
// libpng, transformed as OpenCV 4.6's PNG decoder transforms it for imdecode's IMREAD_COLOR or
// IMREAD_GRAYSCALE: 16-bit samples cut to their high byte, alpha dropped, palettes and small gray
// depths expanded, colour as BGR, or colour turned gray by libpng (weights 0.299 and 0.587), gray
// repeated for BGR; then turned as its eXIf chunk's orientation says, as imdecode does.
void decode_png(const uint8_t *data, size_t count, cv::Mat &pixels) {
    // The one object with a destructor in this frame is made before setjmp, so a longjmp back
    // leaves it alive.
    std::vector<png_bytep> rows(size_t(pixels.rows));
    for (int row = 0; row < pixels.rows; ++row) rows[size_t(row)] = pixels.ptr(row);
    PngErrors errors;
    errors.message[0] = '\0';
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &errors, leave_png, keep_png_quiet);
    if (png == nullptr) fail(SHIM_STATUS_OUT_OF_MEMORY, "libpng could not start a decoder");
    png_infop info = png_create_info_struct(png);
    png_infop end = png_create_info_struct(png);
    PngSource source{data, count, 0};
    int orientation = 1;
    if (setjmp(errors.escape) != 0) {
        png_destroy_read_struct(&png, &info, &end);
        fail(SHIM_STATUS_DECODE_FAILED, "%s", errors.message);
    }
    if (info == nullptr || end == nullptr) png_error(png, "out of memory");
    png_set_read_fn(png, &source, read_png_bytes);
    png_read_info(png, info);
    const int depth = png_get_bit_depth(png, info), type = png_get_color_type(png, info);
    if (int(png_get_image_width(png, info)) != pixels.cols || int(png_get_image_height(png, info)) != pixels.rows) {
        png_error(png, "its header changed size");
    }
    const bool color = pixels.channels() == 3;
    if (depth == 16) png_set_strip_16(png);
    png_set_strip_alpha(png);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if ((type & PNG_COLOR_MASK_COLOR) == 0 && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if ((type & PNG_COLOR_MASK_COLOR) && color) {
        png_set_bgr(png);
    } else if (color) {
        png_set_gray_to_rgb(png);
    } else {
        png_set_rgb_to_gray(png, 1, 0.299, 0.587);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != size_t(pixels.cols) * size_t(pixels.channels())) {
        png_error(png, "its rows decode to another size");
    }
    png_read_image(png, rows.data());
    png_read_end(png, end);
    png_uint_32 exif_count = 0;
    png_bytep exif = nullptr;
    if (png_get_eXIf_1(png, info, &exif_count, &exif) == 0) png_get_eXIf_1(png, end, &exif_count, &exif);
    if (exif != nullptr && exif_count > 0) orientation = tiff_orientation(exif, exif_count);
    png_destroy_read_struct(&png, &info, &end);
    if (orientation != 1) apply_orientation(orientation, pixels);
}

void append_png_bytes(png_structp png, png_bytep data, size_t length) {
    auto *out = static_cast<std::vector<uchar> *>(png_get_io_ptr(png));
    out->insert(out->end(), data, data + length);
}

void flush_nothing(png_structp) {}

// Encodes 8-bit gray or BGR pixels as a PNG with libpng, as OpenCV 4.6's imencode(".png") does by
// default: the Sub filter, zlib's fastest level with its run-length strategy.
void encode_png(const cv::Mat &image, std::vector<uchar> &out) {
    // The one object with a destructor in this frame is made before setjmp (see decode_png).
    std::vector<png_bytep> rows(size_t(image.rows));
    for (int row = 0; row < image.rows; ++row) rows[size_t(row)] = const_cast<png_bytep>(image.ptr(row));
    PngErrors errors;
    errors.message[0] = '\0';
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &errors, leave_png, keep_png_quiet);
    if (png == nullptr) fail(SHIM_STATUS_OUT_OF_MEMORY, "libpng could not start an encoder");
    png_infop info = png_create_info_struct(png);
    if (setjmp(errors.escape) != 0) {
        png_destroy_write_struct(&png, &info);
        fail(SHIM_STATUS_ENCODE_FAILED, "libpng could not encode the image: %s", errors.message);
    }
    if (info == nullptr) png_error(png, "out of memory");
    png_set_write_fn(png, &out, append_png_bytes, flush_nothing);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_compression_level(png, 1);
    png_set_compression_strategy(png, 3);  // Z_RLE
    png_set_IHDR(png, info, png_uint_32(image.cols), png_uint_32(image.rows), 8,
                 image.channels() == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_set_bgr(png);
    png_write_image(png, rows.data());
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
}

// Encodes 8-bit gray or BGR pixels as a baseline JPEG of `quality` with libjpeg, as OpenCV 4.6's
// imencode(".jpg") does (libjpeg's defaults: 4:2:0 chroma, a JFIF header, no restart markers or
// optimised tables).
void encode_jpeg(const cv::Mat &image, int quality, std::vector<uchar> &out) {
    // No object with a destructor lives in this frame, so longjmp may leave it.
    jpeg_compress_struct info;
    std::memset(&info, 0, sizeof info);
    JpegErrors errors;
    route_jpeg_errors(info.err, errors);
    unsigned char *encoded = nullptr;
    unsigned long size = 0;
    if (setjmp(errors.escape) != 0) {
        jpeg_destroy_compress(&info);
        std::free(encoded);
        fail(SHIM_STATUS_ENCODE_FAILED, "libjpeg could not encode the image: %s", errors.message);
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &encoded, &size);
    info.image_width = JDIMENSION(image.cols);
    info.image_height = JDIMENSION(image.rows);
    info.input_components = image.channels();
    info.in_color_space = image.channels() == 1 ? JCS_GRAYSCALE : JCS_EXT_BGR;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = const_cast<JSAMPROW>(image.ptr(int(info.next_scanline)));
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    out.assign(encoded, encoded + size);
    std::free(encoded);
}

// OpenCV's imdecode, from its imgcodecs loaded at the first BMP or TIFF: the only formats read
// that neither libjpeg nor libpng reads. By its C++ name (imgcodecs has no C interface): the
// function cv::imdecode(cv::InputArray, int) of OpenCV 4.6 that these headers declare.
using Imdecode = cv::Mat (*)(const cv::_InputArray &, int);

Imdecode opencv_imdecode() {
    static Imdecode function = nullptr;
    static std::string missing;
    static std::once_flag once;
    std::call_once(once, [] {
        void *library = dlopen("libopencv_imgcodecs.so.406", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            const char *reason = dlerror();
            missing = reason != nullptr ? reason : "not found";
            return;
        }
        function = reinterpret_cast<Imdecode>(dlsym(library, "_ZN2cv8imdecodeERKNS_11_InputArrayEi"));
        if (function == nullptr) missing = "no cv::imdecode in it";
    });
    if (function == nullptr) {
        fail(SHIM_STATUS_LIBRARY_ERROR, "reading BMP and TIFF images needs OpenCV's imgcodecs (libopencv_imgcodecs.so.406): %s "
             "(install libopencv-imgcodecs406)", missing.c_str());
    }
    return function;
}

const char *format_name(msd_file_format format) {
    switch (format) {
    case MSD_FILE_FORMAT_JPEG: return "JPEG";
    case MSD_FILE_FORMAT_PNG: return "PNG";
    case MSD_FILE_FORMAT_BMP: return "BMP";
    case MSD_FILE_FORMAT_TIFF: return "TIFF";
    }
    return "image";
}

void check_pixel_limit(const msd_image_header &header, int64_t max_pixels) {
    if (max_pixels < 1) fail(SHIM_STATUS_INVALID_ARGUMENT, "pixel limit %lld is not positive", (long long)max_pixels);
    if (header.width < 1 || header.height < 1) {
        fail(SHIM_STATUS_DECODE_FAILED, "corrupt %s: header claims %lldx%lld pixels", format_name(header.format),
             (long long)header.width, (long long)header.height);
    }
    // OpenCV's decoders refuse a side over 2^20 pixels (imgcodecs' CV_IO_MAX_IMAGE_WIDTH and
    // _HEIGHT) with an exception of their own, whatever the pixel count: say so first, in our words.
    constexpr int64_t longest_side = int64_t(1) << 20;
    if (header.width > longest_side || header.height > longest_side) {
        fail(SHIM_STATUS_DECODE_FAILED, "%s of %lldx%lld pixels: a side over %lld pixels, more than OpenCV's decoders take",
             format_name(header.format), (long long)header.width, (long long)header.height, (long long)longest_side);
    }
    if (header.width > max_pixels / header.height) {
        Failure failure{SHIM_STATUS_TOO_MANY_PIXELS, ""};
        failure.width = header.width;
        failure.height = header.height;
        char message[256];
        std::snprintf(message, sizeof message, "image of %lldx%lld pixels exceeds the limit of %lld pixels",
                      (long long)header.width, (long long)header.height, (long long)max_pixels);
        failure.message = message;
        throw failure;
    }
}

void check_channels(msd_image_channels channels) {
    if (channels != MSD_IMAGE_CHANNELS_BGR && channels != MSD_IMAGE_CHANNELS_GRAY) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown image channels %d (0 BGR, 1 gray)", int(channels));
    }
}

msd_image *decode(const uint8_t *data, size_t count, int64_t max_pixels, msd_image_channels channels) {
    check_channels(channels);
    if (max_pixels < 1) fail(SHIM_STATUS_INVALID_ARGUMENT, "pixel limit %lld is not positive", (long long)max_pixels);
    JpegLayout jpeg;
    const msd_image_header header = read_header(data, count, &jpeg);
    check_pixel_limit(header, max_pixels);
    const bool gray = channels == MSD_IMAGE_CHANNELS_GRAY;
    const shim_pixel_format format = gray ? SHIM_PIXEL_FORMAT_GRAY8 : SHIM_PIXEL_FORMAT_BGR24;
    if (header.format == MSD_FILE_FORMAT_JPEG) {
        // libjpeg fills a cut-off scan with gray and only warns, so look for the end-of-image marker
        // ourselves. Inside entropy-coded data 0xFF is always followed by 0x00 or a restart marker,
        // so every other marker on the way is a segment between scans: each start of scan is
        // counted, and libjpeg never sees more scans than counted here, as it stops at the same
        // end-of-image marker.
        bool ended = false;
        size_t scans = 1;
        for (size_t offset = jpeg.scan_data; offset + 1 < count && !ended; ++offset) {
            const void *next = std::memchr(data + offset, 0xFF, count - offset - 1);
            if (next == nullptr) break;
            offset = size_t(static_cast<const uint8_t *>(next) - data);
            ended = data[offset + 1] == 0xD9;
            if (data[offset + 1] == 0xDA && ++scans > MSD_JPEG_MAX_SCANS) {
                fail(SHIM_STATUS_DECODE_FAILED, "JPEG of more than %d scans (a progressive JPEG has about ten): refused, "
                     "as decoding each scan is a pass over the whole image", MSD_JPEG_MAX_SCANS);
            }
        }
        if (!ended) fail(SHIM_STATUS_TRUNCATED, "truncated JPEG: no end-of-image marker after the image data");
        // Exif data only turns the picture (as imdecode would), and libjpeg-turbo fills in the
        // standard Huffman tables motion JPEG frames leave out (as imdecode inserts them).
        cv::Mat pixels(int(header.height), int(header.width), gray ? CV_8UC1 : CV_8UC3);
        decode_jpeg(data, count, channels, pixels);
        if (jpeg.exif) apply_orientation(jpeg.orientation, pixels);
        return new msd_image{pixels, format};
    }
    if (header.format == MSD_FILE_FORMAT_PNG) {
        cv::Mat pixels(int(header.height), int(header.width), gray ? CV_8UC1 : CV_8UC3);
        decode_png(data, count, pixels);
        return new msd_image{pixels, format};
    }
    const cv::Mat encoded(1, int(std::min(count, size_t(INT32_MAX))), CV_8UC1, const_cast<uint8_t *>(data));
    // cv::IMREAD_GRAYSCALE and cv::IMREAD_COLOR.
    cv::Mat pixels = opencv_imdecode()(encoded, gray ? 0 : 1);
    if (pixels.empty()) fail(SHIM_STATUS_DECODE_FAILED, "OpenCV could not decode this %s image", format_name(header.format));
    return new msd_image{pixels, format};
}

// Reads an image file: its first piece, enough for almost every header, is checked against the
// pixel limit before the rest is read.
msd_image *read_image(const char *path, int64_t max_pixels, msd_image_channels channels) {
    check_channels(channels);
    if (max_pixels < 1) fail(SHIM_STATUS_INVALID_ARGUMENT, "pixel limit %lld is not positive", (long long)max_pixels);
    RegularFile file(path, MSD_IMAGE_FILE_MAX_BYTES);
    std::vector<uint8_t> bytes;
    file.read_into(bytes, 64 * 1024);
    if (bytes.size() < file.size()) {
        try {
            JpegLayout jpeg;
            check_pixel_limit(read_header(bytes.data(), bytes.size(), &jpeg), max_pixels);
        } catch (const Failure &failure) {
            // A header longer than the first piece (large Exif data, a TIFF directory at the end):
            // decode checks it once the file is whole.
            if (failure.status != SHIM_STATUS_TRUNCATED) throw;
        }
        file.read_into(bytes, file.size());
    }
    return decode(bytes.data(), bytes.size(), max_pixels, channels);
}

}  // namespace
}  // namespace msd

extern "C" {

shim_status msd_image_header_read(const uint8_t *bytes, size_t count, msd_image_header *header, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(header, "header");
        if (count > 0) msd::require(bytes, "bytes");
        msd::JpegLayout jpeg;
        *header = msd::read_header(bytes, count, &jpeg);
    });
}

shim_status msd_image_decode_as(const uint8_t *bytes, size_t count, int64_t max_pixels, msd_image_channels channels,
                               msd_image **image, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(image, "image");
        *image = nullptr;
        if (count > 0) msd::require(bytes, "bytes");
        *image = msd::decode(bytes, count, max_pixels, channels);
    });
}

shim_status msd_image_decode(const uint8_t *bytes, size_t count, int64_t max_pixels, msd_image **image,
                            shim_error *error) {
    return msd_image_decode_as(bytes, count, max_pixels, MSD_IMAGE_CHANNELS_BGR, image, error);
}

shim_status msd_image_read_as(const char *path, int64_t max_pixels, msd_image_channels channels, msd_image **image,
                             shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(path, "path");
        msd::require(image, "image");
        *image = nullptr;
        *image = msd::read_image(path, max_pixels, channels);
    });
}

shim_status msd_image_read(const char *path, int64_t max_pixels, msd_image **image, shim_error *error) {
    return msd_image_read_as(path, max_pixels, MSD_IMAGE_CHANNELS_BGR, image, error);
}

shim_status msd_bytes_get(const msd_bytes *bytes, const uint8_t **data, size_t *count, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(bytes, "bytes");
        msd::require(data, "data");
        msd::require(count, "count");
        *data = bytes->data.data();
        *count = bytes->data.size();
    });
}

void msd_bytes_free(msd_bytes *bytes) { delete bytes; }

shim_status msd_image_encode(const shim_pixels *pixels, msd_file_format format, int32_t jpeg_quality,
                            msd_bytes **bytes, shim_error *error) {
    return msd::guarded(error, [&] {
        msd::require(bytes, "bytes");
        *bytes = nullptr;
        const cv::Mat wrapped = msd::wrap(pixels);
        const bool direct = pixels->format == SHIM_PIXEL_FORMAT_GRAY8 || pixels->format == SHIM_PIXEL_FORMAT_BGR24;
        const cv::Mat image = direct ? wrapped : msd::bgr_copy(wrapped, pixels->format);
        auto result = std::make_unique<msd_bytes>();
        switch (format) {
        case MSD_FILE_FORMAT_PNG: msd::encode_png(image, result->data); break;
        case MSD_FILE_FORMAT_JPEG:
            if (jpeg_quality < 0 || jpeg_quality > 100) {
                msd::fail(SHIM_STATUS_INVALID_ARGUMENT, "JPEG quality %d is outside 0...100", jpeg_quality);
            }
            msd::encode_jpeg(image, jpeg_quality, result->data);
            break;
        default: msd::fail(SHIM_STATUS_INVALID_ARGUMENT, "only PNG and JPEG can be written, not format %d", int(format));
        }
        *bytes = result.release();
    });
}

}  // extern "C"
