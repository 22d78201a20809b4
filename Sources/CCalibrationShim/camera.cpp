// Camera conversion for the calibration shim.
#include "calibration.hpp"

namespace mcal {

cv::Mat camera_matrix(const mcal_camera &camera) {
    return cv::Mat(3, 3, CV_64F, const_cast<double *>(camera.camera_matrix)).clone();
}

cv::Mat distortion(const mcal_camera &camera) {
    const int expected = camera.model == MCAL_MODEL_PINHOLE || camera.model == MCAL_MODEL_PINHOLE_RADTAN ? 5
                         : camera.model == MCAL_MODEL_RATIONAL                                     ? 8
                                                                                                   : 4;
    if (camera.distortion_count != expected) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "model %d has %d distortion coefficients, not %d", int(camera.model),
             camera.distortion_count, expected);
    }
    return cv::Mat(1, expected, CV_64F, const_cast<double *>(camera.distortion)).clone();
}

}  // namespace mcal
