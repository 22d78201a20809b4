// swift-tools-version: 6.1
//
// Benchmarks live in their own package so that building and testing MarkerShutter never pulls in
// the peers they are compared against. Run them from this folder in release mode, e.g.
//   swift run -c release <benchmark-name>
// Every benchmark prints its figures; BENCHMARKS.md records them with the command and machine.

import PackageDescription

// MARK: - Rate limiting

let debounceBenchmarkDependencies: [Package.Dependency] = [
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
]
let debounceBenchmarkTargets: [Target] = [
    // swift run -c release DebounceBenchmark   (see BENCHMARKS.md for the full command)
    .executableTarget(
        name: "DebounceBenchmark",
        dependencies: [
            .product(name: "Debounce", package: "MarkerShutter"),
            .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            .product(name: "OpenCombine", package: "OpenCombine"),
            .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
        ]
    ),
]

// MARK: - Detection

let detectionBenchmarkDependencies: [Package.Dependency] = []
let detectionBenchmarkTargets: [Target] = [
    // swift run -c release detection-benchmark
    .executableTarget(
        name: "detection-benchmark",
        dependencies: [.product(name: "MarkerDetection", package: "MarkerShutter"), "DetectionBaseline"],
        path: "Sources/DetectionBenchmark"),
    // The C++ baseline the benchmark runs in its own process: OpenCV called directly, no wrapper.
    .systemLibrary(name: "COpenCVBaseline", path: "Sources/COpenCVBaseline", pkgConfig: "opencv4"),
    .target(name: "DetectionBaseline", dependencies: ["COpenCVBaseline"], path: "Sources/DetectionBaseline"),
    // swift run -c release fast-detection-benchmark FOLDER: full against fast mode, with ground truth
    .executableTarget(
        name: "fast-detection-benchmark",
        dependencies: [.product(name: "MarkerDetection", package: "MarkerShutter")],
        path: "Sources/FastDetectionBenchmark"),
    // swift run -c release apriltag-benchmark: libapriltag against OpenCV's AprilTag dictionary
    .executableTarget(
        name: "apriltag-benchmark",
        dependencies: [.product(name: "MarkerDetection", package: "MarkerShutter")],
        path: "Sources/AprilTagBenchmark"),
    // swift run -c release tracking-benchmark FOLDER PATTERN: a folder searched as `process` follows
    // the board, against each frame alone: CPU time a frame and the corners found
    .executableTarget(
        name: "tracking-benchmark",
        dependencies: [.product(name: "MarkerDetection", package: "MarkerShutter")],
        path: "Sources/TrackingBenchmark"),
    // swift run -c release detection-memory
    .executableTarget(
        name: "detection-memory",
        dependencies: [.product(name: "MarkerDetection", package: "MarkerShutter")],
        path: "Sources/DetectionMemory"),
]

// MARK: - Capture

let captureBenchmarkDependencies: [Package.Dependency] = []
let captureBenchmarkTargets: [Target] = [
    // The package's test harness for the emulated camera, which is no product of it: this folder is
    // a symbolic link to ../Tests/Support/EmulatedCameraHarness (a target's path must lie inside its
    // own package). The harness finds the package root, its scripts and the plugin, by the link's
    // target, so both packages use the same Scripts/ and .build/emulated-camera/.
    .target(name: "EmulatedCameraHarness", path: "Sources/EmulatedCameraHarness"),
    .executableTarget(
        name: "capture-benchmark",
        dependencies: [.product(name: "FrameCapture", package: "MarkerShutter"), "EmulatedCameraHarness"],
        path: "Sources/CaptureBenchmark"),
]

// MARK: - Pipeline

let pipelineBenchmarkDependencies: [Package.Dependency] = []
let pipelineBenchmarkTargets: [Target] = [
    // swift run -c release pipeline-frames FOLDER: the benchmark's 1280x720 JPEG session
    .executableTarget(
        name: "pipeline-frames",
        dependencies: [.product(name: "MarkerDetection", package: "MarkerShutter")],
        path: "Sources/PipelineFrames"),
    // swift run -c release pipeline-benchmark offline|live|memory   (see BENCHMARKS.md)
    .executableTarget(
        name: "pipeline-benchmark",
        dependencies: ["EmulatedCameraHarness"],
        path: "Sources/PipelineBenchmark"),
]

// MARK: - Calibration

let calibrationBenchmarkTargets: [Target] = [
    // swift run -c release calibration-benchmark solve|photos   (see BENCHMARKS.md)
    .executableTarget(
        name: "calibration-benchmark",
        dependencies: [
            .product(name: "Calibration", package: "MarkerShutter"),
            .product(name: "MarkerDetection", package: "MarkerShutter"),
        ],
        path: "Sources/CalibrationBenchmark"),
]

// MARK: - Target identification

let identificationBenchmarkTargets: [Target] = [
    // The package's synthetic views and its identification set, which are no product of it: this
    // folder is a symbolic link to ../Tests/MarkerDetectionTestSupport (a target of that name there,
    // so another name here).
    .target(
        name: "SyntheticViewSupport", dependencies: [.product(name: "MarkerDetection", package: "MarkerShutter")],
        path: "Sources/SyntheticViewSupport"),
    // swift run -c release identification-benchmark [speed|set] : five 1920x1080 frames identified,
    // and the identification set's figures
    .executableTarget(
        name: "identification-benchmark",
        dependencies: [.product(name: "MarkerDetection", package: "MarkerShutter"), "SyntheticViewSupport"],
        path: "Sources/IdentificationBenchmark"),
]

// MARK: - Package

let package = Package(
    name: "MarkerShutterBenchmarks",
    dependencies: [.package(name: "MarkerShutter", path: "..")]
        + debounceBenchmarkDependencies + detectionBenchmarkDependencies + captureBenchmarkDependencies
        + pipelineBenchmarkDependencies,
    targets: debounceBenchmarkTargets + detectionBenchmarkTargets + captureBenchmarkTargets + pipelineBenchmarkTargets
        + calibrationBenchmarkTargets + identificationBenchmarkTargets,
    swiftLanguageModes: [.v6]
)
