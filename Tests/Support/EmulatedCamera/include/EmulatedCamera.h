// Emulated V4L2 webcam: a libv4l2 plugin.
//
// libv4l2 dlopens every `*.so` in its plugin folder and offers each file descriptor it opens to the
// plugin's `init`. This plugin claims a descriptor when it refers to a regular file `DEVICE` next to
// which a text file `DEVICE.conf` exists, and then answers the V4L2 ioctls for it: a YUYV and/or
// MJPEG webcam with controls, paced at the requested frame rate, with scriptable faults.
//
// The configuration keys are described in `Tests/Support/EmulatedCamera/README.md`.
//
// The only exported symbol is `libv4l2_plugin` (a `struct libv4l_dev_ops`), as libv4l2 expects.

#ifndef EMULATED_CAMERA_H
#define EMULATED_CAMERA_H

#include <libv4l-plugin.h>

/// The table libv4l2 looks up with dlsym.
extern const struct libv4l_dev_ops libv4l2_plugin;

#endif
