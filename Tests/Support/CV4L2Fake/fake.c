// CV4L2Fake implementation. See the header.

#define _GNU_SOURCE  // pipe2

#include "CV4L2Fake.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

enum { FAKE_MAX_BUFFERS = 8 };

struct msv_fake_device {
    pthread_mutex_t lock;
    msv_io_ops ops;
    msv_fake_script script;
    msv_fake_counters counters;
    int fd;
    struct v4l2_pix_format format;
    uint8_t *memory[FAKE_MAX_BUFFERS];
    size_t length;
    int queued[FAKE_MAX_BUFFERS];
    uint64_t queue_order[FAKE_MAX_BUFFERS];
    uint64_t order;
    int buffer_count;
    uint32_t next_sequence;
    int64_t stream_start_ns;
    int sticky_error;
    int32_t gain;
};

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static int fail(int error) {
    errno = error;
    return -1;
}

/// Consumes one from a script counter: N > 0 counts down, -1 is forever.
static int take(int32_t *counter) {
    if (*counter == 0) return 0;
    if (*counter > 0) (*counter)--;
    return 1;
}

static void set_format(msv_fake_device *fake, const struct v4l2_pix_format *wanted) {
    fake->format.width = wanted->width ? wanted->width & ~1u : 640;
    fake->format.height = wanted->height ? wanted->height & ~1u : 480;
    fake->format.pixelformat = wanted->pixelformat == V4L2_PIX_FMT_YUV420 ? V4L2_PIX_FMT_YUV420 : V4L2_PIX_FMT_BGR24;
    fake->format.field = V4L2_FIELD_NONE;
    if (fake->format.pixelformat == V4L2_PIX_FMT_YUV420) {
        fake->format.bytesperline = fake->format.width;
        fake->format.sizeimage = fake->format.width * fake->format.height * 3 / 2;
    } else {
        fake->format.bytesperline = fake->format.width * 3;
        fake->format.sizeimage = fake->format.bytesperline * fake->format.height;
    }
}

static void free_buffers(msv_fake_device *fake) {
    for (int i = 0; i < fake->buffer_count; i++) free(fake->memory[i]);
    memset(fake->memory, 0, sizeof fake->memory);
    fake->buffer_count = 0;
}

static int oldest_queued(const msv_fake_device *fake) {
    int found = -1;
    for (int i = 0; i < fake->buffer_count; i++)
        if (fake->queued[i] && (found < 0 || fake->queue_order[i] < fake->queue_order[found])) found = i;
    return found;
}

static int frames_exhausted(const msv_fake_device *fake) {
    return fake->script.frame_limit != 0 && fake->next_sequence >= fake->script.frame_limit;
}

static int frame_due(const msv_fake_device *fake) {
    if (frames_exhausted(fake)) return 0;
    if (!fake->script.pace) return 1;
    return now_ns() >= fake->stream_start_ns + (int64_t)(fake->next_sequence + 1) * fake->script.frame_interval_ns;
}

static int dequeue(msv_fake_device *fake, struct v4l2_buffer *buffer) {
    if (fake->sticky_error) return fail(fake->sticky_error);
    if (take(&fake->script.dequeue_eintr)) return fail(EINTR);
    if (take(&fake->script.dequeue_eagain)) return fail(EAGAIN);
    if (!fake->counters.streaming) return fail(EINVAL);
    int index = oldest_queued(fake);
    if (index < 0 || !frame_due(fake)) return fail(EAGAIN);
    uint32_t sequence = fake->next_sequence++;
    if (fake->script.dequeue_errno && sequence == fake->script.dequeue_errno_at) {
        int error = fake->script.dequeue_errno;
        if (fake->script.dequeue_errno_sticky) fake->sticky_error = error;
        fake->script.dequeue_errno = 0;
        return fail(error);
    }
    fake->queued[index] = 0;
    memset(fake->memory[index], (int)(sequence & 0xFF), fake->format.sizeimage);
    int64_t stamp = 1000000000LL + (int64_t)sequence * fake->script.frame_interval_ns;
    if (fake->script.backwards_at && sequence == fake->script.backwards_at)
        stamp -= 2 * fake->script.frame_interval_ns;
    memset(buffer, 0, sizeof *buffer);
    buffer->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffer->memory = V4L2_MEMORY_MMAP;
    buffer->index = (uint32_t)index;
    buffer->sequence = sequence;
    buffer->bytesused = fake->format.sizeimage;
    buffer->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
    if (fake->script.error_flag_at && sequence == fake->script.error_flag_at) buffer->flags |= V4L2_BUF_FLAG_ERROR;
    buffer->timestamp.tv_sec = (time_t)(stamp / 1000000000LL);
    buffer->timestamp.tv_usec = (suseconds_t)(stamp % 1000000000LL / 1000);
    fake->counters.dequeued++;
    return 0;
}

static int handle_ioctl(msv_fake_device *fake, unsigned long request, void *argument) {
    switch (request) {
    case VIDIOC_QUERYCTRL: {
        struct v4l2_queryctrl *query = argument;
        uint32_t id = query->id & ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
        int next = (query->id & V4L2_CTRL_FLAG_NEXT_CTRL) != 0;
        if (next ? id >= V4L2_CID_GAIN : id != V4L2_CID_GAIN) return fail(EINVAL);
        memset(query, 0, sizeof *query);
        query->id = V4L2_CID_GAIN;
        query->type = V4L2_CTRL_TYPE_INTEGER;
        strcpy((char *)query->name, "Gain");
        query->maximum = 255;
        query->step = 1;
        query->default_value = 64;
        return 0;
    }
    case VIDIOC_G_CTRL:
    case VIDIOC_S_CTRL: {
        struct v4l2_control *control = argument;
        if (control->id != V4L2_CID_GAIN) return fail(EINVAL);
        if (request == VIDIOC_G_CTRL) control->value = fake->gain;
        else if (fake->script.set_control_errno) return fail(fake->script.set_control_errno);
        else fake->gain = control->value;
        return 0;
    }
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *capability = argument;
        memset(capability, 0, sizeof *capability);
        strcpy((char *)capability->driver, "fake");
        strcpy((char *)capability->card, "Fake Camera");
        strcpy((char *)capability->bus_info, "fake:0");
        capability->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
        capability->capabilities = capability->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    case VIDIOC_G_FMT: ((struct v4l2_format *)argument)->fmt.pix = fake->format; return 0;
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT: {
        struct v4l2_format *format = argument;
        if (request == VIDIOC_S_FMT && fake->buffer_count) return fail(EBUSY);
        struct v4l2_pix_format saved = fake->format;
        set_format(fake, &format->fmt.pix);
        format->fmt.pix = fake->format;
        if (request == VIDIOC_TRY_FMT) fake->format = saved;
        return 0;
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: {
        struct v4l2_streamparm *parameters = argument;
        memset(&parameters->parm, 0, sizeof parameters->parm);
        parameters->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
        parameters->parm.capture.timeperframe.numerator = (uint32_t)(fake->script.frame_interval_ns / 1000);
        parameters->parm.capture.timeperframe.denominator = 1000000;
        return 0;
    }
    case VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers *request_buffers = argument;
        if (fake->script.reqbufs_errno) return fail(fake->script.reqbufs_errno);
        if (fake->counters.streaming) return fail(EBUSY);
        free_buffers(fake);
        if (request_buffers->count == 0) {
            fake->counters.releases++;
            return 0;
        }
        uint32_t count = request_buffers->count > FAKE_MAX_BUFFERS ? FAKE_MAX_BUFFERS : request_buffers->count;
        fake->length = fake->format.sizeimage;
        for (uint32_t i = 0; i < count; i++) {
            fake->memory[i] = calloc(1, fake->length);
            fake->queued[i] = 0;
        }
        fake->buffer_count = (int)count;
        request_buffers->count = count;
        fake->counters.requests++;
        return 0;
    }
    case VIDIOC_QUERYBUF: {
        struct v4l2_buffer *buffer = argument;
        if (buffer->index >= (uint32_t)fake->buffer_count) return fail(EINVAL);
        buffer->length = (uint32_t)fake->length;
        buffer->m.offset = buffer->index * 4096u;
        return 0;
    }
    case VIDIOC_QBUF: {
        struct v4l2_buffer *buffer = argument;
        if (buffer->index >= (uint32_t)fake->buffer_count || fake->queued[buffer->index]) return fail(EINVAL);
        fake->queued[buffer->index] = 1;
        fake->queue_order[buffer->index] = ++fake->order;
        fake->counters.queued++;
        return 0;
    }
    case VIDIOC_DQBUF: return dequeue(fake, argument);
    case VIDIOC_STREAMON:
        if (!fake->buffer_count) return fail(EINVAL);
        if (!fake->counters.streaming) fake->stream_start_ns = now_ns() - (int64_t)fake->next_sequence * fake->script.frame_interval_ns;
        fake->counters.streaming = 1;
        fake->counters.stream_ons++;
        return 0;
    case VIDIOC_STREAMOFF:
        fake->counters.streaming = 0;
        fake->counters.stream_offs++;
        memset(fake->queued, 0, sizeof fake->queued);
        return 0;
    default: return fail(ENOTTY);
    }
}

// MARK: - The table

static int fake_open(void *context, const char *path, int flags) {
    (void)path;
    (void)flags;
    msv_fake_device *fake = context;
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    pthread_mutex_lock(&fake->lock);
    fake->fd = fd;
    fake->counters.opens++;
    fake->counters.open_descriptors++;
    pthread_mutex_unlock(&fake->lock);
    return fd;
}

static int fake_close(void *context, int fd) {
    msv_fake_device *fake = context;
    pthread_mutex_lock(&fake->lock);
    fake->counters.closes++;
    fake->counters.open_descriptors--;
    pthread_mutex_unlock(&fake->lock);
    return close(fd);
}

static int fake_ioctl(void *context, int fd, unsigned long request, void *argument) {
    (void)fd;
    msv_fake_device *fake = context;
    pthread_mutex_lock(&fake->lock);
    int result = handle_ioctl(fake, request, argument);
    int saved = errno;
    pthread_mutex_unlock(&fake->lock);
    errno = saved;
    return result;
}

static void *fake_mmap(void *context, size_t length, int protection, int flags, int fd, int64_t offset) {
    (void)protection;
    (void)flags;
    (void)fd;
    msv_fake_device *fake = context;
    pthread_mutex_lock(&fake->lock);
    uint32_t index = (uint32_t)(offset / 4096);
    void *address = MAP_FAILED;
    if (index < (uint32_t)fake->buffer_count && length <= fake->length) {
        address = fake->memory[index];
        fake->counters.maps++;
    }
    pthread_mutex_unlock(&fake->lock);
    if (address == MAP_FAILED) errno = EINVAL;
    return address;
}

static int fake_munmap(void *context, void *address, size_t length) {
    (void)address;
    (void)length;
    msv_fake_device *fake = context;
    pthread_mutex_lock(&fake->lock);
    fake->counters.unmaps++;
    pthread_mutex_unlock(&fake->lock);
    return 0;
}

static int fake_poll(void *context, struct pollfd *fds, nfds_t count, int timeout_ms) {
    msv_fake_device *fake = context;
    pthread_mutex_lock(&fake->lock);
    fake->counters.polls++;
    int eintr = take(&fake->script.poll_eintr);
    int timeout = !eintr && take(&fake->script.poll_timeouts);
    int error = !eintr && !timeout && take(&fake->script.poll_errors);
    int64_t wait_ms = 0;
    // No frame will come: report nothing, after a short wait (the caller polls again until its own
    // deadline, and sees a stop request between polls even without the wake-up descriptor).
    int exhausted = !eintr && !timeout && !error && fake->counters.streaming && frames_exhausted(fake);
    if (exhausted) {
        timeout = 1;
        if (timeout_ms > 10) timeout_ms = 10;
    }
    if (!eintr && !timeout && fake->script.pace && fake->counters.streaming) {
        int64_t due = fake->stream_start_ns + (int64_t)(fake->next_sequence + 1) * fake->script.frame_interval_ns;
        wait_ms = (due - now_ns() + 999999) / 1000000;
        if (wait_ms < 0) wait_ms = 0;
        if (wait_ms > timeout_ms) wait_ms = timeout_ms;
    }
    pthread_mutex_unlock(&fake->lock);
    if (eintr) return fail(EINTR);
    // Wait on the other descriptors (the wake-up pipe) for as long as the device would make us wait.
    int other = 0;
    if (count > 1) {
        other = poll(fds + 1, count - 1, timeout ? timeout_ms : (int)wait_ms);
        if (other < 0) return -1;
    } else if (timeout) {
        struct timespec pause = {.tv_sec = timeout_ms / 1000, .tv_nsec = (long)(timeout_ms % 1000) * 1000000L};
        nanosleep(&pause, NULL);
    }
    fds[0].revents = timeout ? 0 : error ? POLLERR : POLLIN;
    return (fds[0].revents ? 1 : 0) + other;
}

static int fake_pipe2(void *context, int fds[2], int flags) {
    msv_fake_device *fake = context;
    pthread_mutex_lock(&fake->lock);
    int error = fake->script.pipe_errno;
    pthread_mutex_unlock(&fake->lock);
    if (error) {
        errno = error;
        return -1;
    }
    return pipe2(fds, flags);
}

int msv_fake_device_create(const msv_fake_script *script, msv_fake_device **device) {
    msv_fake_device *fake = calloc(1, sizeof *fake);
    if (!fake) return ENOMEM;
    pthread_mutex_init(&fake->lock, NULL);
    fake->script = *script;
    fake->gain = 64;
    if (fake->script.frame_interval_ns <= 0) fake->script.frame_interval_ns = 33333333;
    struct v4l2_pix_format initial = {.width = 640, .height = 480, .pixelformat = V4L2_PIX_FMT_BGR24};
    set_format(fake, &initial);
    fake->ops = (msv_io_ops){
        .context = fake,
        .open = fake_open,
        .close = fake_close,
        .ioctl = fake_ioctl,
        .mmap = fake_mmap,
        .munmap = fake_munmap,
        .poll = fake_poll,
        .pipe2 = fake_pipe2,
    };
    *device = fake;
    return 0;
}

void msv_fake_device_free(msv_fake_device *device) {
    if (!device) return;
    free_buffers(device);
    pthread_mutex_destroy(&device->lock);
    free(device);
}

const msv_io_ops *msv_fake_device_ops(msv_fake_device *device) {
    return &device->ops;
}

void msv_fake_device_get_counters(msv_fake_device *device, msv_fake_counters *counters) {
    pthread_mutex_lock(&device->lock);
    *counters = device->counters;
    pthread_mutex_unlock(&device->lock);
}
