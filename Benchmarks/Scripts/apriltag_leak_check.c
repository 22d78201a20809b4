// Exercises every allocating path of the AprilTag shim (Sources/CAprilTagShim) for a leak check
// under valgrind (see BENCHMARKS.md): every family's detector and tag cells, a drawn AprilGrid
// detected with corner refinement, loose tags on two threads at once through one detector (so its
// pool lends a second libapriltag detector that shares the family), colour conversion, and errors.
//
//   gcc -O1 -g -I Sources/CAprilTagShim/include -I Sources/CAprilTagShim -I Sources/CShimCore/include
//       -o /tmp/apriltag-leak-check Benchmarks/Scripts/apriltag_leak_check.c Sources/CAprilTagShim/*.c
//       Sources/CShimCore/*.c -lapriltag -lapriltag-utils -lm -lpthread
//   valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=3 /tmp/apriltag-leak-check

#include "CAprilTagShim.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 640, H = 480 };

static uint8_t *grid_image(void) {  // a 4x3 grid of 2-cell-border tag36h11 tags with corner squares
    uint8_t *image = malloc(W * H);
    memset(image, 255, W * H);
    uint8_t cells[256];
    int32_t side;
    int tag = 100, gap = 30;
    for (int id = 0; id < 12; id++) {
        if (atag_tag_cells_get(ATAG_FAMILY_TAG36H11, id, 2, cells, sizeof cells, &side, NULL) != SHIM_STATUS_OK) exit(1);
        int x0 = 40 + (id % 4) * (tag + gap), y0 = 40 + (2 - id / 4) * (tag + gap), cell = tag / (side - 2);
        for (int y = 0; y < tag; y++)
            for (int x = 0; x < tag; x++) image[(y0 + y) * W + x0 + x] = cells[(y / cell + 1) * side + x / cell + 1];
        int corners[4][2] = {{x0 - gap, y0 - gap}, {x0 + tag, y0 - gap}, {x0 + tag, y0 + tag}, {x0 - gap, y0 + tag}};
        for (int k = 0; k < 4; k++)
            for (int y = 0; y < gap; y++)
                for (int x = 0; x < gap; x++) {
                    int px = corners[k][0] + x, py = corners[k][1] + y;
                    if (px >= 0 && py >= 0 && px < W && py < H) image[py * W + px] = 0;
                }
    }
    return image;
}

struct job {
    atag_detector *detector;
    const uint8_t *image;
    size_t found;
};

static void *detect_on_thread(void *argument) {
    struct job *job = argument;
    for (int i = 0; i < 3; i++) {
        atag_tags *tags = NULL;
        if (atag_detector_detect(job->detector, &(shim_pixels){job->image, W, H, W, SHIM_PIXEL_FORMAT_GRAY8}, &tags, NULL)) exit(1);
        job->found = tags->count;
        atag_tags_free(tags);
    }
    return NULL;
}

int main(void) {
    shim_error error;
    for (int family = ATAG_FAMILY_TAG36H11; family <= ATAG_FAMILY_TAGCUSTOM48H12; family++) {
        atag_detector_options options;
        atag_detector_options_init(&options, family);
        atag_detector *detector = NULL;
        if (atag_detector_create(&options, &detector, &error)) return fprintf(stderr, "%s\n", error.message), 1;
        atag_detector_free(detector);
        uint8_t cells[256];
        int32_t side;
        if (atag_tag_cells_get(family, 0, 1, cells, sizeof cells, &side, &error)) return 1;
        atag_family_info info;
        if (atag_family_info_get(family, &info, &error)) return 1;
    }
    uint8_t *image = grid_image();

    atag_detector_options options;
    atag_detector_options_init(&options, ATAG_FAMILY_TAG36H11);
    options.border_cells = 2;
    options.grid_spacing = 0.3f;
    options.id_count = 12;
    atag_detector *grid = NULL;
    if (atag_detector_create(&options, &grid, &error)) return 1;
    atag_tags *tags = NULL;
    if (atag_detector_detect(grid, &(shim_pixels){image, W, H, W, SHIM_PIXEL_FORMAT_GRAY8}, &tags, &error)) return 1;
    printf("grid: %zu tags\n", tags->count);
    atag_tags_free(tags);
    uint8_t *colour = malloc(W * H * 3);  // the same image as BGR
    for (int i = 0; i < W * H; i++) colour[3 * i] = colour[3 * i + 1] = colour[3 * i + 2] = image[i];
    if (atag_detector_detect(grid, &(shim_pixels){colour, W, H, W * 3, SHIM_PIXEL_FORMAT_BGR24}, &tags, &error)) return 1;
    printf("grid from BGR: %zu tags\n", tags->count);
    atag_tags_free(tags);
    free(colour);
    atag_detector_free(grid);

    options.border_cells = 2;  // loose tags with wide borders, on two threads through one detector
    options.grid_spacing = 0;
    options.id_count = 0;
    options.sigma = 0.8f;
    options.decimate = 1;
    atag_detector *loose = NULL;
    if (atag_detector_create(&options, &loose, &error)) return 1;
    struct job jobs[2] = {{loose, image, 0}, {loose, image, 0}};
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) pthread_create(&threads[i], NULL, detect_on_thread, &jobs[i]);
    for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
    printf("two threads: %zu and %zu tags\n", jobs[0].found, jobs[1].found);
    atag_detector_free(loose);

    options.decimate = 0.5f;  // errors allocate nothing that outlives them
    if (atag_detector_create(&options, &loose, &error) != SHIM_STATUS_INVALID_ARGUMENT) return 1;
    options.decimate = 2;
    options.family = ATAG_FAMILY_TAGSTANDARD41H12;
    if (atag_detector_create(&options, &loose, &error) != SHIM_STATUS_INVALID_ARGUMENT) return 1;
    printf("errors: %s\n", error.message);
    free(image);
    return 0;
}
