// Refinement of a rig of cameras over planar target views with Ceres Solver: a robust solve
// (Huber), corners beyond a threshold dropped camera by camera, plain least squares on the rest,
// then the covariance of every camera's intrinsics and pose. One camera is the rig of one camera
// whose every view is a set of its own. The projection matches OpenCV's (cv::projectPoints, cv::fisheye::projectPoints), so
// the result is read and used by the OpenCV shim unchanged.
#include "mcer.h"

#include "shim_guard.hpp"

#include <ceres/ceres.h>
#include <ceres/rotation.h>
#include <glog/logging.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <vector>

namespace {

using shim::fail;
using shim::require;

int intrinsic_count(mcer_model model) {
    switch (model) {
    case MCER_MODEL_PINHOLE: return 9;
    case MCER_MODEL_PINHOLE_RADTAN: return 9;
    case MCER_MODEL_RATIONAL: return 12;
    case MCER_MODEL_FISHEYE: return 8;
    }
    return 0;
}

// The index (into the intrinsics) of the first higher distortion term: k3 in every model; none
// for pinhole-radtan, whose k3 is held.
int first_regularized(mcer_model model) {
    switch (model) {
    case MCER_MODEL_FISHEYE: return 6;
    case MCER_MODEL_PINHOLE_RADTAN: return 9;
    default: return 8;
    }
}

// The intrinsics a model holds at their initial values whatever the settings: k3 of pinhole-radtan.
std::vector<int> held_by_model(mcer_model model) {
    if (model == MCER_MODEL_PINHOLE_RADTAN) return {8};
    return {};
}

// The projection a model uses: pinhole-radtan is the pinhole projection with k3 held.
mcer_model projection_of(mcer_model model) { return model == MCER_MODEL_PINHOLE_RADTAN ? MCER_MODEL_PINHOLE : model; }

// Where a point in the camera's frame appears, under OpenCV's models.
template <mcer_model Model, typename T>
void project(const T *k, const T *q, T *pixel) {
    const T x = q[0] / q[2], y = q[1] / q[2];
    T u, v;
    if constexpr (Model == MCER_MODEL_FISHEYE) {
        const T r2 = x * x + y * y;
        T scale(1.0);
        if (r2 > T(1e-16)) {
            const T r = sqrt(r2);
            const T theta = atan(r), theta2 = theta * theta;
            const T d = theta * (T(1.0) + theta2 * (k[4] + theta2 * (k[5] + theta2 * (k[6] + theta2 * k[7]))));
            scale = d / r;
        }
        u = x * scale;
        v = y * scale;
    } else {
        const T r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2;
        T radial = T(1.0) + k[4] * r2 + k[5] * r4 + k[8] * r6;
        if constexpr (Model == MCER_MODEL_RATIONAL) radial /= T(1.0) + k[9] * r2 + k[10] * r4 + k[11] * r6;
        u = x * radial + T(2.0) * k[6] * x * y + k[7] * (r2 + T(2.0) * x * x);
        v = y * radial + k[6] * (r2 + T(2.0) * y * y) + T(2.0) * k[7] * x * y;
    }
    pixel[0] = k[0] * u + k[2];
    pixel[1] = k[1] * v + k[3];
}

// A corner seen by a camera other than the first: the target's pose takes it into the first
// camera's frame, the camera's pose from there into its own.
template <mcer_model Model>
struct RigReprojection {
    double X, Y, Z, u, v;

    template <typename T>
    bool operator()(const T *intrinsics, const T *camera, const T *pose, T *residual) const {
        const T point[3] = {T(X), T(Y), T(Z)};
        T first[3], q[3];
        ceres::AngleAxisRotatePoint(pose, point, first);
        for (int axis = 0; axis < 3; ++axis) first[axis] += pose[3 + axis];
        ceres::AngleAxisRotatePoint(camera, first, q);
        for (int axis = 0; axis < 3; ++axis) q[axis] += camera[3 + axis];
        T pixel[2];
        project<Model>(intrinsics, q, pixel);
        residual[0] = pixel[0] - T(u);
        residual[1] = pixel[1] - T(v);
        return true;
    }
};

template <mcer_model Model>
struct Reprojection {
    double X, Y, Z, u, v;

    template <typename T>
    bool operator()(const T *intrinsics, const T *pose, T *residual) const {
        const T point[3] = {T(X), T(Y), T(Z)};
        T q[3];
        ceres::AngleAxisRotatePoint(pose, point, q);
        for (int axis = 0; axis < 3; ++axis) q[axis] += pose[3 + axis];
        T pixel[2];
        project<Model>(intrinsics, q, pixel);
        residual[0] = pixel[0] - T(u);
        residual[1] = pixel[1] - T(v);
        return true;
    }
};

// residual = weight * intrinsics[index]: pulls one higher distortion term towards 0.
class Regularization final : public ceres::CostFunction {
public:
    Regularization(int count, int index, double weight) : index(index), weight(weight) {
        set_num_residuals(1);
        mutable_parameter_block_sizes()->push_back(count);
    }
    bool Evaluate(double const *const *parameters, double *residuals, double **jacobians) const override {
        residuals[0] = weight * parameters[0][index];
        if (jacobians != nullptr && jacobians[0] != nullptr) {
            std::fill_n(jacobians[0], parameter_block_sizes()[0], 0.0);
            jacobians[0][index] = weight;
        }
        return true;
    }

private:
    int index;
    double weight;
};

// Where no corner is, between the corners' farthest radius and the image corners', a radial mapping
// f(r) = r x radial(r) may fold (its slope turning negative, or a rational model's denominator
// reaching 0) or bend away freely: the corners say nothing there. At `samples` radii across that
// band, a residual for a slope under 0.1 (10 x its shortfall over the step, in pixels) and one for
// the second difference over the step (in pixels), each times `weight`, keep it smooth and
// one-to-one.
template <mcer_model Model>
struct RadialGuard {
    double inner, outer, scale, weight;
    int samples;

    template <typename T>
    T radial(const T *k, const T &r) const {
        const T r2 = r * r, r4 = r2 * r2, r6 = r4 * r2;
        T value = T(1.0) + k[4] * r2 + k[5] * r4 + k[8] * r6;
        if constexpr (Model == MCER_MODEL_RATIONAL) value /= T(1.0) + k[9] * r2 + k[10] * r4 + k[11] * r6;
        return r * value;
    }

    template <typename T>
    bool operator()(T const *const *parameters, T *residual) const {
        const T *k = parameters[0];
        const double step = (outer - inner) / samples;
        for (int index = 0; index < samples; ++index) {
            const double r = inner + step * (index + 1);
            const T below = radial(k, T(r - step)), at = radial(k, T(r)), above = radial(k, T(r + step));
            const T slope = (above - below) / T(2 * step);
            residual[2 * index] = slope < T(0.1) ? T(10 * scale * step) * (T(0.1) - slope) : T(0.0);
            residual[2 * index + 1] = T(weight * scale) * (above - T(2.0) * at + below);
        }
        return true;
    }
};

ceres::CostFunction *radial_guard(mcer_model model, double inner, double outer, double scale, double weight) {
    const int samples = 8;
    if (model == MCER_MODEL_RATIONAL) {
        auto *cost = new ceres::DynamicAutoDiffCostFunction<RadialGuard<MCER_MODEL_RATIONAL>>(
            new RadialGuard<MCER_MODEL_RATIONAL>{inner, outer, scale, weight, samples});
        cost->AddParameterBlock(12);
        cost->SetNumResiduals(2 * samples);
        return cost;
    }
    auto *cost = new ceres::DynamicAutoDiffCostFunction<RadialGuard<MCER_MODEL_PINHOLE>>(
        new RadialGuard<MCER_MODEL_PINHOLE>{inner, outer, scale, weight, samples});
    cost->AddParameterBlock(9);
    cost->SetNumResiduals(2 * samples);
    return cost;
}

struct Corner {
    size_t observation;
    double object[3];
    double image[2];
};

struct Observation {
    size_t camera;
    size_t set;
    size_t first;
    size_t count;
};

// The first camera's corners go through the target's pose alone, exactly as one camera's always
// did; the others' through their own pose as well.
ceres::CostFunction *reprojection(mcer_model given, bool reference, const Corner &corner) {
    const mcer_model model = projection_of(given);
    const double o0 = corner.object[0], o1 = corner.object[1], o2 = corner.object[2];
    const double u = corner.image[0], v = corner.image[1];
    if (reference) {
        switch (model) {
        case MCER_MODEL_PINHOLE:
            return new ceres::AutoDiffCostFunction<Reprojection<MCER_MODEL_PINHOLE>, 2, 9, 6>(
                new Reprojection<MCER_MODEL_PINHOLE>{o0, o1, o2, u, v});
        case MCER_MODEL_RATIONAL:
            return new ceres::AutoDiffCostFunction<Reprojection<MCER_MODEL_RATIONAL>, 2, 12, 6>(
                new Reprojection<MCER_MODEL_RATIONAL>{o0, o1, o2, u, v});
        case MCER_MODEL_FISHEYE:
            return new ceres::AutoDiffCostFunction<Reprojection<MCER_MODEL_FISHEYE>, 2, 8, 6>(
                new Reprojection<MCER_MODEL_FISHEYE>{o0, o1, o2, u, v});
        case MCER_MODEL_PINHOLE_RADTAN: break;
        }
    } else {
        switch (model) {
        case MCER_MODEL_PINHOLE:
            return new ceres::AutoDiffCostFunction<RigReprojection<MCER_MODEL_PINHOLE>, 2, 9, 6, 6>(
                new RigReprojection<MCER_MODEL_PINHOLE>{o0, o1, o2, u, v});
        case MCER_MODEL_RATIONAL:
            return new ceres::AutoDiffCostFunction<RigReprojection<MCER_MODEL_RATIONAL>, 2, 12, 6, 6>(
                new RigReprojection<MCER_MODEL_RATIONAL>{o0, o1, o2, u, v});
        case MCER_MODEL_FISHEYE:
            return new ceres::AutoDiffCostFunction<RigReprojection<MCER_MODEL_FISHEYE>, 2, 8, 6, 6>(
                new RigReprojection<MCER_MODEL_FISHEYE>{o0, o1, o2, u, v});
        case MCER_MODEL_PINHOLE_RADTAN: break;
        }
    }
    fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown model %d", int(model));
}

template <mcer_model Model>
void residual_for(bool reference, const Corner &corner, const double *intrinsics, const double *camera,
                  const double *pose, double *out) {
    const double o0 = corner.object[0], o1 = corner.object[1], o2 = corner.object[2];
    if (reference) {
        Reprojection<Model>{o0, o1, o2, corner.image[0], corner.image[1]}(intrinsics, pose, out);
    } else {
        RigReprojection<Model>{o0, o1, o2, corner.image[0], corner.image[1]}(intrinsics, camera, pose, out);
    }
}

// The residual of one corner under the current parameters.
void residual_of(mcer_model model, bool reference, const Corner &corner, const double *intrinsics, const double *camera,
                 const double *pose, double *out) {
    switch (projection_of(model)) {
    case MCER_MODEL_PINHOLE_RADTAN:
    case MCER_MODEL_PINHOLE: residual_for<MCER_MODEL_PINHOLE>(reference, corner, intrinsics, camera, pose, out); break;
    case MCER_MODEL_RATIONAL: residual_for<MCER_MODEL_RATIONAL>(reference, corner, intrinsics, camera, pose, out); break;
    case MCER_MODEL_FISHEYE: residual_for<MCER_MODEL_FISHEYE>(reference, corner, intrinsics, camera, pose, out); break;
    }
}

struct CameraState {
    mcer_model model;
    int count;
    std::vector<double> intrinsics;
    std::array<double, 6> pose;
    bool hold_distortion;
    double guard_inner = 0, guard_outer = 0, guard_scale = 0;
};

struct State {
    std::vector<CameraState> cameras;
    std::vector<std::array<double, 6>> poses;
    std::vector<Observation> observations;
    std::vector<Corner> corners;
    double regularization;
    bool hold_intrinsics;
    // The rational model's weights per distortion coefficient, when given.
    std::vector<double> rational_weights;
    // The radial guard's weight (mcer_settings' `guard_weight`).
    double guard_weight = 0;
};

// How many intrinsics the refinement moves of one camera: all, fx fy cx cy when its distortion is
// held, none when every intrinsic is.
int refined_count(const State &state, const CameraState &camera) {
    if (state.hold_intrinsics) return 0;
    return camera.hold_distortion ? 4 : camera.count - int(held_by_model(camera.model).size());
}

// Builds the problem over the corners marked in `kept`, with a Huber loss of `huber_scale` on each
// (none when it is 0).
std::unique_ptr<ceres::Problem> build(State &state, const std::vector<uint8_t> &kept, double huber_scale) {
    ceres::Problem::Options options;
    auto problem = std::make_unique<ceres::Problem>(options);
    for (auto &camera : state.cameras) {
        double *intrinsics = camera.intrinsics.data();
        problem->AddParameterBlock(intrinsics, camera.count);
        if (state.hold_intrinsics) {
            problem->SetParameterBlockConstant(intrinsics);
        } else if (camera.hold_distortion) {
            std::vector<int> held;
            for (int index = 4; index < camera.count; ++index) held.push_back(index);
            problem->SetManifold(intrinsics, new ceres::SubsetManifold(camera.count, held));
        } else if (const std::vector<int> held = held_by_model(camera.model); !held.empty()) {
            problem->SetManifold(intrinsics, new ceres::SubsetManifold(camera.count, held));
        }
    }
    for (size_t index = 1; index < state.cameras.size(); ++index) {
        problem->AddParameterBlock(state.cameras[index].pose.data(), 6);
    }
    for (auto &pose : state.poses) problem->AddParameterBlock(pose.data(), 6);
    for (size_t index = 0; index < state.corners.size(); ++index) {
        if (!kept[index]) continue;
        const Corner &corner = state.corners[index];
        const Observation &observation = state.observations[corner.observation];
        CameraState &camera = state.cameras[observation.camera];
        ceres::LossFunction *loss = huber_scale > 0 ? new ceres::HuberLoss(huber_scale) : nullptr;
        if (observation.camera == 0) {
            problem->AddResidualBlock(reprojection(camera.model, true, corner), loss, camera.intrinsics.data(),
                                      state.poses[observation.set].data());
        } else {
            problem->AddResidualBlock(reprojection(camera.model, false, corner), loss, camera.intrinsics.data(),
                                      camera.pose.data(), state.poses[observation.set].data());
        }
    }
    if (state.guard_weight > 0 && !state.hold_intrinsics) {
        for (auto &camera : state.cameras) {
            if (camera.hold_distortion || camera.guard_outer <= camera.guard_inner
                || (camera.model != MCER_MODEL_RATIONAL && camera.model != MCER_MODEL_PINHOLE)) continue;
            problem->AddResidualBlock(radial_guard(camera.model, camera.guard_inner, camera.guard_outer, camera.guard_scale,
                                                   state.guard_weight), nullptr, camera.intrinsics.data());
        }
    }
    if ((state.regularization > 0 || !state.rational_weights.empty()) && !state.hold_intrinsics) {
        for (auto &camera : state.cameras) {
            if (camera.hold_distortion) continue;
            if (camera.model == MCER_MODEL_RATIONAL && !state.rational_weights.empty()) {
                for (int index = 4; index < camera.count; ++index) {
                    const double weight = state.rational_weights[size_t(index - 4)];
                    if (weight <= 0) continue;
                    problem->AddResidualBlock(new Regularization(camera.count, index, weight), nullptr, camera.intrinsics.data());
                }
                continue;
            }
            for (int index = first_regularized(camera.model); index < camera.count; ++index) {
                ceres::CostFunction *cost = new Regularization(camera.count, index, state.regularization);
                problem->AddResidualBlock(cost, nullptr, camera.intrinsics.data());
            }
        }
    }
    return problem;
}

// Ceres reports recoverable steps (a failed Cholesky factorisation that Levenberg-Marquardt answers
// with more damping) as glog warnings on standard error; the caller's output is no place for them.
// Errors still show.
void quiet_logging() {
    static std::once_flag once;
    std::call_once(once, [] { FLAGS_minloglevel = std::max(FLAGS_minloglevel, int(google::GLOG_ERROR)); });
}

// Solves `problem`; with `beside_minimum`, Levenberg-Marquardt's first trust-region radius is 1e8
// (steps damped by 1e-8 of the diagonal: Gauss-Newton's) in place of Ceres's 1e4.
void solve(State &state, ceres::Problem &problem, bool beside_minimum) {
    quiet_logging();
    ceres::Solver::Options options;
    if (beside_minimum) options.initial_trust_region_radius = 1e8;
    options.linear_solver_type = ceres::DENSE_SCHUR;
    // Eliminate the target poses first: the reduced system is the cameras' alone.
    auto ordering = std::make_shared<ceres::ParameterBlockOrdering>();
    for (auto &pose : state.poses) ordering->AddElementToGroup(pose.data(), 0);
    for (size_t index = 0; index < state.cameras.size(); ++index) {
        ordering->AddElementToGroup(state.cameras[index].intrinsics.data(), 1);
        if (index > 0) ordering->AddElementToGroup(state.cameras[index].pose.data(), 1);
    }
    options.linear_solver_ordering = ordering;
    options.max_num_iterations = 200;
    options.function_tolerance = 1e-12;
    options.gradient_tolerance = 1e-14;
    options.parameter_tolerance = 1e-12;
    options.num_threads = 1;
    options.logging_type = ceres::SILENT;
    options.minimizer_progress_to_stdout = false;
    ceres::Solver::Summary summary;
    ceres::Solve(options, &problem, &summary);
    if (!summary.IsSolutionUsable()) {
        fail(SHIM_STATUS_LIBRARY_ERROR, "Ceres found no usable solution: %s", summary.message.c_str());
    }
    for (const auto &camera : state.cameras) {
        for (double value : camera.intrinsics) {
            if (!std::isfinite(value)) fail(SHIM_STATUS_LIBRARY_ERROR, "the refined intrinsics are not finite");
        }
        for (double value : camera.pose) {
            if (!std::isfinite(value)) fail(SHIM_STATUS_LIBRARY_ERROR, "the refined camera poses are not finite");
        }
    }
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + long(middle), values.end());
    double result = values[middle];
    if (values.size() % 2 == 0) {
        result = (result + *std::max_element(values.begin(), values.begin() + long(middle))) / 2;
    }
    return result;
}

void check_settings(const mcer_settings &settings) {
    if (!(settings.loss_scale >= 0) || !(settings.drop_sigmas > 0) || !(settings.drop_floor >= 0)
        || !(settings.regularization >= 0) || settings.rounds < 1) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "settings out of range: loss scale %g, drop at %g sigmas and %g px, "
             "regularization %g, %d rounds", settings.loss_scale, settings.drop_sigmas, settings.drop_floor,
             settings.regularization, settings.rounds);
    }
}

void refine_rig(const mcer_rig_problem &input, const mcer_settings &settings, mcer_rig_solution &output) {
    require(input.cameras, "problem->cameras");
    require(input.initial_camera_rotations, "problem->initial_camera_rotations");
    require(input.initial_camera_translations, "problem->initial_camera_translations");
    require(input.initial_set_rotations, "problem->initial_set_rotations");
    require(input.initial_set_translations, "problem->initial_set_translations");
    require(input.observation_cameras, "problem->observation_cameras");
    require(input.observation_sets, "problem->observation_sets");
    require(input.point_counts, "problem->point_counts");
    require(input.object_points, "problem->object_points");
    require(input.image_points, "problem->image_points");
    require(output.intrinsics, "solution->intrinsics");
    require(output.covariance, "solution->covariance");
    require(output.camera_rotations, "solution->camera_rotations");
    require(output.camera_translations, "solution->camera_translations");
    require(output.camera_covariance, "solution->camera_covariance");
    require(output.set_rotations, "solution->set_rotations");
    require(output.set_translations, "solution->set_translations");
    require(output.projected, "solution->projected");
    require(output.kept, "solution->kept");
    require(output.camera_rms, "solution->camera_rms");
    require(output.drop_thresholds, "solution->drop_thresholds");
    if (input.camera_count == 0) fail(SHIM_STATUS_INVALID_ARGUMENT, "no cameras");
    if (input.set_count == 0 || input.observation_count == 0) fail(SHIM_STATUS_INVALID_ARGUMENT, "no views");
    check_settings(settings);
    State state{{}, {}, {}, {}, settings.regularization, input.hold_intrinsics != 0, {}};
    if (std::isfinite(settings.guard_weight) && settings.guard_weight > 0) state.guard_weight = settings.guard_weight;
    if (settings.rational_weights != nullptr) {
        state.rational_weights.assign(settings.rational_weights, settings.rational_weights + 8);
        for (double weight : state.rational_weights) {
            if (!(weight >= 0) || !std::isfinite(weight)) fail(SHIM_STATUS_INVALID_ARGUMENT, "a rational weight of %g", weight);
        }
    }
    for (size_t index = 0; index < input.camera_count; ++index) {
        const mcer_rig_camera &given = input.cameras[index];
        const int count = intrinsic_count(given.model);
        if (count == 0) fail(SHIM_STATUS_INVALID_ARGUMENT, "camera %zu: unknown model %d", index, int(given.model));
        require(given.initial_intrinsics, "problem->cameras[].initial_intrinsics");
        CameraState camera{given.model, count, {}, {}, given.hold_distortion != 0};
        if (std::isfinite(given.guard_inner) && std::isfinite(given.guard_outer) && std::isfinite(given.guard_scale)
            && given.guard_inner > 0 && given.guard_outer > given.guard_inner && given.guard_scale > 0) {
            camera.guard_inner = given.guard_inner;
            camera.guard_outer = given.guard_outer;
            camera.guard_scale = given.guard_scale;
        }
        camera.intrinsics.assign(given.initial_intrinsics, given.initial_intrinsics + count);
        for (double value : camera.intrinsics) {
            if (!std::isfinite(value)) fail(SHIM_STATUS_INVALID_ARGUMENT, "the initial intrinsics are not finite");
        }
        for (size_t axis = 0; axis < 3; ++axis) {
            camera.pose[axis] = index == 0 ? 0 : input.initial_camera_rotations[3 * index + axis];
            camera.pose[3 + axis] = index == 0 ? 0 : input.initial_camera_translations[3 * index + axis];
        }
        for (double value : camera.pose) {
            if (!std::isfinite(value)) fail(SHIM_STATUS_INVALID_ARGUMENT, "the initial camera poses are not finite");
        }
        state.cameras.push_back(camera);
    }
    for (size_t set = 0; set < input.set_count; ++set) {
        std::array<double, 6> pose{};
        for (size_t axis = 0; axis < 3; ++axis) {
            pose[axis] = input.initial_set_rotations[3 * set + axis];
            pose[3 + axis] = input.initial_set_translations[3 * set + axis];
        }
        state.poses.push_back(pose);
    }
    std::vector<uint8_t> seen(input.set_count, 0);
    size_t offset = 0;
    for (size_t index = 0; index < input.observation_count; ++index) {
        const int32_t camera = input.observation_cameras[index], set = input.observation_sets[index];
        const int32_t points = input.point_counts[index];
        if (camera < 0 || size_t(camera) >= input.camera_count || set < 0 || size_t(set) >= input.set_count) {
            fail(SHIM_STATUS_INVALID_ARGUMENT, "view %zu names camera %d of %zu and set %d of %zu", index, camera,
                 input.camera_count, set, input.set_count);
        }
        if (points < 4) fail(SHIM_STATUS_INVALID_ARGUMENT, "view %zu has %d points; at least 4 are needed", index, points);
        seen[size_t(set)] = 1;
        state.observations.push_back({size_t(camera), size_t(set), offset, size_t(points)});
        for (int32_t point = 0; point < points; ++point, ++offset) {
            Corner corner{index, {}, {}};
            std::copy_n(input.object_points + 3 * offset, 3, corner.object);
            std::copy_n(input.image_points + 2 * offset, 2, corner.image);
            state.corners.push_back(corner);
        }
    }
    for (size_t set = 0; set < input.set_count; ++set) {
        if (!seen[set]) fail(SHIM_STATUS_INVALID_ARGUMENT, "set %zu has no view", set);
    }
    const size_t camera_count = state.cameras.size();
    const size_t corners = state.corners.size();
    std::vector<uint8_t> kept(corners, 1);
    std::vector<double> residuals(2 * corners);
    auto evaluate = [&] {
        for (size_t index = 0; index < corners; ++index) {
            const Corner &corner = state.corners[index];
            const Observation &observation = state.observations[corner.observation];
            const CameraState &camera = state.cameras[observation.camera];
            residual_of(camera.model, observation.camera == 0, corner, camera.intrinsics.data(), camera.pose.data(),
                        state.poses[observation.set].data(), &residuals[2 * index]);
        }
    };
    auto error_of = [&](size_t index) { return std::hypot(residuals[2 * index], residuals[2 * index + 1]); };
    // The robust solve over every corner.
    int solves = 0;
    std::unique_ptr<ceres::Problem> problem = build(state, kept, settings.loss_scale);
    solve(state, *problem, settings.starts_beside_minimum != 0);
    ++solves;
    std::vector<double> thresholds(camera_count, 0);
    for (int round = 0; round < settings.rounds; ++round) {
        evaluate();
        // Each camera's threshold from its own corners' residuals.
        std::vector<std::vector<double>> absolute(camera_count);
        for (size_t index = 0; index < corners; ++index) {
            auto &values = absolute[state.observations[state.corners[index].observation].camera];
            values.push_back(std::abs(residuals[2 * index]));
            values.push_back(std::abs(residuals[2 * index + 1]));
        }
        for (size_t camera = 0; camera < camera_count; ++camera) {
            thresholds[camera] = std::max(settings.drop_floor, settings.drop_sigmas * 1.4826 * median(absolute[camera]));
        }
        std::vector<uint8_t> next(corners);
        for (size_t index = 0; index < corners; ++index) {
            const size_t camera = state.observations[state.corners[index].observation].camera;
            next[index] = error_of(index) <= thresholds[camera] ? 1 : 0;
        }
        // Every view keeps at least 4 corners (a pose needs them): the best-fitting ones.
        for (const Observation &observation : state.observations) {
            size_t held = 0;
            for (size_t index = observation.first; index < observation.first + observation.count; ++index) held += next[index];
            if (held < 4) {
                std::vector<size_t> order(observation.count);
                for (size_t index = 0; index < observation.count; ++index) order[index] = observation.first + index;
                std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return error_of(a) < error_of(b); });
                for (size_t index = 0; index < 4; ++index) next[order[index]] = 1;
            }
        }
        // After a robust solve the plain one always runs; afterwards, or after a first solve that
        // was plain already, only when a corner changed side.
        if ((round > 0 || settings.loss_scale == 0) && next == kept) break;
        kept = next;
        problem = build(state, kept, 0);
        solve(state, *problem, true);
        ++solves;
    }
    evaluate();
    size_t kept_count = 0;
    double squared = 0;
    std::vector<double> camera_squared(camera_count, 0);
    std::vector<size_t> camera_kept(camera_count, 0);
    for (size_t index = 0; index < corners; ++index) {
        if (!kept[index]) continue;
        const size_t camera = state.observations[state.corners[index].observation].camera;
        const double error2 = residuals[2 * index] * residuals[2 * index] + residuals[2 * index + 1] * residuals[2 * index + 1];
        ++kept_count;
        squared += error2;
        camera_squared[camera] += error2;
        ++camera_kept[camera];
    }
    int64_t refined = 0;
    for (const auto &camera : state.cameras) refined += refined_count(state, camera);
    const int64_t poses = 6 * int64_t(camera_count - 1) + 6 * int64_t(input.set_count);
    const int64_t freedom = int64_t(2 * kept_count) - refined - poses;
    if (freedom < 1) {
        if (camera_count == 1) {
            fail(SHIM_STATUS_LIBRARY_ERROR, "%zu corners kept give %lld degrees of freedom for %lld intrinsics and %zu poses",
                 kept_count, (long long)freedom, (long long)refined, input.set_count);
        }
        fail(SHIM_STATUS_LIBRARY_ERROR, "%zu corners kept give %lld degrees of freedom for %lld intrinsics, %zu camera "
             "poses and %zu target poses", kept_count, (long long)freedom, (long long)refined, camera_count - 1,
             input.set_count);
    }
    const double sigma2 = squared / double(freedom);
    if (settings.skip_covariance != 0 && output.full_covariance != nullptr) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "a full covariance was asked for without a covariance");
    }
    // Each camera's blocks of (J^T J)^-1 over every parameter: the target poses marginalised out;
    // and, when asked for, the whole matrix over every camera's intrinsics and pose and every
    // target pose.
    // Ceres's sparse QR declares a Jacobian rank deficient at a tolerance of its own, which a
    // well-determined but poorly conditioned solve (a fisheye model's higher terms on a narrow
    // lens) can fail; such a solve is tried again by a dense SVD, which fails only when the
    // Jacobian's reciprocal condition number is under 1e-14: then the views really do not
    // determine the parameters. The dense SVD is cubic in the parameters: up to 3000 of them.
    ceres::Covariance::Options covariance_options;
    covariance_options.num_threads = 1;
    auto covariance_holder = std::make_unique<ceres::Covariance>(covariance_options);
    const auto dense_retry = [&]() -> bool {
        if (problem->NumParameters() > 3000) return false;
        ceres::Covariance::Options dense_options;
        dense_options.num_threads = 1;
        dense_options.algorithm_type = ceres::DENSE_SVD;
        dense_options.null_space_rank = 0;
        covariance_holder = std::make_unique<ceres::Covariance>(dense_options);
        return true;
    };
    const char *undetermined = camera_count == 1
        ? "the covariance could not be computed: the views do not determine every intrinsic"
        : "the covariance could not be computed: the views do not determine every intrinsic and camera pose";
    // Where each camera's intrinsics and pose start in the full matrix.
    std::vector<size_t> intrinsic_at(camera_count), pose_at(camera_count, 0);
    size_t size = 0;
    for (size_t index = 0; index < camera_count; ++index) {
        intrinsic_at[index] = size;
        size += size_t(state.cameras[index].count);
    }
    for (size_t index = 1; index < camera_count; ++index) {
        pose_at[index] = size;
        size += 6;
    }
    std::vector<double> full;
    if (settings.skip_covariance != 0) {
        // Nothing to compute: every covariance block read below is 0.
    } else if (output.full_covariance != nullptr) {
        std::vector<const double *> blocks;
        for (const auto &camera : state.cameras) blocks.push_back(camera.intrinsics.data());
        for (size_t index = 1; index < camera_count; ++index) blocks.push_back(state.cameras[index].pose.data());
        for (const auto &pose : state.poses) blocks.push_back(pose.data());
        size += 6 * state.poses.size();
        full.resize(size * size);
        const auto computed = [&] {
            return covariance_holder->Compute(blocks, problem.get()) && covariance_holder->GetCovarianceMatrix(blocks, full.data());
        };
        if (!computed() && !(dense_retry() && computed())) {
            fail(SHIM_STATUS_LIBRARY_ERROR, camera_count == 1
                 ? "the covariance could not be computed: the views do not determine every intrinsic and pose"
                 : "the covariance could not be computed: the views do not determine every intrinsic, camera pose and target pose");
        }
        for (size_t index = 0; index < full.size(); ++index) output.full_covariance[index] = full[index] * sigma2;
    } else {
        std::vector<std::pair<const double *, const double *>> blocks;
        for (size_t index = 0; index < camera_count; ++index) {
            const double *intrinsics = state.cameras[index].intrinsics.data();
            blocks.emplace_back(intrinsics, intrinsics);
            if (index > 0) blocks.emplace_back(state.cameras[index].pose.data(), state.cameras[index].pose.data());
        }
        if (!covariance_holder->Compute(blocks, problem.get())
            && !(dense_retry() && covariance_holder->Compute(blocks, problem.get()))) {
            fail(SHIM_STATUS_LIBRARY_ERROR, "%s", undetermined);
        }
    }
    // A square block of the full matrix at `at`, or of Ceres's covariance for `block`.
    auto read_block = [&](const double *block, size_t at, size_t count, double *out) {
        if (settings.skip_covariance != 0) {
            std::fill_n(out, count * count, 0.0);
        } else if (!full.empty()) {
            for (size_t row = 0; row < count; ++row) std::copy_n(full.data() + (at + row) * size + at, count, out + row * count);
        } else if (!covariance_holder->GetCovarianceBlock(block, block, out)) {
            fail(SHIM_STATUS_LIBRARY_ERROR, "a covariance block could not be read");
        }
    };
    size_t intrinsic_offset = 0, covariance_offset = 0;
    for (size_t index = 0; index < camera_count; ++index) {
        const CameraState &camera = state.cameras[index];
        const size_t count = size_t(camera.count);
        std::vector<double> matrix(count * count);
        read_block(camera.intrinsics.data(), intrinsic_at[index], count, matrix.data());
        for (size_t entry = 0; entry < matrix.size(); ++entry) output.covariance[covariance_offset + entry] = matrix[entry] * sigma2;
        std::copy(camera.intrinsics.begin(), camera.intrinsics.end(), output.intrinsics + intrinsic_offset);
        intrinsic_offset += count;
        covariance_offset += count * count;
        std::array<double, 36> pose_covariance{};
        if (index > 0) read_block(camera.pose.data(), pose_at[index], 6, pose_covariance.data());
        for (size_t entry = 0; entry < 36; ++entry) output.camera_covariance[36 * index + entry] = pose_covariance[entry] * sigma2;
        for (size_t axis = 0; axis < 3; ++axis) {
            output.camera_rotations[3 * index + axis] = camera.pose[axis];
            output.camera_translations[3 * index + axis] = camera.pose[3 + axis];
        }
        output.camera_rms[index] = camera_kept[index] > 0 ? std::sqrt(camera_squared[index] / double(camera_kept[index])) : 0;
        output.drop_thresholds[index] = thresholds[index];
    }
    for (size_t set = 0; set < input.set_count; ++set) {
        for (size_t axis = 0; axis < 3; ++axis) {
            output.set_rotations[3 * set + axis] = state.poses[set][axis];
            output.set_translations[3 * set + axis] = state.poses[set][3 + axis];
        }
    }
    for (size_t index = 0; index < corners; ++index) {
        output.projected[2 * index] = state.corners[index].image[0] + residuals[2 * index];
        output.projected[2 * index + 1] = state.corners[index].image[1] + residuals[2 * index + 1];
        output.kept[index] = kept[index];
    }
    output.rms = std::sqrt(squared / double(kept_count));
    output.sigma = std::sqrt(sigma2);
    output.kept_count = kept_count;
    output.degrees_of_freedom = freedom;
    output.solves = solves;
}

// One camera: the rig of one camera whose every view is a set of its own.
void refine(const mcer_problem &input, const mcer_settings &settings, mcer_solution &output) {
    require(input.point_counts, "problem->point_counts");
    require(input.object_points, "problem->object_points");
    require(input.image_points, "problem->image_points");
    require(input.initial_intrinsics, "problem->initial_intrinsics");
    require(input.initial_rotations, "problem->initial_rotations");
    require(input.initial_translations, "problem->initial_translations");
    require(output.intrinsics, "solution->intrinsics");
    require(output.covariance, "solution->covariance");
    require(output.rotations, "solution->rotations");
    require(output.translations, "solution->translations");
    require(output.projected, "solution->projected");
    require(output.kept, "solution->kept");
    if (intrinsic_count(input.model) == 0) fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown model %d", int(input.model));
    if (input.view_count == 0) fail(SHIM_STATUS_INVALID_ARGUMENT, "no views");
    const mcer_rig_camera camera{input.model, input.initial_intrinsics, settings.hold_distortion,
                                 settings.guard_inner, settings.guard_outer, settings.guard_scale};
    const double origin[3] = {0, 0, 0};
    std::vector<int32_t> cameras(input.view_count, 0), sets(input.view_count);
    for (size_t view = 0; view < input.view_count; ++view) sets[view] = int32_t(view);
    const mcer_rig_problem rig{1, &camera, origin, origin, input.view_count, input.initial_rotations,
                               input.initial_translations, input.view_count, cameras.data(), sets.data(),
                               input.point_counts, input.object_points, input.image_points, 0};
    double camera_rotation[3], camera_translation[3], camera_covariance[36], camera_rms, threshold;
    mcer_rig_solution solution{output.intrinsics, output.covariance, camera_rotation, camera_translation,
                               camera_covariance, output.rotations, output.translations, output.projected,
                               output.kept, &camera_rms, &threshold, output.full_covariance, 0, 0, 0, 0, 0};
    refine_rig(rig, settings, solution);
    output.rms = solution.rms;
    output.sigma = solution.sigma;
    output.drop_threshold = threshold;
    output.kept_count = solution.kept_count;
    output.degrees_of_freedom = solution.degrees_of_freedom;
    output.solves = solution.solves;
}

}  // namespace

extern "C" {

int32_t mcer_model_intrinsic_count(mcer_model model) { return intrinsic_count(model); }

shim_status mcer_refine(const mcer_problem *problem, const mcer_settings *settings, mcer_solution *solution,
                        shim_error *error) {
    return shim::guarded(SHIM_AREA_CALIBRATION, error, [&] {
        require(problem, "problem");
        require(settings, "settings");
        require(solution, "solution");
        refine(*problem, *settings, *solution);
    });
}

shim_status mcer_rig_refine(const mcer_rig_problem *problem, const mcer_settings *settings,
                            mcer_rig_solution *solution, shim_error *error) {
    return shim::guarded(SHIM_AREA_CALIBRATION, error, [&] {
        require(problem, "problem");
        require(settings, "settings");
        require(solution, "solution");
        refine_rig(*problem, *settings, *solution);
    });
}

}  // extern "C"
