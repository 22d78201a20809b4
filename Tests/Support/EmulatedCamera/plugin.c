// The libv4l2 plugin: claims regular files that have a `.conf` next to them and answers their
// V4L2 ioctls like a webcam driver would.
//
// libv4l2 has no mmap or poll hook for plugins. Buffers therefore live in the device file itself,
// at page-aligned offsets, so that the mmap libv4l2 and applications make on the descriptor sees
// what this plugin writes through its own mapping. poll on a regular file always reports ready, so
// pacing happens inside VIDIOC_DQBUF: it waits until the next frame is due (at most 50 ms for a
// non-blocking descriptor, which then gets EAGAIN), and a blocking one waits as long as it takes.
//
// The frame `sequence` keeps counting across STREAMOFF/STREAMON within one open descriptor, so a
// fault scripted for frame N means the Nth frame since the device was opened.

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "EmulatedCamera.h"
#include "camera.h"

#define NS_PER_SECOND 1000000000LL
#define NONBLOCKING_WAIT_NS (50 * 1000000LL)

// MARK: - Helpers

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * NS_PER_SECOND + now.tv_nsec;
}

/// Sleeps until the CLOCK_MONOTONIC time `deadline`; returns 0 or EINTR.
static int sleep_until(int64_t deadline) {
    struct timespec until = {.tv_sec = (time_t)(deadline / NS_PER_SECOND), .tv_nsec = (long)(deadline % NS_PER_SECOND)};
    int result;
    do {
        result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
    } while (result != 0 && result != EINTR);
    return result;
}

static int fail(int error) {
    errno = error;
    return -1;
}

static void log_event(ec_camera *camera, const char *format, ...) {
    if (camera->log_fd < 0) return;
    char line[512];
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(line, sizeof line - 1, format, arguments);
    va_end(arguments);
    if (length < 0) return;
    if (length > (int)sizeof line - 2) length = (int)sizeof line - 2;
    line[length++] = '\n';
    ssize_t ignored = write(camera->log_fd, line, (size_t)length);
    (void)ignored;
}

static const char *fourcc_name(uint32_t fourcc) {
    return fourcc == V4L2_PIX_FMT_MJPEG ? "MJPG" : "YUYV";
}

static int64_t interval_ns(const ec_camera *camera) {
    return NS_PER_SECOND / camera->rate;
}

// MARK: - Formats

static int offers_format(const ec_camera *camera, uint32_t fourcc) {
    for (int i = 0; i < camera->config.format_count; i++)
        if (camera->config.formats[i] == fourcc) return 1;
    return 0;
}

static int offers_size(const ec_camera *camera, uint32_t width, uint32_t height) {
    for (int i = 0; i < camera->config.size_count; i++)
        if (camera->config.sizes[i].width == width && camera->config.sizes[i].height == height) return 1;
    return 0;
}

/// Fills `pix` with the offered format closest to what it asks for.
static void choose_format(const ec_camera *camera, struct v4l2_pix_format *pix) {
    uint32_t fourcc = offers_format(camera, pix->pixelformat) ? pix->pixelformat : camera->config.formats[0];
    const ec_size *best = &camera->config.sizes[0];
    int64_t best_distance = INT64_MAX;
    for (int i = 0; i < camera->config.size_count; i++) {
        int64_t dx = (int64_t)camera->config.sizes[i].width - pix->width;
        int64_t dy = (int64_t)camera->config.sizes[i].height - pix->height;
        if (dx * dx + dy * dy < best_distance) {
            best_distance = dx * dx + dy * dy;
            best = &camera->config.sizes[i];
        }
    }
    memset(pix, 0, sizeof *pix);
    pix->pixelformat = fourcc;
    pix->width = best->width;
    pix->height = best->height;
    pix->field = V4L2_FIELD_NONE;
    pix->bytesperline = fourcc == V4L2_PIX_FMT_YUYV ? best->width * 2 : 0;
    pix->sizeimage = best->width * best->height * 2;
    pix->colorspace = V4L2_COLORSPACE_SRGB;
}

static uint32_t nearest_rate(const ec_camera *camera, const struct v4l2_fract *interval) {
    if (interval->numerator == 0 || interval->denominator == 0) return camera->rate;
    double wanted = (double)interval->denominator / interval->numerator;
    uint32_t best = camera->config.rates[0];
    for (int i = 1; i < camera->config.rate_count; i++) {
        double gap = camera->config.rates[i] - wanted, best_gap = best - wanted;
        if (gap * gap < best_gap * best_gap) best = camera->config.rates[i];
    }
    return best;
}

// MARK: - Buffers

static void release_buffers(ec_camera *camera) {
    if (camera->memory) munmap(camera->memory, camera->buffer_length * (size_t)camera->buffer_count);
    camera->memory = NULL;
    camera->buffer_count = 0;
    camera->buffer_length = 0;
}

static int request_buffers(ec_camera *camera, struct v4l2_requestbuffers *request) {
    if (request->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || request->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
    if (camera->streaming) return fail(EBUSY);
    uint32_t wanted = request->count;
    release_buffers(camera);
    if (wanted == 0) {
        log_event(camera, "reqbufs count=0");
        return 0;
    }
    uint32_t count = wanted > EC_MAX_BUFFERS ? EC_MAX_BUFFERS : wanted;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t length = (camera->format.sizeimage + page - 1) / page * page;
    if (ftruncate(camera->own_fd, (off_t)(length * count)) != 0) return -1;
    void *memory = mmap(NULL, length * count, PROT_READ | PROT_WRITE, MAP_SHARED, camera->own_fd, 0);
    if (memory == MAP_FAILED) return -1;
    camera->memory = memory;
    camera->buffer_count = (int)count;
    camera->buffer_length = length;
    for (uint32_t i = 0; i < count; i++) camera->buffers[i] = (ec_buffer){.state = EC_BUF_DEQUEUED};
    request->count = count;
    request->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
    log_event(camera, "reqbufs count=%u granted=%u", wanted, count);
    return 0;
}

/// Writes what an application sees of buffer `index` into `out`.
static void describe(const ec_camera *camera, uint32_t index, struct v4l2_buffer *out) {
    const ec_buffer *buffer = &camera->buffers[index];
    uint32_t type = out->type;
    memset(out, 0, sizeof *out);
    out->type = type;
    out->index = index;
    out->memory = V4L2_MEMORY_MMAP;
    out->field = V4L2_FIELD_NONE;
    out->length = (uint32_t)camera->buffer_length;
    out->m.offset = (uint32_t)(camera->buffer_length * index);
    // Never V4L2_BUF_FLAG_MAPPED: libv4l2 then refuses VIDIOC_REQBUFS with count 0 at teardown.
    out->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | V4L2_BUF_FLAG_TSTAMP_SRC_EOF | buffer->flags;
    if (buffer->state == EC_BUF_QUEUED) out->flags |= V4L2_BUF_FLAG_QUEUED;
    if (buffer->state == EC_BUF_DONE) out->flags |= V4L2_BUF_FLAG_DONE;
    out->bytesused = buffer->bytesused;
    out->sequence = buffer->sequence;
    out->timestamp = buffer->timestamp;
}

static ec_buffer *oldest(ec_camera *camera, ec_buffer_state state) {
    ec_buffer *found = NULL;
    for (int i = 0; i < camera->buffer_count; i++) {
        ec_buffer *buffer = &camera->buffers[i];
        if (buffer->state == state && (!found || buffer->order < found->order)) found = buffer;
    }
    return found;
}

static void fill(ec_camera *camera, ec_buffer *buffer, uint32_t sequence, uint32_t flags, int64_t stamp) {
    size_t index = (size_t)(buffer - camera->buffers);
    uint8_t *target = camera->memory + camera->buffer_length * index;
    const ec_frame *frame = ec_frames_get(&camera->frames, sequence);
    size_t size = 0;
    if (frame) {
        size = frame->size < camera->buffer_length ? frame->size : camera->buffer_length;
        memcpy(target, frame->data, size);
    } else {
        flags |= V4L2_BUF_FLAG_ERROR;
    }
    buffer->state = EC_BUF_DONE;
    buffer->order = ++camera->order_counter;
    buffer->sequence = sequence;
    buffer->flags = flags;
    buffer->bytesused = (uint32_t)size;
    buffer->timestamp.tv_sec = (time_t)(stamp / NS_PER_SECOND);
    buffer->timestamp.tv_usec = (suseconds_t)(stamp % NS_PER_SECOND / 1000);
}

static ec_fault *fault_at(ec_camera *camera, uint32_t sequence) {
    for (int i = 0; i < camera->config.fault_count; i++) {
        ec_fault *fault = &camera->config.faults[i];
        if (!fault->fired && fault->sequence == sequence) return fault;
    }
    return NULL;
}

/// Lets the automatic modes settle as scripted, by the time frame `sequence` is made.
static void settle(ec_camera *camera, uint32_t sequence) {
    for (int i = 0; i < camera->config.settle_count; i++) {
        ec_settle *entry = &camera->config.settles[i];
        if (entry->fired || entry->sequence > sequence) continue;
        entry->fired = 1;
        if (camera->config.controls_path[0]) ec_controls_load(camera->controls, camera->config.controls_path);
        if (!ec_controls_settle(camera->controls, entry->id, entry->value)) continue;
        log_event(camera, "settle id=0x%x value=%d sequence=%u", entry->id, entry->value, sequence);
        if (camera->config.controls_path[0]) ec_controls_save(camera->controls, camera->config.controls_path);
    }
}

/// Makes every frame that is due by `now`: into the oldest queued buffer, or lost when none is queued,
/// as a driver does. Applies the scripted faults on the way.
static void advance(ec_camera *camera, int64_t now) {
    int paced = camera->config.paced;
    while (camera->streaming && !camera->gone && !camera->pending_error && camera->next_due_ns <= now) {
        if (!paced && (oldest(camera, EC_BUF_DONE) || !oldest(camera, EC_BUF_QUEUED))) break;
        uint32_t sequence = camera->next_sequence;
        uint32_t flags = 0;
        settle(camera, sequence);
        ec_fault *fault = fault_at(camera, sequence);
        if (fault) {
            fault->fired = 1;
            switch (fault->kind) {
            case EC_FAULT_GAP:
                log_event(camera, "fault gap sequence=%u count=%u", sequence, fault->amount);
                camera->next_sequence += fault->amount;
                if (paced) camera->next_due_ns += interval_ns(camera) * fault->amount;
                continue;
            case EC_FAULT_STALL:
                log_event(camera, "fault stall sequence=%u ms=%u", sequence, fault->amount);
                camera->next_due_ns = fault->amount == 0 ? INT64_MAX
                                    : (paced ? camera->next_due_ns : now) + (int64_t)fault->amount * 1000000LL;
                continue;
            case EC_FAULT_EIO:
                log_event(camera, "fault eio sequence=%u", sequence);
                camera->pending_error = EIO;
                camera->next_sequence++;
                if (paced) camera->next_due_ns += interval_ns(camera);
                return;
            case EC_FAULT_ENODEV:
                log_event(camera, "fault enodev sequence=%u", sequence);
                camera->gone = 1;
                return;
            case EC_FAULT_ERROR:
                log_event(camera, "fault error sequence=%u", sequence);
                flags = V4L2_BUF_FLAG_ERROR;
                break;
            }
        }
        ec_buffer *buffer = oldest(camera, EC_BUF_QUEUED);
        if (buffer) fill(camera, buffer, sequence, flags, paced ? camera->next_due_ns : now);
        else log_event(camera, "lost sequence=%u", sequence);  // no buffer queued: gone, as from a driver
        camera->next_sequence++;
        if (paced) camera->next_due_ns += interval_ns(camera);
    }
}

static int dequeue(ec_camera *camera, struct v4l2_buffer *out) {
    if (out->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || out->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
    int flags = fcntl(camera->app_fd, F_GETFL);
    int nonblocking = flags >= 0 && (flags & O_NONBLOCK);
    for (int slept = 0;; slept = 1) {
        pthread_mutex_lock(&camera->lock);
        int error = camera->gone ? ENODEV : camera->streaming ? 0 : EINVAL;
        int64_t now = now_ns(), due = 0;
        if (!error) {
            advance(camera, now);
            ec_buffer *done = oldest(camera, EC_BUF_DONE);
            if (camera->gone) {
                error = ENODEV;
            } else if (done) {
                describe(camera, (uint32_t)(done - camera->buffers), out);
                done->state = EC_BUF_DEQUEUED;
                done->flags = 0;
                pthread_mutex_unlock(&camera->lock);
                return 0;
            } else if (camera->pending_error) {
                error = camera->pending_error;
                camera->pending_error = 0;
            } else if (!oldest(camera, EC_BUF_QUEUED)) {
                error = nonblocking ? EAGAIN : EINVAL;
            }
            due = camera->next_due_ns;
        }
        pthread_mutex_unlock(&camera->lock);
        if (error) return fail(error);
        if (nonblocking && slept) return fail(EAGAIN);
        if (nonblocking && due > now + NONBLOCKING_WAIT_NS) due = now + NONBLOCKING_WAIT_NS;
        if (sleep_until(due) == EINTR) return fail(EINTR);
    }
}

static int queue(ec_camera *camera, struct v4l2_buffer *buffer) {
    if (buffer->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || buffer->memory != V4L2_MEMORY_MMAP ||
        buffer->index >= (uint32_t)camera->buffer_count || camera->buffers[buffer->index].state != EC_BUF_DEQUEUED)
        return fail(EINVAL);
    camera->buffers[buffer->index].state = EC_BUF_QUEUED;
    camera->buffers[buffer->index].order = ++camera->order_counter;
    describe(camera, buffer->index, buffer);
    return 0;
}

static int stream_on(ec_camera *camera) {
    if (camera->buffer_count == 0) return fail(EINVAL);
    if (camera->streaming) return 0;
    ec_frames_set_format(&camera->frames, camera->format.pixelformat, camera->format.width, camera->format.height);
    camera->streaming = 1;
    camera->pending_error = 0;
    camera->next_due_ns = camera->config.paced ? now_ns() + interval_ns(camera) : 0;
    log_event(camera, "streamon format=%s size=%ux%u fps=%u", fourcc_name(camera->format.pixelformat),
              camera->format.width, camera->format.height, camera->rate);
    return 0;
}

static void stream_off(ec_camera *camera) {
    for (int i = 0; i < camera->buffer_count; i++) camera->buffers[i].state = EC_BUF_DEQUEUED;
    camera->streaming = 0;
    camera->pending_error = 0;
    log_event(camera, "streamoff");
}

// MARK: - Other ioctls

static int query_capabilities(ec_camera *camera, struct v4l2_capability *capability) {
    memset(capability, 0, sizeof *capability);
    snprintf((char *)capability->driver, sizeof capability->driver, "emulated-camera");
    snprintf((char *)capability->card, sizeof capability->card, "%s", camera->config.name);
    snprintf((char *)capability->bus_info, sizeof capability->bus_info, "%s", camera->config.bus);
    capability->version = (1 << 16);
    capability->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
    capability->capabilities = capability->device_caps | V4L2_CAP_DEVICE_CAPS;
    return 0;
}

static int enumerate_format(ec_camera *camera, struct v4l2_fmtdesc *description) {
    if (description->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || description->index >= (uint32_t)camera->config.format_count)
        return fail(EINVAL);
    uint32_t index = description->index, fourcc = camera->config.formats[index];
    memset(description, 0, sizeof *description);
    description->index = index;
    description->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    description->pixelformat = fourcc;
    description->flags = fourcc == V4L2_PIX_FMT_MJPEG ? V4L2_FMT_FLAG_COMPRESSED : 0;
    snprintf((char *)description->description, sizeof description->description, "%s",
             fourcc == V4L2_PIX_FMT_MJPEG ? "Motion-JPEG" : "YUYV 4:2:2");
    return 0;
}

static int enumerate_size(ec_camera *camera, struct v4l2_frmsizeenum *size) {
    if (!offers_format(camera, size->pixel_format) || size->index >= (uint32_t)camera->config.size_count)
        return fail(EINVAL);
    size->type = V4L2_FRMSIZE_TYPE_DISCRETE;
    size->discrete.width = camera->config.sizes[size->index].width;
    size->discrete.height = camera->config.sizes[size->index].height;
    return 0;
}

static int enumerate_interval(ec_camera *camera, struct v4l2_frmivalenum *interval) {
    if (!offers_format(camera, interval->pixel_format) || !offers_size(camera, interval->width, interval->height) ||
        interval->index >= (uint32_t)camera->config.rate_count)
        return fail(EINVAL);
    interval->type = V4L2_FRMIVAL_TYPE_DISCRETE;
    interval->discrete.numerator = 1;
    interval->discrete.denominator = camera->config.rates[interval->index];
    return 0;
}

static int stream_parameters(ec_camera *camera, unsigned long request, struct v4l2_streamparm *parameters) {
    if (parameters->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
    if (request == VIDIOC_S_PARM) {
        if (camera->streaming) return fail(EBUSY);
        camera->rate = nearest_rate(camera, &parameters->parm.capture.timeperframe);
        log_event(camera, "s_parm fps=%u", camera->rate);
    }
    memset(&parameters->parm, 0, sizeof parameters->parm);
    parameters->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
    parameters->parm.capture.timeperframe.numerator = 1;
    parameters->parm.capture.timeperframe.denominator = camera->rate;
    return 0;
}

static int format_ioctl(ec_camera *camera, unsigned long request, struct v4l2_format *format) {
    if (format->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
    if (request == VIDIOC_G_FMT) {
        format->fmt.pix = camera->format;
        return 0;
    }
    choose_format(camera, &format->fmt.pix);
    if (request == VIDIOC_S_FMT) {
        if (camera->buffer_count > 0) return fail(EBUSY);
        camera->format = format->fmt.pix;
        log_event(camera, "s_fmt format=%s size=%ux%u", fourcc_name(camera->format.pixelformat), camera->format.width,
                  camera->format.height);
    }
    return 0;
}

static int input_ioctl(unsigned long request, void *arg) {
    if (request == VIDIOC_ENUMINPUT) {
        struct v4l2_input *input = arg;
        if (input->index != 0) return fail(EINVAL);
        memset(input, 0, sizeof *input);
        snprintf((char *)input->name, sizeof input->name, "Camera 1");
        input->type = V4L2_INPUT_TYPE_CAMERA;
        return 0;
    }
    int *index = arg;
    if (request == VIDIOC_G_INPUT) *index = 0;
    return request == VIDIOC_S_INPUT && *index != 0 ? fail(EINVAL) : 0;
}

static int camera_ioctl(ec_camera *camera, unsigned long request, void *arg) {
    if (camera->gone) {
        if (request == VIDIOC_STREAMOFF) log_event(camera, "streamoff error=ENODEV");
        if (request == VIDIOC_REQBUFS)
            log_event(camera, "reqbufs count=%u error=ENODEV", ((struct v4l2_requestbuffers *)arg)->count);
        return fail(ENODEV);
    }
    switch (request) {
    case VIDIOC_QUERYCAP: return query_capabilities(camera, arg);
    case VIDIOC_ENUM_FMT: return enumerate_format(camera, arg);
    case VIDIOC_ENUM_FRAMESIZES: return enumerate_size(camera, arg);
    case VIDIOC_ENUM_FRAMEINTERVALS: return enumerate_interval(camera, arg);
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT: return format_ioctl(camera, request, arg);
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: return stream_parameters(camera, request, arg);
    case VIDIOC_ENUMINPUT:
    case VIDIOC_G_INPUT:
    case VIDIOC_S_INPUT: return input_ioctl(request, arg);
    case VIDIOC_REQBUFS: return request_buffers(camera, arg);
    case VIDIOC_QUERYBUF: {
        struct v4l2_buffer *buffer = arg;
        if (buffer->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || buffer->index >= (uint32_t)camera->buffer_count)
            return fail(EINVAL);
        describe(camera, buffer->index, buffer);
        return 0;
    }
    case VIDIOC_QBUF: return queue(camera, arg);
    case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF:
        if (*(int *)arg != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
        if (request == VIDIOC_STREAMON) return stream_on(camera);
        stream_off(camera);
        return 0;
    default: {
        // Shared values: read what another program may have set, keep what this one sets.
        const char *shared = camera->config.controls_path[0] ? camera->config.controls_path : NULL;
        if (shared) ec_controls_load(camera->controls, shared);
        int result = ec_controls_ioctl(camera->controls, request, arg);
        if (result == 0 && (request == VIDIOC_S_CTRL || request == VIDIOC_S_EXT_CTRLS)) {
            log_event(camera, "set_control");
            if (shared) ec_controls_save(camera->controls, shared);
        }
        return result == -2 ? fail(ENOTTY) : result;
    }
    }
}

// MARK: - Plugin entry points

static void *plugin_init(int fd) {
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return NULL;
    char link[64], path[PATH_MAX], config_path[PATH_MAX + 8];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return NULL;
    path[length] = '\0';
    snprintf(config_path, sizeof config_path, "%s.conf", path);
    if (access(config_path, R_OK) != 0) return NULL;

    ec_camera *camera = calloc(1, sizeof *camera);
    if (!camera) return NULL;
    char error[PATH_MAX + 128] = "";
    if (ec_config_load(config_path, &camera->config, error, sizeof error) ||
        ec_frames_open(&camera->frames, camera->config.frames_dir, camera->config.quality, camera->config.hold_last_frame,
                       error, sizeof error)) {
        fprintf(stderr, "emulated-camera: %s\n", error);
        free(camera);
        return NULL;
    }
    camera->own_fd = open(path, O_RDWR | O_CLOEXEC);
    if (camera->own_fd < 0) {
        fprintf(stderr, "emulated-camera: %s: %s\n", path, strerror(errno));
        ec_frames_close(&camera->frames);
        free(camera);
        return NULL;
    }
    camera->log_fd = camera->config.log_path[0]
                   ? open(camera->config.log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
    pthread_mutex_init(&camera->lock, NULL);
    camera->app_fd = fd;
    snprintf(camera->path, sizeof camera->path, "%s", path);
    ec_controls_init(camera->controls);
    if (camera->config.controls_path[0]) ec_controls_load(camera->controls, camera->config.controls_path);
    camera->format.pixelformat = camera->config.formats[0];
    camera->format.width = camera->config.sizes[0].width;
    camera->format.height = camera->config.sizes[0].height;
    choose_format(camera, &camera->format);
    camera->rate = camera->config.rates[0];
    log_event(camera, "open path=%s pid=%d", path, (int)getpid());
    return camera;
}

static void plugin_close(void *private) {
    ec_camera *camera = private;
    log_event(camera, "close streaming=%d buffers=%d", camera->streaming, camera->buffer_count);
    release_buffers(camera);
    ec_frames_close(&camera->frames);
    close(camera->own_fd);
    if (camera->log_fd >= 0) close(camera->log_fd);
    pthread_mutex_destroy(&camera->lock);
    free(camera);
}

static int plugin_ioctl(void *private, int fd, unsigned long int request, void *arg) {
    (void)fd;
    ec_camera *camera = private;
    request = (unsigned int)request;
    if (request == VIDIOC_DQBUF) return dequeue(camera, arg);
    pthread_mutex_lock(&camera->lock);
    int result = camera_ioctl(camera, request, arg);
    int saved = errno;
    pthread_mutex_unlock(&camera->lock);
    errno = saved;
    return result;
}

__attribute__((visibility("default"))) const struct libv4l_dev_ops libv4l2_plugin = {
    .init = plugin_init,
    .close = plugin_close,
    .ioctl = plugin_ioctl,
};
