// CV4L2Shim implementation: V4L2 ioctls through an I/O table whose default is libv4l2.

#define _GNU_SOURCE  // pipe2, dladdr

#include "CV4L2Shim.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <libv4l2.h>
#include <libv4l-plugin.h>
#include <libv4lconvert.h>
#include <linux/videodev2.h>

_Static_assert(sizeof(msv_fract) == sizeof(struct v4l2_fract), "msv_fract mirrors struct v4l2_fract");
_Static_assert(offsetof(msv_fract, denominator) == offsetof(struct v4l2_fract, denominator),
               "msv_fract mirrors struct v4l2_fract");

// MARK: - Constants

const uint32_t MSV_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE, MSV_CAP_STREAMING = V4L2_CAP_STREAMING,
               MSV_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;
const uint32_t MSV_PIX_FMT_BGR24 = V4L2_PIX_FMT_BGR24, MSV_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24,
               MSV_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420, MSV_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV,
               MSV_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
const uint32_t MSV_FMT_FLAG_COMPRESSED = V4L2_FMT_FLAG_COMPRESSED, MSV_FMT_FLAG_EMULATED = V4L2_FMT_FLAG_EMULATED;
const uint32_t MSV_FRMSIZE_TYPE_DISCRETE = V4L2_FRMSIZE_TYPE_DISCRETE,
               MSV_FRMSIZE_TYPE_CONTINUOUS = V4L2_FRMSIZE_TYPE_CONTINUOUS,
               MSV_FRMSIZE_TYPE_STEPWISE = V4L2_FRMSIZE_TYPE_STEPWISE;
const uint32_t MSV_FRMIVAL_TYPE_DISCRETE = V4L2_FRMIVAL_TYPE_DISCRETE,
               MSV_FRMIVAL_TYPE_CONTINUOUS = V4L2_FRMIVAL_TYPE_CONTINUOUS,
               MSV_FRMIVAL_TYPE_STEPWISE = V4L2_FRMIVAL_TYPE_STEPWISE;
const uint32_t MSV_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR, MSV_BUF_FLAG_TIMESTAMP_MASK = V4L2_BUF_FLAG_TIMESTAMP_MASK,
               MSV_BUF_FLAG_TIMESTAMP_MONOTONIC = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
const uint32_t MSV_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL, MSV_CTRL_FLAG_DISABLED = V4L2_CTRL_FLAG_DISABLED,
               MSV_CTRL_FLAG_GRABBED = V4L2_CTRL_FLAG_GRABBED, MSV_CTRL_FLAG_READ_ONLY = V4L2_CTRL_FLAG_READ_ONLY,
               MSV_CTRL_FLAG_INACTIVE = V4L2_CTRL_FLAG_INACTIVE, MSV_CTRL_FLAG_WRITE_ONLY = V4L2_CTRL_FLAG_WRITE_ONLY;
const uint32_t MSV_CTRL_TYPE_INTEGER = V4L2_CTRL_TYPE_INTEGER, MSV_CTRL_TYPE_BOOLEAN = V4L2_CTRL_TYPE_BOOLEAN,
               MSV_CTRL_TYPE_MENU = V4L2_CTRL_TYPE_MENU, MSV_CTRL_TYPE_BUTTON = V4L2_CTRL_TYPE_BUTTON,
               MSV_CTRL_TYPE_INTEGER64 = V4L2_CTRL_TYPE_INTEGER64, MSV_CTRL_TYPE_CTRL_CLASS = V4L2_CTRL_TYPE_CTRL_CLASS,
               MSV_CTRL_TYPE_INTEGER_MENU = V4L2_CTRL_TYPE_INTEGER_MENU;
const uint32_t MSV_CID_BRIGHTNESS = V4L2_CID_BRIGHTNESS, MSV_CID_CONTRAST = V4L2_CID_CONTRAST,
               MSV_CID_SATURATION = V4L2_CID_SATURATION, MSV_CID_GAIN = V4L2_CID_GAIN,
               MSV_CID_POWER_LINE_FREQUENCY = V4L2_CID_POWER_LINE_FREQUENCY, MSV_CID_SHARPNESS = V4L2_CID_SHARPNESS,
               MSV_CID_EXPOSURE_AUTO = V4L2_CID_EXPOSURE_AUTO, MSV_CID_EXPOSURE_ABSOLUTE = V4L2_CID_EXPOSURE_ABSOLUTE,
               MSV_CID_FOCUS_ABSOLUTE = V4L2_CID_FOCUS_ABSOLUTE, MSV_CID_FOCUS_AUTO = V4L2_CID_FOCUS_AUTO,
               MSV_CID_AUTO_WHITE_BALANCE = V4L2_CID_AUTO_WHITE_BALANCE,
               MSV_CID_WHITE_BALANCE_TEMPERATURE = V4L2_CID_WHITE_BALANCE_TEMPERATURE, MSV_CID_AUTOGAIN = V4L2_CID_AUTOGAIN;
const int32_t MSV_EXPOSURE_MANUAL = V4L2_EXPOSURE_MANUAL, MSV_EXPOSURE_APERTURE_PRIORITY = V4L2_EXPOSURE_APERTURE_PRIORITY;

// MARK: - The libv4l2 table

// libv4l2 prints its errors ("libv4l2: error getting capabilities: Inappropriate ioctl for
// device") on standard error unless v4l2_log_file names another stream. Every one of them also
// comes back as errno, which the caller turns into a message of its own, so they go to /dev/null
// instead: unless LIBV4L2_LOG_FILENAME asks libv4l2 for its log, which it then opens itself.
static void quiet_libv4l2_once(void) {
    if (v4l2_log_file != NULL || getenv("LIBV4L2_LOG_FILENAME") != NULL) return;
    v4l2_log_file = fopen("/dev/null", "we");
}

// Opening also runs libv4l2's plugins, which print on standard error themselves when the file is
// no capture device (libv4l-mplane: "Failed to query video capabilities: Inappropriate ioctl for
// device"). While v4l2_open runs, standard error goes to /dev/null; the failure comes back as errno.
// The lock keeps two opens from swapping the descriptor under each other; a line another thread
// writes in that moment is lost with them.
static int libv4l2_open(void *context, const char *path, int flags) {
    (void)context;
    static pthread_once_t quieted = PTHREAD_ONCE_INIT;
    pthread_once(&quieted, quiet_libv4l2_once);
    static pthread_mutex_t standard_error = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&standard_error);
    fflush(stderr);
    int saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    int sink = open("/dev/null", O_WRONLY | O_CLOEXEC);
    bool silenced = saved >= 0 && sink >= 0 && dup2(sink, STDERR_FILENO) >= 0;
    int fd = v4l2_open(path, flags);
    int error = errno;
    fflush(stderr);
    if (silenced) dup2(saved, STDERR_FILENO);
    if (saved >= 0) close(saved);
    if (sink >= 0) close(sink);
    pthread_mutex_unlock(&standard_error);
    errno = error;
    return fd;
}

static int libv4l2_close(void *context, int fd) {
    (void)context;
    return v4l2_close(fd);
}

static int libv4l2_ioctl(void *context, int fd, unsigned long request, void *argument) {
    (void)context;
    return v4l2_ioctl(fd, request, argument);
}

static void *libv4l2_mmap(void *context, size_t length, int protection, int flags, int fd, int64_t offset) {
    (void)context;
    return v4l2_mmap(NULL, length, protection, flags, fd, offset);
}

static int libv4l2_munmap(void *context, void *address, size_t length) {
    (void)context;
    return v4l2_munmap(address, length);
}

static int libc_poll(void *context, struct pollfd *fds, nfds_t count, int timeout_ms) {
    (void)context;
    return poll(fds, count, timeout_ms);
}

static int libc_pipe2(void *context, int fds[2], int flags) {
    (void)context;
    return pipe2(fds, flags);
}

static const msv_io_ops libv4l2_ops = {
    .context = NULL,
    .open = libv4l2_open,
    .close = libv4l2_close,
    .ioctl = libv4l2_ioctl,
    .mmap = libv4l2_mmap,
    .munmap = libv4l2_munmap,
    .poll = libc_poll,
    .pipe2 = libc_pipe2,
};

const msv_io_ops *msv_io_ops_libv4l2(void) {
    return &libv4l2_ops;
}

int msv_wake_pipe_open(const msv_io_ops *ops, int fds[2]) {
    if (!ops || !ops->pipe2) ops = &libv4l2_ops;
    errno = 0;
    if (ops->pipe2(ops->context, fds, O_CLOEXEC | O_NONBLOCK) == 0) return 0;
    return errno ? errno : EIO;
}

// MARK: - The library

int msv_library_path(char *path, size_t capacity) {
    Dl_info info;
    if (!path || capacity == 0) return EINVAL;
    if (!dladdr((const void *)&v4l2_open, &info) || !info.dli_fname || !info.dli_fname[0]) return ENOENT;
    char resolved[PATH_MAX];
    const char *found = realpath(info.dli_fname, resolved) ? resolved : info.dli_fname;
    if (strlen(found) >= capacity) return ERANGE;
    strcpy(path, found);
    return 0;
}

// MARK: - The handle

enum { MSV_MAX_MAPPINGS = 32 };

struct msv_device {
    msv_io_ops ops;
    int fd;
    _Atomic uint64_t eintr_retries;
    uint32_t buffers_mapped, buffers_unmapped;
    struct {
        void *address;
        size_t length;
    } mappings[MSV_MAX_MAPPINGS];
    int mapping_count;
};

/// errno after a failed call, never 0.
static int last_error(void) {
    return errno ? errno : EIO;
}

/// The one place that retries on EINTR.
static int device_ioctl(msv_device *device, unsigned long request, void *argument) {
    for (;;) {
        errno = 0;
        if (device->ops.ioctl(device->ops.context, device->fd, request, argument) != -1) return 0;
        int error = last_error();
        if (error != EINTR) return error;
        atomic_fetch_add(&device->eintr_retries, 1);
    }
}

static int64_t monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

int msv_device_open(const char *path, const msv_io_ops *ops, msv_device **device) {
    *device = NULL;
    msv_device *handle = calloc(1, sizeof *handle);
    if (!handle) return ENOMEM;
    handle->ops = ops ? *ops : libv4l2_ops;
    do {
        errno = 0;
        handle->fd = handle->ops.open(handle->ops.context, path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    } while (handle->fd < 0 && errno == EINTR);
    if (handle->fd < 0) {
        int error = last_error();
        free(handle);
        return error;
    }
    *device = handle;
    return 0;
}

int msv_device_close(msv_device *device) {
    if (!device) return 0;
    errno = 0;
    // No retry on EINTR: the descriptor is released whatever close reports (libv4l2 retries itself).
    int error = device->ops.close(device->ops.context, device->fd) == 0 ? 0 : last_error();
    free(device);
    return error;
}

int msv_device_descriptor(const msv_device *device) {
    return device->fd;
}

void msv_device_get_counters(const msv_device *device, msv_device_counters *counters) {
    counters->eintr_retries = atomic_load(&device->eintr_retries);
    counters->buffers_mapped = device->buffers_mapped;
    counters->buffers_unmapped = device->buffers_unmapped;
}

// MARK: - Description

int msv_device_query_capability(msv_device *device, msv_capability *capability) {
    struct v4l2_capability raw;
    memset(&raw, 0, sizeof raw);
    int error = device_ioctl(device, VIDIOC_QUERYCAP, &raw);
    if (error) return error;
    memset(capability, 0, sizeof *capability);
    snprintf(capability->driver, sizeof capability->driver, "%.15s", (const char *)raw.driver);
    snprintf(capability->card, sizeof capability->card, "%.31s", (const char *)raw.card);
    snprintf(capability->bus_info, sizeof capability->bus_info, "%.31s", (const char *)raw.bus_info);
    capability->version = raw.version;
    capability->capabilities = (raw.capabilities & V4L2_CAP_DEVICE_CAPS) ? raw.device_caps : raw.capabilities;
    return 0;
}

int msv_device_enum_format(msv_device *device, uint32_t index, msv_format_description *description) {
    struct v4l2_fmtdesc raw = {.index = index, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
    int error = device_ioctl(device, VIDIOC_ENUM_FMT, &raw);
    if (error) return error;
    memset(description, 0, sizeof *description);
    description->pixel_format = raw.pixelformat;
    description->flags = raw.flags;
    snprintf(description->description, sizeof description->description, "%.31s", (const char *)raw.description);
    return 0;
}

int msv_device_enum_frame_size(msv_device *device, uint32_t pixel_format, uint32_t index, msv_frame_size *size) {
    struct v4l2_frmsizeenum raw = {.index = index, .pixel_format = pixel_format};
    int error = device_ioctl(device, VIDIOC_ENUM_FRAMESIZES, &raw);
    if (error) return error;
    memset(size, 0, sizeof *size);
    size->type = raw.type;
    if (raw.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
        size->min_width = size->max_width = raw.discrete.width;
        size->min_height = size->max_height = raw.discrete.height;
        size->step_width = size->step_height = 1;
    } else {
        size->min_width = raw.stepwise.min_width;
        size->max_width = raw.stepwise.max_width;
        size->step_width = raw.stepwise.step_width;
        size->min_height = raw.stepwise.min_height;
        size->max_height = raw.stepwise.max_height;
        size->step_height = raw.stepwise.step_height;
    }
    return 0;
}

int msv_device_enum_frame_interval(msv_device *device, uint32_t pixel_format, uint32_t width, uint32_t height,
                                   uint32_t index, msv_frame_interval *interval) {
    struct v4l2_frmivalenum raw = {.index = index, .pixel_format = pixel_format, .width = width, .height = height};
    int error = device_ioctl(device, VIDIOC_ENUM_FRAMEINTERVALS, &raw);
    if (error) return error;
    memset(interval, 0, sizeof *interval);
    interval->type = raw.type;
    if (raw.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
        memcpy(&interval->minimum, &raw.discrete, sizeof interval->minimum);
        interval->maximum = interval->minimum;
    } else {
        memcpy(&interval->minimum, &raw.stepwise.min, sizeof interval->minimum);
        memcpy(&interval->maximum, &raw.stepwise.max, sizeof interval->maximum);
        memcpy(&interval->step, &raw.stepwise.step, sizeof interval->step);
    }
    return 0;
}

// MARK: - Format and frame rate

static void copy_out_format(const struct v4l2_format *raw, msv_pix_format *format) {
    format->width = raw->fmt.pix.width;
    format->height = raw->fmt.pix.height;
    format->pixel_format = raw->fmt.pix.pixelformat;
    format->bytes_per_line = raw->fmt.pix.bytesperline;
    format->size_image = raw->fmt.pix.sizeimage;
}

int msv_device_get_format(msv_device *device, msv_pix_format *format) {
    struct v4l2_format raw = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
    int error = device_ioctl(device, VIDIOC_G_FMT, &raw);
    if (!error) copy_out_format(&raw, format);
    return error;
}

int msv_device_set_format(msv_device *device, msv_pix_format *format) {
    struct v4l2_format raw = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
    raw.fmt.pix.width = format->width;
    raw.fmt.pix.height = format->height;
    raw.fmt.pix.pixelformat = format->pixel_format;
    raw.fmt.pix.field = V4L2_FIELD_NONE;
    int error = device_ioctl(device, VIDIOC_S_FMT, &raw);
    if (!error) copy_out_format(&raw, format);
    return error;
}

int msv_device_get_frame_interval(msv_device *device, msv_fract *interval, int *settable) {
    struct v4l2_streamparm raw = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
    int error = device_ioctl(device, VIDIOC_G_PARM, &raw);
    if (error) return error;
    memcpy(interval, &raw.parm.capture.timeperframe, sizeof *interval);
    *settable = (raw.parm.capture.capability & V4L2_CAP_TIMEPERFRAME) != 0;
    return 0;
}

int msv_device_set_frame_interval(msv_device *device, msv_fract *interval) {
    struct v4l2_streamparm raw = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
    memcpy(&raw.parm.capture.timeperframe, interval, sizeof *interval);
    int error = device_ioctl(device, VIDIOC_S_PARM, &raw);
    if (!error) memcpy(interval, &raw.parm.capture.timeperframe, sizeof *interval);
    return error;
}

// MARK: - Controls

int msv_device_query_control(msv_device *device, uint32_t id, msv_control_info *info) {
    struct v4l2_queryctrl raw = {.id = id};
    int error = device_ioctl(device, VIDIOC_QUERYCTRL, &raw);
    if (error) return error;
    memset(info, 0, sizeof *info);
    info->id = raw.id;
    info->type = raw.type;
    snprintf(info->name, sizeof info->name, "%.31s", (const char *)raw.name);
    info->minimum = raw.minimum;
    info->maximum = raw.maximum;
    info->step = raw.step;
    info->default_value = raw.default_value;
    info->flags = raw.flags;
    return 0;
}

int msv_device_query_menu(msv_device *device, uint32_t id, uint32_t index, char name[32], int64_t *value) {
    struct v4l2_querymenu raw = {.id = id, .index = index};
    int error = device_ioctl(device, VIDIOC_QUERYMENU, &raw);
    if (error) return error;
    snprintf(name, 32, "%.31s", (const char *)raw.name);
    *value = raw.value;
    return 0;
}

int msv_device_get_control(msv_device *device, uint32_t id, int32_t *value) {
    struct v4l2_control raw = {.id = id};
    int error = device_ioctl(device, VIDIOC_G_CTRL, &raw);
    if (!error) *value = raw.value;
    return error;
}

int msv_device_set_control(msv_device *device, uint32_t id, int32_t value) {
    struct v4l2_control raw = {.id = id, .value = value};
    return device_ioctl(device, VIDIOC_S_CTRL, &raw);
}

// MARK: - Streaming

int msv_device_request_buffers(msv_device *device, uint32_t count, uint32_t *granted) {
    struct v4l2_requestbuffers raw = {.count = count, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    int error = device_ioctl(device, VIDIOC_REQBUFS, &raw);
    if (!error) *granted = raw.count;
    return error;
}

int msv_device_map_buffer(msv_device *device, uint32_t index, const void **address, size_t *length) {
    if (device->mapping_count == MSV_MAX_MAPPINGS) return ENOBUFS;
    struct v4l2_buffer raw = {.index = index, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    int error = device_ioctl(device, VIDIOC_QUERYBUF, &raw);
    if (error) return error;
    errno = 0;
    void *mapped = device->ops.mmap(device->ops.context, raw.length, PROT_READ, MAP_SHARED, device->fd, raw.m.offset);
    if (mapped == MAP_FAILED) return last_error();
    device->mappings[device->mapping_count].address = mapped;
    device->mappings[device->mapping_count].length = raw.length;
    device->mapping_count++;
    device->buffers_mapped++;
    *address = mapped;
    *length = raw.length;
    return 0;
}

int msv_device_unmap_buffers(msv_device *device) {
    int first_error = 0;
    for (int i = 0; i < device->mapping_count; i++) {
        errno = 0;
        if (device->ops.munmap(device->ops.context, device->mappings[i].address, device->mappings[i].length) == 0)
            device->buffers_unmapped++;
        else if (!first_error)
            first_error = last_error();
    }
    device->mapping_count = 0;
    return first_error;
}

int msv_device_queue_buffer(msv_device *device, uint32_t index) {
    struct v4l2_buffer raw = {.index = index, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    return device_ioctl(device, VIDIOC_QBUF, &raw);
}

int msv_device_dequeue_buffer(msv_device *device, msv_buffer_info *info) {
    struct v4l2_buffer raw = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    int error = device_ioctl(device, VIDIOC_DQBUF, &raw);
    if (error) return error;
    info->index = raw.index;
    info->sequence = raw.sequence;
    info->flags = raw.flags;
    info->bytes_used = raw.bytesused;
    info->timestamp_ns = (int64_t)raw.timestamp.tv_sec * 1000000000LL + (int64_t)raw.timestamp.tv_usec * 1000LL;
    return 0;
}

int msv_device_stream_on(msv_device *device) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return device_ioctl(device, VIDIOC_STREAMON, &type);
}

int msv_device_stream_off(msv_device *device) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return device_ioctl(device, VIDIOC_STREAMOFF, &type);
}

int msv_device_wait(msv_device *device, int timeout_ms, int wake_fd, short *device_events, int *woken) {
    int64_t deadline = monotonic_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
    struct pollfd fds[2] = {{.fd = device->fd, .events = POLLIN | POLLPRI}, {.fd = wake_fd, .events = POLLIN}};
    nfds_t count = wake_fd >= 0 ? 2 : 1;
    *device_events = 0;
    *woken = 0;
    for (;;) {
        int64_t remaining = deadline - monotonic_ms();
        if (remaining < 0) remaining = 0;
        fds[0].revents = fds[1].revents = 0;
        errno = 0;
        int ready = device->ops.poll(device->ops.context, fds, count, (int)remaining);
        if (ready >= 0) {
            *device_events = fds[0].revents;
            *woken = count == 2 && fds[1].revents != 0;
            return 0;
        }
        int error = last_error();
        if (error != EINTR) return error;
        atomic_fetch_add(&device->eintr_retries, 1);
        if (remaining == 0) return 0;
    }
}

// MARK: - Converting frames a camera sends in its own format

struct msv_converter {
    struct v4lconvert_data *data;
    msv_device *device;
    struct libv4l_dev_ops ops;
};

static int converter_ioctl(void *context, int fd, unsigned long request, void *argument) {
    msv_device *device = context;
    return device->ops.ioctl(device->ops.context, fd, request, argument);
}

static void converter_close(void *context) {
    (void)context;  // the device is closed by msv_device_close, not here
}

static ssize_t converter_read(void *context, int fd, void *buffer, size_t count) {
    (void)context, (void)fd, (void)buffer, (void)count;
    errno = ENOSYS;
    return -1;
}

static ssize_t converter_write(void *context, int fd, const void *buffer, size_t count) {
    (void)context, (void)fd, (void)buffer, (void)count;
    errno = ENOSYS;
    return -1;
}

int msv_converter_create(msv_device *device, msv_converter **converter) {
    *converter = NULL;
    msv_converter *handle = calloc(1, sizeof *handle);
    if (!handle) return ENOMEM;
    handle->device = device;
    handle->ops.close = converter_close;
    handle->ops.ioctl = converter_ioctl;
    handle->ops.read = converter_read;
    handle->ops.write = converter_write;
    handle->data = v4lconvert_create_with_dev_ops(device->fd, device, &handle->ops);
    if (!handle->data) {
        free(handle);
        return EIO;
    }
    *converter = handle;
    return 0;
}

void msv_converter_destroy(msv_converter *converter) {
    if (!converter) return;
    v4lconvert_destroy(converter->data);
    free(converter);
}

int msv_converter_convert(msv_converter *converter, const msv_pix_format *source, const void *data, size_t size,
                          uint32_t destination_format, void *destination, size_t capacity, size_t *written,
                          char *message, size_t message_capacity) {
    *written = 0;
    if (message_capacity) message[0] = '\0';
    if (size > INT_MAX || capacity > INT_MAX) return EINVAL;
    struct v4l2_format from = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
    from.fmt.pix.width = source->width;
    from.fmt.pix.height = source->height;
    from.fmt.pix.pixelformat = source->pixel_format;
    from.fmt.pix.bytesperline = source->bytes_per_line;
    from.fmt.pix.sizeimage = source->size_image;
    from.fmt.pix.field = V4L2_FIELD_NONE;
    struct v4l2_format to = from;
    to.fmt.pix.pixelformat = destination_format;
    to.fmt.pix.bytesperline = destination_format == V4L2_PIX_FMT_BGR24 ? source->width * 3 : source->width;
    to.fmt.pix.sizeimage = destination_format == V4L2_PIX_FMT_BGR24 ? source->width * source->height * 3
                                                                    : source->width * source->height * 3 / 2;
    int result = v4lconvert_convert(converter->data, &from, &to, (unsigned char *)data, (int)size, destination, (int)capacity);
    if (result < 0) {
        if (message_capacity) snprintf(message, message_capacity, "%s", v4lconvert_get_error_message(converter->data));
        return EIO;
    }
    *written = (size_t)result;
    return 0;
}
