// The emulated camera's controls, shaped like a UVC webcam's: exposure, white balance and focus have
// auto modes, and while an auto mode is on the matching absolute control is inactive and refuses
// new values with EACCES, as uvcvideo does.

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "camera.h"

static const char *const power_line_menu[] = {"Disabled", "50 Hz", "60 Hz"};
// Only "Manual Mode" (1) and "Aperture Priority Mode" (3) are offered, as on most UVC webcams.
static const char *const exposure_auto_menu[] = {NULL, "Manual Mode", NULL, "Aperture Priority Mode"};

void ec_controls_init(ec_control controls[EC_CONTROL_COUNT]) {
    // Named as uvcvideo names them, so that v4l2-ctl spells them exposure_auto, exposure_absolute,
    // white_balance_temperature_auto, focus_auto and so on.
    const ec_control table[EC_CONTROL_COUNT] = {
        {V4L2_CID_BRIGHTNESS, V4L2_CTRL_TYPE_INTEGER, "Brightness", -64, 64, 1, 0, 0, NULL, 0, 0},
        {V4L2_CID_CONTRAST, V4L2_CTRL_TYPE_INTEGER, "Contrast", 0, 100, 1, 50, 0, NULL, 0, 0},
        {V4L2_CID_AUTO_WHITE_BALANCE, V4L2_CTRL_TYPE_BOOLEAN, "White Balance Temperature, Auto", 0, 1, 1, 1, 0, NULL,
         0, 0},
        {V4L2_CID_GAIN, V4L2_CTRL_TYPE_INTEGER, "Gain", 0, 255, 1, 64, 0, NULL, 0, 0},
        {V4L2_CID_POWER_LINE_FREQUENCY, V4L2_CTRL_TYPE_MENU, "Power Line Frequency", 0, 2, 1, 1, 0,
         power_line_menu, 0, 0},
        {V4L2_CID_WHITE_BALANCE_TEMPERATURE, V4L2_CTRL_TYPE_INTEGER, "White Balance Temperature", 2800, 6500, 10, 4600,
         0, NULL, V4L2_CID_AUTO_WHITE_BALANCE, 0},
        {V4L2_CID_EXPOSURE_AUTO, V4L2_CTRL_TYPE_MENU, "Exposure, Auto", 0, 3, 1, 3, 0, exposure_auto_menu, 0, 0},
        {V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CTRL_TYPE_INTEGER, "Exposure (Absolute)", 3, 2047, 1, 250, 0, NULL,
         V4L2_CID_EXPOSURE_AUTO, V4L2_EXPOSURE_MANUAL},
        {V4L2_CID_FOCUS_ABSOLUTE, V4L2_CTRL_TYPE_INTEGER, "Focus (absolute)", 0, 250, 5, 0, 0, NULL,
         V4L2_CID_FOCUS_AUTO, 0},
        {V4L2_CID_FOCUS_AUTO, V4L2_CTRL_TYPE_BOOLEAN, "Focus, Auto", 0, 1, 1, 1, 0, NULL, 0, 0},
    };
    memcpy(controls, table, sizeof table);
    for (int i = 0; i < EC_CONTROL_COUNT; i++) controls[i].value = controls[i].default_value;
}

static ec_control *find(ec_control controls[EC_CONTROL_COUNT], uint32_t id) {
    for (int i = 0; i < EC_CONTROL_COUNT; i++)
        if (controls[i].id == id) return &controls[i];
    return NULL;
}

/// The control a query names: `id` itself, or with V4L2_CTRL_FLAG_NEXT_CTRL the one with the next larger id.
static ec_control *queried(ec_control controls[EC_CONTROL_COUNT], uint32_t query_id) {
    uint32_t id = query_id & ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
    if (!(query_id & V4L2_CTRL_FLAG_NEXT_CTRL)) return find(controls, id);
    ec_control *best = NULL;
    for (int i = 0; i < EC_CONTROL_COUNT; i++)
        if (controls[i].id > id && (!best || controls[i].id < best->id)) best = &controls[i];
    return best;
}

static int is_inactive(ec_control controls[EC_CONTROL_COUNT], const ec_control *control) {
    if (!control->auto_id) return 0;
    const ec_control *mode = find(controls, control->auto_id);
    return mode && mode->value != control->manual_value;
}

static uint32_t flags_of(ec_control controls[EC_CONTROL_COUNT], const ec_control *control) {
    uint32_t flags = 0;
    if (is_inactive(controls, control)) flags |= V4L2_CTRL_FLAG_INACTIVE;
    if (control->type == V4L2_CTRL_TYPE_MENU || control->id == V4L2_CID_EXPOSURE_AUTO ||
        control->id == V4L2_CID_FOCUS_AUTO || control->id == V4L2_CID_AUTO_WHITE_BALANCE)
        flags |= V4L2_CTRL_FLAG_UPDATE;
    return flags;
}

static int check_value(ec_control controls[EC_CONTROL_COUNT], const ec_control *control, int32_t value) {
    if (is_inactive(controls, control)) return EACCES;
    if (value < control->minimum || value > control->maximum) return ERANGE;
    if (control->type == V4L2_CTRL_TYPE_MENU && !control->menu[value]) return EINVAL;
    if (control->step > 1 && (value - control->minimum) % control->step) return ERANGE;
    return 0;
}

static int fail(int error) {
    errno = error;
    return -1;
}

static int ext_controls(ec_control controls[EC_CONTROL_COUNT], unsigned long request, struct v4l2_ext_controls *list) {
    // Values are checked in list order against a copy in which the earlier ones are already set
    // (so exposure_auto=1,exposure_absolute=400 works in one call, as the control framework allows);
    // only a list that passes whole is kept, so a refused list changes nothing.
    ec_control scratch[EC_CONTROL_COUNT];
    memcpy(scratch, controls, sizeof scratch);
    for (uint32_t i = 0; i < list->count; i++) {
        ec_control *control = find(scratch, list->controls[i].id);
        int error = control ? 0 : EINVAL;
        if (!error && request != VIDIOC_G_EXT_CTRLS) error = check_value(scratch, control, list->controls[i].value);
        if (error) {
            list->error_idx = request == VIDIOC_S_EXT_CTRLS && error != EINVAL ? list->count : i;
            return fail(error);
        }
        if (request == VIDIOC_G_EXT_CTRLS) list->controls[i].value = control->value;
        else control->value = list->controls[i].value;
    }
    if (request == VIDIOC_S_EXT_CTRLS) memcpy(controls, scratch, sizeof scratch);
    return 0;
}

int ec_controls_ioctl(ec_control controls[EC_CONTROL_COUNT], unsigned long request, void *arg) {
    switch (request) {
    case VIDIOC_QUERYCTRL: {
        struct v4l2_queryctrl *query = arg;
        ec_control *control = queried(controls, query->id);
        if (!control) return fail(EINVAL);
        memset(query, 0, sizeof *query);
        query->id = control->id;
        query->type = control->type;
        snprintf((char *)query->name, sizeof query->name, "%s", control->name);
        query->minimum = control->minimum;
        query->maximum = control->maximum;
        query->step = control->step;
        query->default_value = control->default_value;
        query->flags = flags_of(controls, control);
        return 0;
    }
    case VIDIOC_QUERY_EXT_CTRL: {
        struct v4l2_query_ext_ctrl *query = arg;
        ec_control *control = queried(controls, query->id);
        if (!control) return fail(EINVAL);
        memset(query, 0, sizeof *query);
        query->id = control->id;
        query->type = control->type;
        snprintf(query->name, sizeof query->name, "%s", control->name);
        query->minimum = control->minimum;
        query->maximum = control->maximum;
        query->step = (uint64_t)control->step;
        query->default_value = control->default_value;
        query->flags = flags_of(controls, control);
        query->elem_size = sizeof(int32_t);
        query->elems = 1;
        return 0;
    }
    case VIDIOC_QUERYMENU: {
        struct v4l2_querymenu *query = arg;
        ec_control *control = find(controls, query->id);
        if (!control || control->type != V4L2_CTRL_TYPE_MENU || (int64_t)query->index < control->minimum ||
            (int64_t)query->index > control->maximum || !control->menu[query->index])
            return fail(EINVAL);
        memset(query->name, 0, sizeof query->name);
        snprintf((char *)query->name, sizeof query->name, "%s", control->menu[query->index]);
        query->reserved = 0;
        return 0;
    }
    case VIDIOC_G_CTRL: {
        struct v4l2_control *value = arg;
        ec_control *control = find(controls, value->id);
        if (!control) return fail(EINVAL);
        value->value = control->value;
        return 0;
    }
    case VIDIOC_S_CTRL: {
        struct v4l2_control *value = arg;
        ec_control *control = find(controls, value->id);
        if (!control) return fail(EINVAL);
        int error = check_value(controls, control, value->value);
        if (error) return fail(error);
        control->value = value->value;
        return 0;
    }
    case VIDIOC_G_EXT_CTRLS:
    case VIDIOC_S_EXT_CTRLS:
    case VIDIOC_TRY_EXT_CTRLS:
        return ext_controls(controls, request, arg);
    default:
        return -2;
    }
}

void ec_controls_load(ec_control controls[EC_CONTROL_COUNT], const char *path) {
    FILE *file = fopen(path, "re");
    if (!file) return;
    unsigned id;
    int value;
    while (fscanf(file, "%x %d", &id, &value) == 2) {
        ec_control *control = find(controls, id);
        if (control) control->value = value;
    }
    fclose(file);
}

void ec_controls_save(const ec_control controls[EC_CONTROL_COUNT], const char *path) {
    char temporary[PATH_MAX + 32];
    snprintf(temporary, sizeof temporary, "%s.%d.tmp", path, (int)getpid());
    FILE *file = fopen(temporary, "we");
    if (!file) return;
    for (int i = 0; i < EC_CONTROL_COUNT; i++) fprintf(file, "0x%08x %d\n", controls[i].id, controls[i].value);
    if (fclose(file) == 0) rename(temporary, path);
    else unlink(temporary);
}

int ec_controls_settle(ec_control controls[EC_CONTROL_COUNT], uint32_t id, int32_t value) {
    ec_control *control = find(controls, id);
    if (!control || !is_inactive(controls, control)) return 0;
    control->value = value;
    return 1;
}

uint32_t ec_controls_id(const char *name) {
    static const struct {
        const char *name;
        uint32_t id;
    } names[] = {
        {"brightness", V4L2_CID_BRIGHTNESS}, {"contrast", V4L2_CID_CONTRAST}, {"gain", V4L2_CID_GAIN},
        {"white_balance_temperature", V4L2_CID_WHITE_BALANCE_TEMPERATURE},
        {"exposure_absolute", V4L2_CID_EXPOSURE_ABSOLUTE}, {"focus_absolute", V4L2_CID_FOCUS_ABSOLUTE},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, name) == 0) return names[i].id;
    return 0;
}
