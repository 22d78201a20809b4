// Refinement of one camera over planar target views with Ceres Solver: a robust solve (Huber),
// corners beyond a threshold dropped, plain least squares on the rest, then the intrinsics'
// covariance. The projection matches OpenCV's (cv::projectPoints, cv::fisheye::projectPoints), so
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
    case MCER_MODEL_RATIONAL: return 12;
    case MCER_MODEL_FISHEYE: return 8;
    }
    return 0;
}

// The index (into the intrinsics) of the first higher distortion term: k3 in every model.
int first_regularized(mcer_model model) { return model == MCER_MODEL_FISHEYE ? 6 : 8; }

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

struct Corner {
    size_t view;
    double object[3];
    double image[2];
};

ceres::CostFunction *reprojection(mcer_model model, int count, const Corner &corner) {
    const double o0 = corner.object[0], o1 = corner.object[1], o2 = corner.object[2];
    const double u = corner.image[0], v = corner.image[1];
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
    }
    (void)count;
    fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown model %d", int(model));
}

// The residual of one corner under the current parameters.
void residual_of(mcer_model model, const Corner &corner, const double *intrinsics, const double *pose, double *out) {
    switch (model) {
    case MCER_MODEL_PINHOLE: Reprojection<MCER_MODEL_PINHOLE>{corner.object[0], corner.object[1], corner.object[2], corner.image[0], corner.image[1]}(intrinsics, pose, out); break;
    case MCER_MODEL_RATIONAL: Reprojection<MCER_MODEL_RATIONAL>{corner.object[0], corner.object[1], corner.object[2], corner.image[0], corner.image[1]}(intrinsics, pose, out); break;
    case MCER_MODEL_FISHEYE: Reprojection<MCER_MODEL_FISHEYE>{corner.object[0], corner.object[1], corner.object[2], corner.image[0], corner.image[1]}(intrinsics, pose, out); break;
    }
}

struct State {
    mcer_model model;
    int count;
    std::vector<double> intrinsics;
    std::vector<std::array<double, 6>> poses;
    std::vector<Corner> corners;
    double regularization;
    bool hold_distortion;
};

// How many intrinsics the refinement moves: all, or fx fy cx cy when the distortion is held.
int refined_count(const State &state) { return state.hold_distortion ? 4 : state.count; }

// Builds the problem over the corners marked in `kept`, with `loss` (owned by the problem) on each.
std::unique_ptr<ceres::Problem> build(State &state, const std::vector<uint8_t> &kept, double huber_scale) {
    ceres::Problem::Options options;
    auto problem = std::make_unique<ceres::Problem>(options);
    double *intrinsics = state.intrinsics.data();
    problem->AddParameterBlock(intrinsics, state.count);
    if (state.hold_distortion) {
        std::vector<int> held;
        for (int index = 4; index < state.count; ++index) held.push_back(index);
        problem->SetManifold(intrinsics, new ceres::SubsetManifold(state.count, held));
    }
    for (auto &pose : state.poses) problem->AddParameterBlock(pose.data(), 6);
    for (size_t index = 0; index < state.corners.size(); ++index) {
        if (!kept[index]) continue;
        const Corner &corner = state.corners[index];
        ceres::LossFunction *loss = huber_scale > 0 ? new ceres::HuberLoss(huber_scale) : nullptr;
        problem->AddResidualBlock(reprojection(state.model, state.count, corner), loss, intrinsics,
                                  state.poses[corner.view].data());
    }
    if (state.regularization > 0 && !state.hold_distortion) {
        for (int index = first_regularized(state.model); index < state.count; ++index) {
            ceres::CostFunction *cost = new Regularization(state.count, index, state.regularization);
            problem->AddResidualBlock(cost, nullptr, intrinsics);
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

void solve(State &state, ceres::Problem &problem) {
    quiet_logging();
    ceres::Solver::Options options;
    options.linear_solver_type = ceres::DENSE_SCHUR;
    // Eliminate the poses first: the reduced system is the intrinsics' alone.
    auto ordering = std::make_shared<ceres::ParameterBlockOrdering>();
    for (auto &pose : state.poses) ordering->AddElementToGroup(pose.data(), 0);
    ordering->AddElementToGroup(state.intrinsics.data(), 1);
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
    for (double value : state.intrinsics) {
        if (!std::isfinite(value)) fail(SHIM_STATUS_LIBRARY_ERROR, "the refined intrinsics are not finite");
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
    const int count = intrinsic_count(input.model);
    if (count == 0) fail(SHIM_STATUS_INVALID_ARGUMENT, "unknown model %d", int(input.model));
    if (input.view_count == 0) fail(SHIM_STATUS_INVALID_ARGUMENT, "no views");
    if (!(settings.loss_scale >= 0) || !(settings.drop_sigmas > 0) || !(settings.drop_floor >= 0)
        || !(settings.regularization >= 0) || settings.rounds < 1) {
        fail(SHIM_STATUS_INVALID_ARGUMENT, "settings out of range: loss scale %g, drop at %g sigmas and %g px, "
             "regularization %g, %d rounds", settings.loss_scale, settings.drop_sigmas, settings.drop_floor,
             settings.regularization, settings.rounds);
    }
    State state{input.model, count, {}, {}, {}, settings.regularization, settings.hold_distortion != 0};
    state.intrinsics.assign(input.initial_intrinsics, input.initial_intrinsics + count);
    size_t offset = 0;
    for (size_t view = 0; view < input.view_count; ++view) {
        const int32_t points = input.point_counts[view];
        if (points < 4) fail(SHIM_STATUS_INVALID_ARGUMENT, "view %zu has %d points; at least 4 are needed", view, points);
        std::array<double, 6> pose{};
        for (int axis = 0; axis < 3; ++axis) {
            pose[size_t(axis)] = input.initial_rotations[3 * view + size_t(axis)];
            pose[size_t(3 + axis)] = input.initial_translations[3 * view + size_t(axis)];
        }
        state.poses.push_back(pose);
        for (int32_t point = 0; point < points; ++point, ++offset) {
            Corner corner{view, {}, {}};
            std::copy_n(input.object_points + 3 * offset, 3, corner.object);
            std::copy_n(input.image_points + 2 * offset, 2, corner.image);
            state.corners.push_back(corner);
        }
    }
    for (double value : state.intrinsics) {
        if (!std::isfinite(value)) fail(SHIM_STATUS_INVALID_ARGUMENT, "the initial intrinsics are not finite");
    }
    const size_t corners = state.corners.size();
    std::vector<uint8_t> kept(corners, 1);
    std::vector<double> residuals(2 * corners);
    auto evaluate = [&] {
        for (size_t index = 0; index < corners; ++index) {
            residual_of(state.model, state.corners[index], state.intrinsics.data(),
                        state.poses[state.corners[index].view].data(), &residuals[2 * index]);
        }
    };
    // The robust solve over every corner.
    int solves = 0;
    std::unique_ptr<ceres::Problem> problem = build(state, kept, settings.loss_scale);
    solve(state, *problem);
    ++solves;
    double threshold = 0;
    for (int round = 0; round < settings.rounds; ++round) {
        evaluate();
        std::vector<double> absolute(residuals.size());
        std::transform(residuals.begin(), residuals.end(), absolute.begin(), [](double r) { return std::abs(r); });
        threshold = std::max(settings.drop_floor, settings.drop_sigmas * 1.4826 * median(absolute));
        std::vector<uint8_t> next(corners);
        for (size_t index = 0; index < corners; ++index) {
            next[index] = std::hypot(residuals[2 * index], residuals[2 * index + 1]) <= threshold ? 1 : 0;
        }
        // Every view keeps at least 4 corners (a pose needs them): the best-fitting ones.
        for (size_t view = 0, first = 0; view < input.view_count; ++view) {
            const size_t points = size_t(input.point_counts[view]);
            size_t held = 0;
            for (size_t index = first; index < first + points; ++index) held += next[index];
            if (held < 4) {
                std::vector<size_t> order(points);
                for (size_t index = 0; index < points; ++index) order[index] = first + index;
                std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
                    return std::hypot(residuals[2 * a], residuals[2 * a + 1]) < std::hypot(residuals[2 * b], residuals[2 * b + 1]);
                });
                for (size_t index = 0; index < 4; ++index) next[order[index]] = 1;
            }
            first += points;
        }
        // After the robust solve the plain one always runs; afterwards only when a corner changed side.
        if (round > 0 && next == kept) break;
        kept = next;
        problem = build(state, kept, 0);
        solve(state, *problem);
        ++solves;
    }
    evaluate();
    size_t kept_count = 0;
    double squared = 0;
    for (size_t index = 0; index < corners; ++index) {
        if (!kept[index]) continue;
        ++kept_count;
        squared += residuals[2 * index] * residuals[2 * index] + residuals[2 * index + 1] * residuals[2 * index + 1];
    }
    const int64_t freedom = int64_t(2 * kept_count) - refined_count(state) - 6 * int64_t(input.view_count);
    if (freedom < 1) {
        fail(SHIM_STATUS_LIBRARY_ERROR, "%zu corners kept give %lld degrees of freedom for %d intrinsics and %zu poses",
             kept_count, (long long)freedom, refined_count(state), input.view_count);
    }
    const double sigma2 = squared / double(freedom);
    // The intrinsics' block of (J^T J)^-1 over intrinsics and poses: the poses marginalised out;
    // and, when asked for, the whole matrix over the intrinsics and every pose.
    ceres::Covariance::Options covariance_options;
    covariance_options.num_threads = 1;
    ceres::Covariance covariance(covariance_options);
    const double *block = state.intrinsics.data();
    std::vector<double> matrix(size_t(count * count));
    if (output.full_covariance != nullptr) {
        std::vector<const double *> blocks{block};
        for (const auto &pose : state.poses) blocks.push_back(pose.data());
        const size_t size = size_t(count) + 6 * state.poses.size();
        std::vector<double> full(size * size);
        if (!covariance.Compute(blocks, problem.get()) || !covariance.GetCovarianceMatrix(blocks, full.data())) {
            fail(SHIM_STATUS_LIBRARY_ERROR, "the covariance could not be computed: the views do not determine every intrinsic and pose");
        }
        for (size_t index = 0; index < full.size(); ++index) output.full_covariance[index] = full[index] * sigma2;
        for (size_t row = 0; row < size_t(count); ++row) {
            std::copy_n(full.data() + row * size, size_t(count), matrix.data() + row * size_t(count));
        }
    } else {
        std::vector<std::pair<const double *, const double *>> blocks{{block, block}};
        if (!covariance.Compute(blocks, problem.get())) {
            fail(SHIM_STATUS_LIBRARY_ERROR, "the covariance could not be computed: the views do not determine every intrinsic");
        }
        if (!covariance.GetCovarianceBlock(block, block, matrix.data())) {
            fail(SHIM_STATUS_LIBRARY_ERROR, "the intrinsics' covariance block could not be read");
        }
    }
    for (size_t index = 0; index < matrix.size(); ++index) output.covariance[index] = matrix[index] * sigma2;
    std::copy(state.intrinsics.begin(), state.intrinsics.end(), output.intrinsics);
    for (size_t view = 0; view < input.view_count; ++view) {
        for (size_t axis = 0; axis < 3; ++axis) {
            output.rotations[3 * view + axis] = state.poses[view][axis];
            output.translations[3 * view + axis] = state.poses[view][3 + axis];
        }
    }
    for (size_t index = 0; index < corners; ++index) {
        output.projected[2 * index] = state.corners[index].image[0] + residuals[2 * index];
        output.projected[2 * index + 1] = state.corners[index].image[1] + residuals[2 * index + 1];
        output.kept[index] = kept[index];
    }
    output.rms = std::sqrt(squared / double(kept_count));
    output.sigma = std::sqrt(sigma2);
    output.drop_threshold = threshold;
    output.kept_count = kept_count;
    output.degrees_of_freedom = freedom;
    output.solves = solves;
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

}  // extern "C"
