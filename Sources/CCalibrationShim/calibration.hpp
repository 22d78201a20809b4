// The shim convention (shim_guard.hpp) reporting as the calibration shim, and camera conversion,
// shared by the shim's .cpp files; never included by the public header.
#pragma once

#include "CCalibrationShim.h"
#include "shim_guard.hpp"

#include <opencv2/core.hpp>

namespace mcal {

using shim::fail;
using shim::require;

// shim::guarded, reporting as the calibration shim.
inline constexpr shim::Guard<SHIM_AREA_CALIBRATION> guarded{};

// The caller's pixels (GRAY8 or BGR24) as a cv::Mat over the same memory.
inline cv::Mat wrap(const shim_pixels *pixels) { return shim::wrap_gray_or_bgr(pixels); }

// The camera matrix and distortion coefficients as OpenCV matrices (CV_64F).
cv::Mat camera_matrix(const mcal_camera &camera);
cv::Mat distortion(const mcal_camera &camera);

}  // namespace mcal
