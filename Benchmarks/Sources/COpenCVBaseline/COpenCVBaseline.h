/* Intentionally empty: this module only brings in OpenCV's pkg-config flags. */
