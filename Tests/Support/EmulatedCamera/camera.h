// Internal declarations of the emulated camera (not part of the plugin's interface).

#ifndef EMULATED_CAMERA_INTERNAL_H
#define EMULATED_CAMERA_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>

#define EC_HIDDEN __attribute__((visibility("hidden")))

enum {
    EC_MAX_FORMATS = 2,
    EC_MAX_SIZES = 8,
    EC_MAX_RATES = 8,
    EC_MAX_FAULTS = 64,
    EC_MAX_BUFFERS = 32,  // VIDEO_MAX_FRAME, as many as V4L2 lets a driver grant
    EC_MAX_IMAGES = 1000,
    EC_PATTERN_PHASES = 16,
    EC_MAX_SETTLES = 8,
};

// MARK: - Configuration (config.c)

typedef enum {
    EC_FAULT_GAP,    // frames SEQ .. SEQ+AMOUNT-1 are lost: `sequence` jumps by AMOUNT
    EC_FAULT_ERROR,  // the buffer holding frame SEQ carries V4L2_BUF_FLAG_ERROR
    EC_FAULT_EIO,    // VIDIOC_DQBUF fails with EIO once, when frame SEQ is due (the frame is lost)
    EC_FAULT_ENODEV, // the device is unplugged when frame SEQ is due: every later call fails with ENODEV
    EC_FAULT_STALL,  // frame SEQ and all after it come AMOUNT ms late (0: never)
} ec_fault_kind;

typedef struct {
    ec_fault_kind kind;
    uint32_t sequence;
    uint32_t amount;
    int fired;
} ec_fault;

typedef struct {
    uint32_t width, height;
} ec_size;

// An automatic mode settling: when frame SEQUENCE is made, control ID takes VALUE if its automatic
// mode governs it then.
typedef struct {
    uint32_t id;
    int32_t value;
    uint32_t sequence;
    int fired;
} ec_settle;

typedef struct {
    char name[32];
    char bus[32];
    uint32_t formats[EC_MAX_FORMATS];
    int format_count;
    ec_size sizes[EC_MAX_SIZES];
    int size_count;
    uint32_t rates[EC_MAX_RATES];
    int rate_count;
    int paced;
    int quality;
    char frames_dir[PATH_MAX];
    int hold_last_frame;  // after the folder's last file: show it for ever (1) or start again (0)
    char log_path[PATH_MAX];
    ec_fault faults[EC_MAX_FAULTS];
    int fault_count;
    char controls_path[PATH_MAX]; // control values shared by every program that opens the device, or ""
    ec_settle settles[EC_MAX_SETTLES];
    int settle_count;
} ec_config;

/// Reads `path`; returns 0, or -1 with a message in `error`.
EC_HIDDEN int ec_config_load(const char *path, ec_config *config, char *error, size_t error_size);

// MARK: - Frames (frames.c)

typedef struct {
    uint8_t *data;
    size_t size;
} ec_frame;

typedef struct {
    uint32_t fourcc, width, height;
    int quality;
    int count;          // distinct frames: EC_PATTERN_PHASES for the pattern, else one per image
    ec_frame *frames;   // made on first use
    char **files;       // sorted JPEG paths, or NULL for the pattern
    int file_count;
    int hold_last;      // past the last frame: show it for ever rather than start again
} ec_frames;

/// Lists the JPEG files of `dir` (or chooses the pattern when `dir` is empty). Returns 0 or -1.
/// `hold_last`: past the last file, show it for ever rather than start again.
EC_HIDDEN int ec_frames_open(ec_frames *frames, const char *dir, int quality, int hold_last, char *error,
                             size_t error_size);
/// Forgets every frame made so far and makes later frames in the given format and size.
EC_HIDDEN void ec_frames_set_format(ec_frames *frames, uint32_t fourcc, uint32_t width, uint32_t height);
/// The frame shown at `sequence`, made now if needed; NULL when it cannot be made.
EC_HIDDEN const ec_frame *ec_frames_get(ec_frames *frames, uint32_t sequence);
EC_HIDDEN void ec_frames_close(ec_frames *frames);

// MARK: - Controls (controls.c)

typedef struct {
    uint32_t id;
    uint32_t type;
    const char *name;
    int32_t minimum, maximum, step, default_value;
    int32_t value;
    const char *const *menu;   // menu item names by value; NULL entries are not offered
    uint32_t auto_id;          // control whose non-manual value makes this one inactive, or 0
    int32_t manual_value;      // the value of `auto_id` that means manual
} ec_control;

enum { EC_CONTROL_COUNT = 10 };

EC_HIDDEN void ec_controls_init(ec_control controls[EC_CONTROL_COUNT]);
/// Answers the control ioctls; returns 0, or -1 with errno set, or -2 when `request` is not one.
EC_HIDDEN int ec_controls_ioctl(ec_control controls[EC_CONTROL_COUNT], unsigned long request, void *arg);
/// Reads the values `ec_controls_save` wrote to `path` (a missing file changes nothing).
EC_HIDDEN void ec_controls_load(ec_control controls[EC_CONTROL_COUNT], const char *path);
/// Writes every value to `path` (through a temporary file and a rename, so a reader sees all or nothing).
EC_HIDDEN void ec_controls_save(const ec_control controls[EC_CONTROL_COUNT], const char *path);
/// Sets control `id` to `value` as its automatic mode would: only while that mode governs it.
/// Returns 1 when the value was taken.
EC_HIDDEN int ec_controls_settle(ec_control controls[EC_CONTROL_COUNT], uint32_t id, int32_t value);
/// The id of the control `v4l2-ctl` names `name`, or 0.
EC_HIDDEN uint32_t ec_controls_id(const char *name);

// MARK: - The device (plugin.c)

typedef enum { EC_BUF_DEQUEUED, EC_BUF_QUEUED, EC_BUF_DONE } ec_buffer_state;

typedef struct {
    ec_buffer_state state;
    uint64_t order;           // queue order while QUEUED, completion order while DONE
    uint32_t sequence;
    uint32_t flags;
    uint32_t bytesused;
    struct timeval timestamp;
} ec_buffer;

typedef struct {
    pthread_mutex_t lock;
    int app_fd;               // the descriptor libv4l2 offered
    int own_fd;               // our own read-write descriptor of the device file, for mapping
    int log_fd;
    char path[PATH_MAX];
    ec_config config;
    ec_frames frames;
    ec_control controls[EC_CONTROL_COUNT];

    struct v4l2_pix_format format;
    uint32_t rate;            // frames per second

    int buffer_count;
    size_t buffer_length;     // page-aligned
    uint8_t *memory;          // our mapping of every buffer
    ec_buffer buffers[EC_MAX_BUFFERS];
    uint64_t order_counter;

    int streaming;
    uint32_t next_sequence;   // sequence of the next frame the camera makes
    int64_t next_due_ns;      // CLOCK_MONOTONIC time at which that frame is made
    int pending_error;        // EIO to report from the next VIDIOC_DQBUF that finds no frame
    int gone;                 // unplugged: every call fails with ENODEV
} ec_camera;

#endif
