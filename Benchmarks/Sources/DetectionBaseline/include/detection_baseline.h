/* The detection benchmark's C++ baseline, callable from the Swift driver. */
#ifndef DETECTION_BASELINE_H
#define DETECTION_BASELINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Detects charuco:5x7:DICT_6X6_250 in a BGR24 frame `count` times, calling OpenCV directly, and
 * writes each detection's time in milliseconds. Returns the ChArUco corners found. */
int detection_baseline_run(const void *bgr, int width, int height, size_t row_stride, int count, double *milliseconds);

/* OpenCV's worker thread count (cv::getNumThreads). */
int detection_baseline_threads(void);

#ifdef __cplusplus
}
#endif

#endif
