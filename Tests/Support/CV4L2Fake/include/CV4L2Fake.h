// CV4L2Fake: an in-memory V4L2 capture device behind an msv_io_ops table, for tests of the
// capture code against faults that no device produces on demand (poll timeouts, POLLERR, EINTR
// storms, EAGAIN, backwards timestamps).
//
// The device offers BGR24 and YUV420 at any size, hands out buffers whose every byte is the low
// byte of the frame's sequence number, and stamps frame n with `first_timestamp_ns + n * interval`.
// It has one control, `Gain` (0...255 step 1, default 64). The script says which calls fail, and
// how often; counters say what the capture code did.
//
// For tests whose result must not depend on how fast the machine is, leave `pace` at 0 and set
// `frame_limit`: the device then makes a fixed number of frames as fast as they are asked for,
// and a consumer that keeps at most a queue's worth of them loses none however slowly it runs.

#ifndef CV4L2FAKE_H
#define CV4L2FAKE_H

#include <stdint.h>

#include "CV4L2Shim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct msv_fake_script {
    int64_t frame_interval_ns;      // spacing of timestamps (and of frames, see `pace`)
    int pace;                       // 1: poll reports ready only once the next frame is due
    uint32_t frame_limit;           // when not 0, only frames 0 ... frame_limit - 1 exist: after them,
                                    // poll reports nothing, after waiting at most 10 ms
    int32_t poll_timeouts;          // the next N polls report nothing after waiting; -1: every poll
    int32_t poll_errors;            // the next N polls report POLLERR
    int32_t poll_eintr;             // the next N polls fail with EINTR at once
    int32_t dequeue_eintr;          // the next N VIDIOC_DQBUF fail with EINTR
    int32_t dequeue_eagain;         // the next N VIDIOC_DQBUF fail with EAGAIN
    int32_t dequeue_errno;          // when not 0, VIDIOC_DQBUF of frame `dequeue_errno_at` fails with it, once
    uint32_t dequeue_errno_at;
    int32_t dequeue_errno_sticky;   // 1: every VIDIOC_DQBUF from then on fails with it
    uint32_t backwards_at;          // when not 0, frame N gets a timestamp older than frame N-1
    uint32_t error_flag_at;         // when not 0, frame N carries V4L2_BUF_FLAG_ERROR
    int32_t reqbufs_errno;          // when not 0, VIDIOC_REQBUFS fails with it
    int32_t set_control_errno;      // when not 0, VIDIOC_S_CTRL fails with it (the value is kept)
    int32_t pipe_errno;             // when not 0, pipe2 (the capture thread's wake pipe) fails with it
} msv_fake_script;

typedef struct msv_fake_counters {
    uint32_t opens, closes;
    uint32_t maps, unmaps;
    uint32_t stream_ons, stream_offs;
    uint32_t requests, releases;    // VIDIOC_REQBUFS with count > 0, and with count 0
    uint32_t queued, dequeued;
    uint32_t polls;
    int open_descriptors;           // descriptors open now
    int streaming;
} msv_fake_counters;

typedef struct msv_fake_device msv_fake_device;

int msv_fake_device_create(const msv_fake_script *script, msv_fake_device **device);
void msv_fake_device_free(msv_fake_device *device);
/// The table to pass to msv_device_open; valid as long as the fake device lives.
const msv_io_ops *msv_fake_device_ops(msv_fake_device *device);
void msv_fake_device_get_counters(msv_fake_device *device, msv_fake_counters *counters);

#ifdef __cplusplus
}
#endif

#endif
