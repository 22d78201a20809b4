// CV4L2Shim: a small C layer over libv4l2 for FrameCapture.
//
// Every device call goes through a table of function pointers (`msv_io_ops`). The default table
// (`msv_io_ops_libv4l2`) calls v4l2_open, v4l2_close, v4l2_ioctl, v4l2_mmap, v4l2_munmap and poll,
// so libv4l2 and libv4lconvert do their format emulation; tests pass their own table to inject
// faults that no device produces on demand.
//
// Every function returns 0 or a positive errno value and writes its results through out-parameters.
// ioctl and poll are retried on EINTR (poll keeps its deadline); EAGAIN is returned as it is.
// Handles are typed (`msv_device *`); the header is plain C and includes no kernel header.

#ifndef CV4L2SHIM_H
#define CV4L2SHIM_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - The I/O table

/// The calls a device makes. Each has the contract of the libc call of the same name (-1 and errno on
/// failure), with `context` first.
typedef struct msv_io_ops {
    void *context;
    int (*open)(void *context, const char *path, int flags);
    int (*close)(void *context, int fd);
    int (*ioctl)(void *context, int fd, unsigned long request, void *argument);
    void *(*mmap)(void *context, size_t length, int protection, int flags, int fd, int64_t offset);
    int (*munmap)(void *context, void *address, size_t length);
    int (*poll)(void *context, struct pollfd *fds, nfds_t count, int timeout_ms);
    int (*pipe2)(void *context, int fds[2], int flags);
} msv_io_ops;

/// The table that calls libv4l2 (and poll and pipe2 from libc).
const msv_io_ops *msv_io_ops_libv4l2(void);

/// Opens the pipe a capture thread is woken through, close-on-exec and non-blocking, with the
/// table's `pipe2` (libc's when `ops` is NULL or has none). Returns 0, or errno.
int msv_wake_pipe_open(const msv_io_ops *ops, int fds[2]);

// MARK: - The library

/// Where the libv4l2 this process runs with was loaded from: the shared object that holds v4l2_open
/// (dladdr), symbolic links resolved (realpath). libv4l2 has no version call and its headers no
/// version macro. Writes a NUL-terminated path into `path` (`capacity` bytes). Returns 0, ENOENT
/// when no shared object holds v4l2_open, or ERANGE when the path does not fit.
int msv_library_path(char *path, size_t capacity);

// MARK: - Constants from <linux/videodev2.h> that Swift cannot import as macros

extern const uint32_t MSV_CAP_VIDEO_CAPTURE, MSV_CAP_STREAMING, MSV_CAP_DEVICE_CAPS;
extern const uint32_t MSV_PIX_FMT_BGR24, MSV_PIX_FMT_RGB24, MSV_PIX_FMT_YUV420, MSV_PIX_FMT_YUYV, MSV_PIX_FMT_MJPEG;
extern const uint32_t MSV_FMT_FLAG_COMPRESSED, MSV_FMT_FLAG_EMULATED;
extern const uint32_t MSV_FRMSIZE_TYPE_DISCRETE, MSV_FRMSIZE_TYPE_CONTINUOUS, MSV_FRMSIZE_TYPE_STEPWISE;
extern const uint32_t MSV_FRMIVAL_TYPE_DISCRETE, MSV_FRMIVAL_TYPE_CONTINUOUS, MSV_FRMIVAL_TYPE_STEPWISE;
extern const uint32_t MSV_BUF_FLAG_ERROR, MSV_BUF_FLAG_TIMESTAMP_MASK, MSV_BUF_FLAG_TIMESTAMP_MONOTONIC;
extern const uint32_t MSV_CTRL_FLAG_NEXT_CTRL, MSV_CTRL_FLAG_DISABLED, MSV_CTRL_FLAG_GRABBED,
    MSV_CTRL_FLAG_READ_ONLY, MSV_CTRL_FLAG_INACTIVE, MSV_CTRL_FLAG_WRITE_ONLY;
extern const uint32_t MSV_CTRL_TYPE_INTEGER, MSV_CTRL_TYPE_BOOLEAN, MSV_CTRL_TYPE_MENU, MSV_CTRL_TYPE_BUTTON,
    MSV_CTRL_TYPE_INTEGER64, MSV_CTRL_TYPE_CTRL_CLASS, MSV_CTRL_TYPE_INTEGER_MENU;
extern const uint32_t MSV_CID_BRIGHTNESS, MSV_CID_CONTRAST, MSV_CID_SATURATION, MSV_CID_GAIN,
    MSV_CID_POWER_LINE_FREQUENCY, MSV_CID_SHARPNESS, MSV_CID_EXPOSURE_AUTO, MSV_CID_EXPOSURE_ABSOLUTE,
    MSV_CID_FOCUS_ABSOLUTE, MSV_CID_FOCUS_AUTO, MSV_CID_AUTO_WHITE_BALANCE, MSV_CID_WHITE_BALANCE_TEMPERATURE,
    MSV_CID_AUTOGAIN;
extern const int32_t MSV_EXPOSURE_MANUAL, MSV_EXPOSURE_APERTURE_PRIORITY;

// MARK: - Plain structures filled from the kernel's

/// Mirrors `struct v4l2_fract` (checked with _Static_assert in the implementation).
typedef struct msv_fract {
    uint32_t numerator;
    uint32_t denominator;
} msv_fract;

typedef struct msv_capability {
    char driver[16];
    char card[32];
    char bus_info[32];
    uint32_t version;
    uint32_t capabilities;   // of the device node (device_caps when the driver reports them)
} msv_capability;

typedef struct msv_format_description {
    uint32_t pixel_format;
    uint32_t flags;
    char description[32];
} msv_format_description;

typedef struct msv_frame_size {
    uint32_t type;           // MSV_FRMSIZE_TYPE_*
    uint32_t min_width, max_width, step_width;
    uint32_t min_height, max_height, step_height;   // min == max for a discrete size
} msv_frame_size;

typedef struct msv_frame_interval {
    uint32_t type;           // MSV_FRMIVAL_TYPE_*
    msv_fract minimum, maximum, step;               // minimum == maximum for a discrete interval
} msv_frame_interval;

typedef struct msv_pix_format {
    uint32_t width, height;
    uint32_t pixel_format;
    uint32_t bytes_per_line;
    uint32_t size_image;
} msv_pix_format;

typedef struct msv_control_info {
    uint32_t id;
    uint32_t type;           // MSV_CTRL_TYPE_*
    char name[32];
    int64_t minimum, maximum, step, default_value;
    uint32_t flags;          // MSV_CTRL_FLAG_*
} msv_control_info;

typedef struct msv_buffer_info {
    uint32_t index;
    uint32_t sequence;
    uint32_t flags;
    uint32_t bytes_used;
    int64_t timestamp_ns;    // the buffer's timestamp, in nanoseconds of its clock
} msv_buffer_info;

/// What a device handle has done so far.
typedef struct msv_device_counters {
    uint64_t eintr_retries;
    uint32_t buffers_mapped;
    uint32_t buffers_unmapped;
} msv_device_counters;

// MARK: - A device

typedef struct msv_device msv_device;

/// Opens `path` read-write, non-blocking, close-on-exec. `ops` NULL means libv4l2.
int msv_device_open(const char *path, const msv_io_ops *ops, msv_device **device);
/// Closes the descriptor and frees the handle (also when close fails, whose errno it returns).
int msv_device_close(msv_device *device);
int msv_device_descriptor(const msv_device *device);
void msv_device_get_counters(const msv_device *device, msv_device_counters *counters);

int msv_device_query_capability(msv_device *device, msv_capability *capability);
int msv_device_enum_format(msv_device *device, uint32_t index, msv_format_description *description);
int msv_device_enum_frame_size(msv_device *device, uint32_t pixel_format, uint32_t index, msv_frame_size *size);
int msv_device_enum_frame_interval(msv_device *device, uint32_t pixel_format, uint32_t width, uint32_t height,
                                   uint32_t index, msv_frame_interval *interval);

int msv_device_get_format(msv_device *device, msv_pix_format *format);
/// VIDIOC_S_FMT: asks for `format`, then writes back what the driver granted.
int msv_device_set_format(msv_device *device, msv_pix_format *format);
/// VIDIOC_G_PARM: the frame interval, and whether the driver lets it be set.
int msv_device_get_frame_interval(msv_device *device, msv_fract *interval, int *settable);
/// VIDIOC_S_PARM: asks for `interval`, then writes back what the driver granted.
int msv_device_set_frame_interval(msv_device *device, msv_fract *interval);

/// VIDIOC_QUERYCTRL; `id` may carry MSV_CTRL_FLAG_NEXT_CTRL to enumerate.
int msv_device_query_control(msv_device *device, uint32_t id, msv_control_info *info);
int msv_device_query_menu(msv_device *device, uint32_t id, uint32_t index, char name[32], int64_t *value);
int msv_device_get_control(msv_device *device, uint32_t id, int32_t *value);
int msv_device_set_control(msv_device *device, uint32_t id, int32_t value);

/// VIDIOC_REQBUFS for memory-mapped capture buffers; `granted` is what the driver allocated.
int msv_device_request_buffers(msv_device *device, uint32_t count, uint32_t *granted);
/// VIDIOC_QUERYBUF and mmap (read-only) of buffer `index`; the handle remembers the mapping.
int msv_device_map_buffer(msv_device *device, uint32_t index, const void **address, size_t *length);
/// munmap of every mapping the handle remembers; returns the first error, after trying them all.
int msv_device_unmap_buffers(msv_device *device);
int msv_device_queue_buffer(msv_device *device, uint32_t index);
/// VIDIOC_DQBUF; EAGAIN when no buffer is ready yet.
int msv_device_dequeue_buffer(msv_device *device, msv_buffer_info *info);
int msv_device_stream_on(msv_device *device);
int msv_device_stream_off(msv_device *device);

/// Waits up to `timeout_ms` for the device to be readable or `wake_fd` (ignored when < 0) to be
/// readable, retrying on EINTR without extending the deadline. `device_events` gets the device's
/// revents (0 on timeout); `woken` is set when `wake_fd` was readable.
int msv_device_wait(msv_device *device, int timeout_ms, int wake_fd, short *device_events, int *woken);

// MARK: - Converting frames a camera sends in its own format

/// A libv4lconvert converter for one device's frames: used when the camera streams in a format
/// chosen here (`MJPG`, `YUYV`, ...) instead of the one libv4l2 would pick for the conversion.
typedef struct msv_converter msv_converter;

/// Makes a converter whose calls to the device (format and control queries) go through the
/// device's table. Returns 0, ENOMEM, or EIO when libv4lconvert refuses the device.
int msv_converter_create(msv_device *device, msv_converter **converter);

/// Frees the converter (not the device).
void msv_converter_destroy(msv_converter *converter);

/// Converts one frame of `source` (its pixel format, size and bytes per line, as the device
/// granted them) from `data` (`size` bytes used) into `destination` as `destination_format`
/// (MSV_PIX_FMT_BGR24 or MSV_PIX_FMT_YUV420, rows packed), at most `capacity` bytes. Returns 0 and
/// the bytes written in `written`, or EIO with libv4lconvert's reason in `message` (`message_capacity`
/// bytes, NUL-terminated) when the frame cannot be converted (a corrupt JPEG, a short frame).
int msv_converter_convert(msv_converter *converter, const msv_pix_format *source, const void *data, size_t size,
                          uint32_t destination_format, void *destination, size_t capacity, size_t *written,
                          char *message, size_t message_capacity);

#ifdef __cplusplus
}
#endif

#endif
