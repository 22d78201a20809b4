// The pictures the emulated camera shows: a generated pattern, or the JPEG files of a folder.
//
// Pattern, for frame `sequence` with phase k = sequence % 16, pixel column x, row y, pair p = x / 2:
//   YUYV:  Y = (x + 2y + 16k) mod 256,  U = (4p + y + 8k) mod 256,  V = (255 - 2p - 3y + 8k) mod 256
//   MJPEG: the RGB image R = x * 255 / (width - 1), G = y * 255 / (height - 1), B = 16k + 8,
//          encoded with libjpeg at the configured quality.
// Folder: the JPEG files (`*.jpg`, `*.jpeg`, any case) sorted by name, one per frame, repeating.
// MJPEG at the file's own size passes the file's bytes through unchanged; any other size is scaled
// (nearest pixel) and encoded again. YUYV is made from the decoded RGB with the inverse of
// libv4lconvert's YUYV-to-RGB formula, so that a round trip through libv4lconvert is faithful.
//
// Frames are made on first use and kept, so that pacing does not depend on encoding speed.

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jpeglib.h>

#include "camera.h"

// MARK: - libjpeg with errors that return instead of exiting

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
} ec_jpeg_error;

static void jpeg_error_exit(j_common_ptr info) {
    longjmp(((ec_jpeg_error *)info->err)->escape, 1);
}

static void jpeg_quiet(j_common_ptr info, int level) {
    (void)info;
    (void)level;
}

/// An error manager that longjmps to `error->escape` (which the caller sets) and prints nothing.
static struct jpeg_error_mgr *quiet_errors(ec_jpeg_error *error) {
    struct jpeg_error_mgr *manager = jpeg_std_error(&error->manager);
    manager->error_exit = jpeg_error_exit;
    manager->emit_message = jpeg_quiet;
    return manager;
}

/// Decodes JPEG bytes to packed RGB; returns a malloc-ed image or NULL.
static uint8_t *decode_jpeg(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height) {
    struct jpeg_decompress_struct info;
    ec_jpeg_error error;
    uint8_t *volatile pixels = NULL;
    info.err = quiet_errors(&error);
    if (setjmp(error.escape)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, bytes, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    size_t row = (size_t)info.output_width * 3;
    pixels = malloc(row * info.output_height);
    if (!pixels) longjmp(error.escape, 1);
    while (info.output_scanline < info.output_height) {
        JSAMPROW line = pixels + row * info.output_scanline;
        jpeg_read_scanlines(&info, &line, 1);
    }
    *width = info.output_width;
    *height = info.output_height;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return pixels;
}

/// Encodes packed RGB as a baseline JPEG; returns 0 and a malloc-ed buffer, or -1.
static int encode_jpeg(const uint8_t *rgb, uint32_t width, uint32_t height, int quality, ec_frame *out) {
    struct jpeg_compress_struct info;
    ec_jpeg_error error;
    unsigned char *volatile memory = NULL;
    unsigned long size = 0;
    info.err = quiet_errors(&error);
    if (setjmp(error.escape)) {
        jpeg_destroy_compress(&info);
        free(memory);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&memory, &size);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < height) {
        JSAMPROW line = (JSAMPROW)(rgb + (size_t)info.next_scanline * width * 3);
        jpeg_write_scanlines(&info, &line, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    out->data = memory;
    out->size = size;
    return 0;
}

// MARK: - Pixel conversions

static uint8_t clamp_byte(int value) {
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

/// RGB to YUYV. libv4lconvert turns YUYV into RGB with B = Y + 129/64 (U-128), R = Y + 3/2 (V-128);
/// U and V here invert exactly that, with Y = 0.299 R + 0.587 G + 0.114 B.
static void rgb_to_yuyv(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t *yuyv) {
    for (uint32_t y = 0; y < height; y++) {
        for (uint32_t x = 0; x < width; x += 2) {
            const uint8_t *a = rgb + ((size_t)y * width + x) * 3, *b = a + 3;
            int ya = (19595 * a[0] + 38470 * a[1] + 7471 * a[2] + 32768) >> 16;
            int yb = (19595 * b[0] + 38470 * b[1] + 7471 * b[2] + 32768) >> 16;
            int r = (a[0] + b[0] + 1) / 2, bl = (a[2] + b[2] + 1) / 2, luma = (ya + yb + 1) / 2;
            int u = 128 + (int)(((bl - luma) * 64 * 2 + (bl >= luma ? 129 : -129)) / (129 * 2));
            int v = 128 + (int)(((r - luma) * 2 * 2 + (r >= luma ? 3 : -3)) / (3 * 2));
            uint8_t *out = yuyv + ((size_t)y * width + x) * 2;
            out[0] = (uint8_t)ya;
            out[1] = clamp_byte(u);
            out[2] = (uint8_t)yb;
            out[3] = clamp_byte(v);
        }
    }
}

/// Nearest-pixel scaling of packed RGB.
static uint8_t *scale_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, uint32_t to_width, uint32_t to_height) {
    uint8_t *scaled = malloc((size_t)to_width * to_height * 3);
    if (!scaled) return NULL;
    for (uint32_t y = 0; y < to_height; y++) {
        uint32_t sy = (uint32_t)(((uint64_t)y * height) / to_height);
        for (uint32_t x = 0; x < to_width; x++) {
            uint32_t sx = (uint32_t)(((uint64_t)x * width) / to_width);
            memcpy(scaled + ((size_t)y * to_width + x) * 3, rgb + ((size_t)sy * width + sx) * 3, 3);
        }
    }
    return scaled;
}

// MARK: - Making frames

static int make_pattern(const ec_frames *frames, int phase, ec_frame *out) {
    uint32_t width = frames->width, height = frames->height;
    if (frames->fourcc == V4L2_PIX_FMT_YUYV) {
        out->size = (size_t)width * height * 2;
        out->data = malloc(out->size);
        if (!out->data) return -1;
        for (uint32_t y = 0; y < height; y++) {
            uint8_t *row = out->data + (size_t)y * width * 2;
            for (uint32_t p = 0; p < width / 2; p++) {
                int x = (int)p * 2;
                row[4 * p + 0] = (uint8_t)((x + 2 * (int)y + 16 * phase) & 0xFF);
                row[4 * p + 1] = (uint8_t)((4 * (int)p + (int)y + 8 * phase) & 0xFF);
                row[4 * p + 2] = (uint8_t)((x + 1 + 2 * (int)y + 16 * phase) & 0xFF);
                row[4 * p + 3] = (uint8_t)((255 - 2 * (int)p - 3 * (int)y + 8 * phase) & 0xFF);
            }
        }
        return 0;
    }
    uint8_t *rgb = malloc((size_t)width * height * 3);
    if (!rgb) return -1;
    for (uint32_t y = 0; y < height; y++) {
        for (uint32_t x = 0; x < width; x++) {
            uint8_t *pixel = rgb + ((size_t)y * width + x) * 3;
            pixel[0] = (uint8_t)(x * 255 / (width - 1));
            pixel[1] = (uint8_t)(y * 255 / (height - 1));
            pixel[2] = (uint8_t)(16 * phase + 8);
        }
    }
    int result = encode_jpeg(rgb, width, height, frames->quality, out);
    free(rgb);
    return result;
}

static uint8_t *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rbe");
    if (!file) return NULL;
    uint8_t *bytes = NULL;
    struct stat info;
    if (fstat(fileno(file), &info) == 0 && info.st_size > 0) {
        bytes = malloc((size_t)info.st_size);
        if (bytes && fread(bytes, 1, (size_t)info.st_size, file) != (size_t)info.st_size) {
            free(bytes);
            bytes = NULL;
        }
        *size = (size_t)info.st_size;
    }
    fclose(file);
    return bytes;
}

static int make_from_file(const ec_frames *frames, const char *path, ec_frame *out) {
    size_t size = 0;
    uint8_t *jpeg = read_file(path, &size);
    if (!jpeg) return -1;
    uint32_t width = 0, height = 0;
    uint8_t *rgb = decode_jpeg(jpeg, size, &width, &height);
    if (!rgb) {
        free(jpeg);
        return -1;
    }
    int result = 0;
    if (frames->fourcc == V4L2_PIX_FMT_MJPEG && width == frames->width && height == frames->height) {
        out->data = jpeg;
        out->size = size;
        jpeg = NULL;
    } else {
        uint8_t *scaled = rgb;
        if (width != frames->width || height != frames->height)
            scaled = scale_rgb(rgb, width, height, frames->width, frames->height);
        if (!scaled) {
            result = -1;
        } else if (frames->fourcc == V4L2_PIX_FMT_MJPEG) {
            result = encode_jpeg(scaled, frames->width, frames->height, frames->quality, out);
        } else {
            out->size = (size_t)frames->width * frames->height * 2;
            out->data = malloc(out->size);
            if (out->data) rgb_to_yuyv(scaled, frames->width, frames->height, out->data);
            else result = -1;
        }
        if (scaled != rgb) free(scaled);
    }
    free(rgb);
    free(jpeg);
    return result;
}

// MARK: - The cache

static int is_jpeg_name(const char *name) {
    const char *dot = strrchr(name, '.');
    return dot && (strcasecmp(dot, ".jpg") == 0 || strcasecmp(dot, ".jpeg") == 0);
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int ec_frames_open(ec_frames *frames, const char *dir, int quality, int hold_last, char *error, size_t error_size) {
    memset(frames, 0, sizeof *frames);
    frames->quality = quality;
    frames->hold_last = hold_last;
    if (dir[0] == '\0') return 0;
    DIR *folder = opendir(dir);
    if (!folder) {
        snprintf(error, error_size, "frames folder %s: %s", dir, strerror(errno));
        return -1;
    }
    frames->files = calloc(EC_MAX_IMAGES, sizeof(char *));
    for (struct dirent *entry; frames->files && (entry = readdir(folder));) {
        if (!is_jpeg_name(entry->d_name) || frames->file_count == EC_MAX_IMAGES) continue;
        size_t length = strlen(dir) + strlen(entry->d_name) + 2;
        char *path = malloc(length);
        if (!path) break;
        snprintf(path, length, "%s/%s", dir, entry->d_name);
        frames->files[frames->file_count++] = path;
    }
    closedir(folder);
    if (frames->file_count == 0) {
        snprintf(error, error_size, "frames folder %s holds no .jpg or .jpeg file", dir);
        ec_frames_close(frames);
        return -1;
    }
    qsort(frames->files, (size_t)frames->file_count, sizeof(char *), compare_names);
    return 0;
}

static void forget_frames(ec_frames *frames) {
    if (!frames->frames) return;
    for (int i = 0; i < frames->count; i++) free(frames->frames[i].data);
    free(frames->frames);
    frames->frames = NULL;
}

void ec_frames_set_format(ec_frames *frames, uint32_t fourcc, uint32_t width, uint32_t height) {
    if (frames->frames && frames->fourcc == fourcc && frames->width == width && frames->height == height) return;
    forget_frames(frames);
    frames->fourcc = fourcc;
    frames->width = width;
    frames->height = height;
    frames->count = frames->files ? frames->file_count : EC_PATTERN_PHASES;
    frames->frames = calloc((size_t)frames->count, sizeof(ec_frame));
}

const ec_frame *ec_frames_get(ec_frames *frames, uint32_t sequence) {
    if (!frames->frames) return NULL;
    uint32_t count = (uint32_t)frames->count;
    int index = (int)(frames->hold_last && sequence >= count ? count - 1 : sequence % count);
    ec_frame *frame = &frames->frames[index];
    if (!frame->data) {
        int result = frames->files ? make_from_file(frames, frames->files[index], frame)
                                   : make_pattern(frames, index, frame);
        if (result) {
            frame->data = NULL;
            return NULL;
        }
    }
    return frame;
}

void ec_frames_close(ec_frames *frames) {
    forget_frames(frames);
    for (int i = 0; i < frames->file_count; i++) free(frames->files[i]);
    free(frames->files);
    frames->files = NULL;
    frames->file_count = 0;
}
