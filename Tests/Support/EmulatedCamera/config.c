// Reads the emulated camera's configuration: `key = value` lines, `#` starts a comment.

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"

static void set_defaults(ec_config *config) {
    memset(config, 0, sizeof *config);
    snprintf(config->name, sizeof config->name, "Emulated Camera");
    snprintf(config->bus, sizeof config->bus, "platform:emulated-camera");
    config->formats[0] = V4L2_PIX_FMT_YUYV;
    config->format_count = 1;
    config->sizes[0] = (ec_size){640, 480};
    config->sizes[1] = (ec_size){1280, 720};
    config->size_count = 2;
    config->rates[0] = 30;
    config->rates[1] = 15;
    config->rate_count = 2;
    config->paced = 1;
    config->quality = 90;
}

static char *trim(char *text) {
    while (isspace((unsigned char)*text)) text++;
    char *end = text + strlen(text);
    while (end > text && isspace((unsigned char)end[-1])) *--end = '\0';
    return text;
}

static int parse_number(const char *text, uint32_t *value) {
    char *end = NULL;
    errno = 0;
    unsigned long parsed = strtoul(text, &end, 10);
    if (errno || end == text || parsed > UINT32_MAX) return -1;
    while (isspace((unsigned char)*end)) end++;
    if (*end != '\0') return -1;
    *value = (uint32_t)parsed;
    return 0;
}

// Splits a comma-separated list in place; returns the number of items (at most `capacity`) or -1.
static int split_list(char *text, char **items, int capacity) {
    int count = 0;
    for (char *save = NULL, *item = strtok_r(text, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (count == capacity) return -1;
        items[count++] = trim(item);
    }
    return count;
}

static int parse_formats(char *value, ec_config *config) {
    char *items[EC_MAX_FORMATS + 1];
    int count = split_list(value, items, EC_MAX_FORMATS);
    if (count <= 0) return -1;
    for (int i = 0; i < count; i++) {
        if (strcasecmp(items[i], "yuyv") == 0) config->formats[i] = V4L2_PIX_FMT_YUYV;
        else if (strcasecmp(items[i], "mjpeg") == 0) config->formats[i] = V4L2_PIX_FMT_MJPEG;
        else return -1;
    }
    config->format_count = count;
    return 0;
}

static int parse_sizes(char *value, ec_config *config) {
    char *items[EC_MAX_SIZES + 1];
    int count = split_list(value, items, EC_MAX_SIZES);
    if (count <= 0) return -1;
    for (int i = 0; i < count; i++) {
        unsigned width, height;
        char extra;
        if (sscanf(items[i], "%ux%u%c", &width, &height, &extra) != 2) return -1;
        if (width < 16 || height < 16 || width > 8192 || height > 8192 || width % 16 || height % 8) return -1;
        config->sizes[i] = (ec_size){width, height};
    }
    config->size_count = count;
    return 0;
}

static int parse_rates(char *value, ec_config *config) {
    char *items[EC_MAX_RATES + 1];
    int count = split_list(value, items, EC_MAX_RATES);
    if (count <= 0) return -1;
    for (int i = 0; i < count; i++)
        if (parse_number(items[i], &config->rates[i]) || config->rates[i] == 0 || config->rates[i] > 1000) return -1;
    config->rate_count = count;
    return 0;
}

static int parse_fault(char *value, ec_config *config) {
    if (config->fault_count == EC_MAX_FAULTS) return -1;
    char kind[16];
    unsigned sequence, amount = 0;
    char extra;
    int fields = sscanf(value, "%15s %u %u %c", kind, &sequence, &amount, &extra);
    ec_fault fault = {.sequence = sequence, .amount = amount};
    if (strcmp(kind, "gap") == 0 && fields == 3 && amount > 0) fault.kind = EC_FAULT_GAP;
    else if (strcmp(kind, "error") == 0 && fields == 2) fault.kind = EC_FAULT_ERROR;
    else if (strcmp(kind, "eio") == 0 && fields == 2) fault.kind = EC_FAULT_EIO;
    else if (strcmp(kind, "enodev") == 0 && fields == 2) fault.kind = EC_FAULT_ENODEV;
    else if (strcmp(kind, "stall") == 0 && fields == 3) fault.kind = EC_FAULT_STALL;
    else return -1;
    config->faults[config->fault_count++] = fault;
    return 0;
}

// `settle = NAME VALUE SEQ`: control NAME (as v4l2-ctl names it) takes VALUE at frame SEQ while its
// automatic mode is on.
static int parse_settle(char *value, ec_config *config) {
    if (config->settle_count == EC_MAX_SETTLES) return -1;
    char name[64];
    int target;
    unsigned sequence;
    char extra;
    if (sscanf(value, "%63s %d %u %c", name, &target, &sequence, &extra) != 3) return -1;
    uint32_t id = ec_controls_id(name);
    if (!id) return -1;
    config->settles[config->settle_count++] = (ec_settle){.id = id, .value = target, .sequence = sequence};
    return 0;
}

static int copy_text(char *target, size_t size, const char *value) {
    if (strlen(value) >= size) return -1;
    snprintf(target, size, "%s", value);
    return 0;
}

static int apply(ec_config *config, const char *key, char *value) {
    if (strcmp(key, "name") == 0) return copy_text(config->name, sizeof config->name, value);
    if (strcmp(key, "bus") == 0) return copy_text(config->bus, sizeof config->bus, value);
    if (strcmp(key, "formats") == 0) return parse_formats(value, config);
    if (strcmp(key, "sizes") == 0) return parse_sizes(value, config);
    if (strcmp(key, "rates") == 0) return parse_rates(value, config);
    if (strcmp(key, "frames") == 0) return copy_text(config->frames_dir, sizeof config->frames_dir, value);
    if (strcmp(key, "log") == 0) return copy_text(config->log_path, sizeof config->log_path, value);
    if (strcmp(key, "fault") == 0) return parse_fault(value, config);
    if (strcmp(key, "settle") == 0) return parse_settle(value, config);
    if (strcmp(key, "controls") == 0) return copy_text(config->controls_path, sizeof config->controls_path, value);
    if (strcmp(key, "quality") == 0) {
        uint32_t quality;
        if (parse_number(value, &quality) || quality < 1 || quality > 100) return -1;
        config->quality = (int)quality;
        return 0;
    }
    if (strcmp(key, "end") == 0) {
        if (strcmp(value, "repeat") == 0) config->hold_last_frame = 0;
        else if (strcmp(value, "hold") == 0) config->hold_last_frame = 1;
        else return -1;
        return 0;
    }
    if (strcmp(key, "pace") == 0) {
        if (strcmp(value, "realtime") == 0) config->paced = 1;
        else if (strcmp(value, "unpaced") == 0) config->paced = 0;
        else return -1;
        return 0;
    }
    return -1;
}

int ec_config_load(const char *path, ec_config *config, char *error, size_t error_size) {
    set_defaults(config);
    FILE *file = fopen(path, "re");
    if (!file) {
        snprintf(error, error_size, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[PATH_MAX + 64];
    int number = 0, result = 0;
    while (fgets(line, sizeof line, file)) {
        number++;
        char *comment = strchr(line, '#');
        if (comment) *comment = '\0';
        char *text = trim(line);
        if (*text == '\0') continue;
        char *equals = strchr(text, '=');
        if (!equals) {
            snprintf(error, error_size, "%s:%d: expected `key = value`", path, number);
            result = -1;
            break;
        }
        *equals = '\0';
        char *key = trim(text), *value = trim(equals + 1);
        if (apply(config, key, value)) {
            snprintf(error, error_size, "%s:%d: bad value for `%s`", path, number, key);
            result = -1;
            break;
        }
    }
    fclose(file);
    return result;
}
