/* Intentionally empty: this module only brings in Eigen's pkg-config flags for Ceres Solver (see module.modulemap). */
